import { describe, expect, it } from "vitest";
import { BACKUP_CODE_ALPHABET, generateBackupCodes } from "../auth/rules.server";
import {
  DEVICE_COOKIE_MAX_AGE_SECONDS,
  deviceCookieName,
  signDeviceCookie,
  verifyDeviceCookie,
} from "./device-cookie.server";
import { normaliseCode } from "./two-factor.server";

const secret = "a-test-secret-that-is-long-enough-0123456789";

describe("device cookies", () => {
  it("are valid for the account they were signed for (any case of the address), and no other", () => {
    const value = signDeviceCookie(secret, "Owner@Example.com");
    expect(verifyDeviceCookie(secret, "owner@example.com", value)).toBe(value.split(".")[0]);
    expect(verifyDeviceCookie(secret, "other@example.com", value)).toBeNull();
    expect(
      verifyDeviceCookie("another-secret-that-is-long-enough-012345", "owner@example.com", value),
    ).toBeNull();
  });

  it("cannot be altered or made without the secret", () => {
    const [nonce, issued, mac] = signDeviceCookie(secret, "owner@example.com").split(".");
    const tampered = [
      `${nonce}.${issued}.${"A".repeat(mac?.length ?? 43)}`,
      `${"B".repeat(22)}.${issued}.${mac}`,
      `${nonce}.${Number(issued) + 1}.${mac}`,
      `${nonce}.${issued}`,
      `${nonce}.${issued}.${mac}.x`,
      "",
    ];
    for (const value of tampered)
      expect(verifyDeviceCookie(secret, "owner@example.com", value)).toBeNull();
  });

  it("expire after their lifetime", () => {
    const old = Math.floor(Date.now() / 1000) - DEVICE_COOKIE_MAX_AGE_SECONDS - 1;
    const value = signDeviceCookie(secret, "owner@example.com", {
      nonce: "n".repeat(22),
      issuedAt: old,
    });
    expect(verifyDeviceCookie(secret, "owner@example.com", value)).toBeNull();
  });

  it("are Secure-prefixed like the session cookie on HTTPS", () => {
    expect(deviceCookieName(true)).toBe("__Secure-studio.device");
    expect(deviceCookieName(false)).toBe("studio.device");
  });
});

describe("backup codes", () => {
  it("use no look-alike characters and read XXXXX-XXXXX", () => {
    expect(BACKUP_CODE_ALPHABET).not.toMatch(/[01OIl]/);
    const codes = generateBackupCodes(200);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
    expect(new Set(codes).size).toBe(200);
  });

  it("are recognised as typed: lower case, without the dash, with spaces", () => {
    expect(normaliseCode("abcde fghjk")).toBe("ABCDE-FGHJK");
    expect(normaliseCode("ABCDEFGHJK")).toBe("ABCDE-FGHJK");
    expect(normaliseCode("123 456")).toBe("123456");
  });
});
