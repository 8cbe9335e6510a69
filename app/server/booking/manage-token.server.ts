import { createHash, randomBytes } from "node:crypto";

/*
 * The client's personal link /reservation/{token}: 32 random bytes in base64url (43 characters), given once
 * (in the confirmation page and e-mail) and stored only as its SHA-256, so that a copy of the database opens
 * no booking. A token names one booking.
 */

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The SHA-256 (hex) kept in `bookings.manage_token_hash`. */
export function manageTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new token and its hash. */
export function newManageToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: manageTokenHash(token) };
}

/** True for something shaped like a token: anything else is refused before any query. */
export function looksLikeManageToken(value: unknown): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}
