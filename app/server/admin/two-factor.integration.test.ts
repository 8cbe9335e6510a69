import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { describe, expect, it } from "vitest";
import { cookieAfter, useTestAuth } from "../../../tests/support/auth";
import { upsertAccount } from "./administrators.server";

const { auth: testAuth } = useTestAuth();

describe("two-factor", () => {
  it("enables, signs in with a backup code, and disables with the password", async () => {
    const credentials = { email: "owner@example.com", password: "secret-1" };
    await upsertAccount(testAuth(), credentials);
    const signIn = await testAuth().api.signInEmail({ body: credentials, returnHeaders: true });
    let cookie = cookieAfter(signIn.headers);
    const enabled = (await testAuth().api.enableTwoFactor({
      body: { password: "secret-1" },
      headers: new Headers({ cookie }),
    })) as { totpURI: string; backupCodes: string[] };
    const key = new URL(enabled.totpURI).searchParams.get("secret") ?? "";
    const code = await createOTP(new TextDecoder().decode(base32.decode(key))).totp();
    const verified = await testAuth().api.verifyTOTP({
      body: { code },
      headers: new Headers({ cookie }),
      returnHeaders: true,
    });
    cookie = cookieAfter(verified.headers, cookie);

    const second = await testAuth().api.signInEmail({ body: credentials, returnHeaders: true });
    expect((second.response as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    const challenge = cookieAfter(second.headers);
    const backup = await testAuth().api.verifyBackupCode({
      body: { code: enabled.backupCodes[0] ?? "" },
      headers: new Headers({ cookie: challenge }),
      returnHeaders: true,
    });
    cookie = cookieAfter(backup.headers, challenge);

    const disabled = await testAuth().api.disableTwoFactor({
      body: { password: "secret-1" },
      headers: new Headers({ cookie }),
      returnHeaders: true,
    });
    expect(disabled.response).toEqual({ status: true });
  });
});
