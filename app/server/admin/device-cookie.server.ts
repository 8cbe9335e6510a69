import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { authSecret } from "../auth/auth.server";
import { env } from "../env.server";

/*
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; decision record 0040). A
 * browser in which an administrator has signed in receives a cookie naming a random nonce, signed with the
 * auth secret and bound to that account's e-mail address. At the next sign-in to the same account, a valid
 * cookie puts the attempt on the device's own counter instead of the account's counter for unknown
 * browsers: a stranger who exhausts the latter cannot lock out the owner's browser, and cannot make such a
 * cookie without the secret.
 */

/** How long a browser stays known after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** Secure cookies (with their `__Secure-` prefix) when the site is served over HTTPS, as for the session. */
function secureCookies(): boolean {
  return env().SITE_URL.startsWith("https://");
}

export function deviceCookieName(secure = secureCookies()): string {
  return secure ? "__Secure-studio.device" : "studio.device";
}

function signature(secret: string, email: string, nonce: string, issuedAt: number): Buffer {
  const key = createHmac("sha256", secret).update("studio admin device cookie").digest();
  return createHmac("sha256", key)
    .update(`${email.trim().toLowerCase()}\n${nonce}\n${issuedAt}`)
    .digest();
}

/** The cookie's value for `email`: `nonce.issuedAt.signature`. */
export function signDeviceCookie(
  secret: string,
  email: string,
  { nonce = randomBytes(16).toString("base64url"), issuedAt = Math.floor(Date.now() / 1000) } = {},
): string {
  return `${nonce}.${issuedAt}.${signature(secret, email, nonce, issuedAt).toString("base64url")}`;
}

/** The nonce of `value` when it is a cookie this site signed for `email` and it has not expired. */
export function verifyDeviceCookie(secret: string, email: string, value: string): string | null {
  const [nonce = "", issued = "", mac = "", ...rest] = value.split(".");
  if (rest.length > 0 || !NONCE.test(nonce) || !/^\d{1,12}$/.test(issued)) return null;
  const issuedAt = Number(issued);
  const age = Math.floor(Date.now() / 1000) - issuedAt;
  if (age < 0 || age > DEVICE_COOKIE_MAX_AGE_SECONDS) return null;
  const expected = signature(secret, email, nonce, issuedAt);
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return nonce;
}

/** The nonce of this browser's device cookie when it is valid for `email`, else null. */
export async function trustedDevice(request: Request, email: string): Promise<string | null> {
  const name = deviceCookieName();
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    const nonce = verifyDeviceCookie(
      await authSecret(),
      email,
      decodeURIComponent(value.join("=")),
    );
    if (nonce) return nonce;
  }
  return null;
}

/** The Set-Cookie header that makes this browser known for `email` (a fresh nonce each time). */
export async function deviceCookieHeader(email: string): Promise<string> {
  const secure = secureCookies();
  return [
    `${deviceCookieName(secure)}=${signDeviceCookie(await authSecret(), email)}`,
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
    "Path=/admin",
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
