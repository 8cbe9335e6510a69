import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { createAuth, type Auth } from "../auth.server";
import { upsertAccount } from "./administrators.server";

let database: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  database = await createTestDatabase();
  auth = createAuth({
    database: database.db,
    secret: "a-test-secret-that-is-long-enough-0123456789",
    baseURL: "http://localhost:3000",
  });
});
afterAll(() => database.close());

const cookieOf = (headers: Headers, previous = "") => {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0] ?? "", pair] as const),
  );
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    const name = pair.split("=")[0] ?? "";
    if (/max-age=0/i.test(cookie) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
};

describe("two-factor", () => {
  it("enables, signs in with a backup code, and disables with the password", async () => {
    const credentials = { email: "owner@example.com", password: "secret-1" };
    await upsertAccount(auth, credentials);
    const signIn = await auth.api.signInEmail({ body: credentials, returnHeaders: true });
    let cookie = cookieOf(signIn.headers);
    const enabled = (await auth.api.enableTwoFactor({
      body: { password: "secret-1" },
      headers: new Headers({ cookie }),
    })) as { totpURI: string; backupCodes: string[] };
    const key = new URL(enabled.totpURI).searchParams.get("secret") ?? "";
    const code = await createOTP(new TextDecoder().decode(base32.decode(key))).totp();
    const verified = await auth.api.verifyTOTP({
      body: { code },
      headers: new Headers({ cookie }),
      returnHeaders: true,
    });
    cookie = cookieOf(verified.headers, cookie);

    const second = await auth.api.signInEmail({ body: credentials, returnHeaders: true });
    expect((second.response as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    const challenge = cookieOf(second.headers);
    const backup = await auth.api.verifyBackupCode({
      body: { code: enabled.backupCodes[0] ?? "" },
      headers: new Headers({ cookie: challenge }),
      returnHeaders: true,
    });
    cookie = cookieOf(backup.headers, challenge);

    const disabled = await auth.api.disableTwoFactor({
      body: { password: "secret-1" },
      headers: new Headers({ cookie }),
      returnHeaders: true,
    });
    expect(disabled.response).toEqual({ status: true });
  });
});
