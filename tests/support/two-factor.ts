import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";

/** The current code of the authenticator app, from the manual key the security page shows (base32). */
export function totp(key: string): Promise<string> {
  const secret = new TextDecoder().decode(base32.decode(key.replace(/ /g, "")));
  return createOTP(secret).totp();
}
