import { createHash, createHmac, randomBytes } from "node:crypto";
import { authSecret } from "../auth/auth.server";

/*
 * The client's personal link /reservation/{token}: 32 bytes in base64url (43 characters), stored only as its
 * SHA-256, so that a copy of the database opens no booking. A token names one booking. Bookings made since
 * decision 0115 derive it from their id with the server's secret (manageTokenFor), so that every e-mail can
 * carry the link; newManageToken stays for tokens that need no later e-mail.
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

/**
 * The token of a booking's manage link, derived from its id with the server's secret (HMAC-SHA256, 32 bytes
 * in base64url): only the server can make it, and it can make it again for a later e-mail (a move, a
 * reminder) without keeping it anywhere. The database still holds only its SHA-256 (decision 0115).
 */
export async function manageTokenFor(bookingId: string): Promise<string> {
  const secret = await authSecret();
  const key = createHmac("sha256", secret).update("studio booking manage links").digest();
  return createHmac("sha256", key).update(bookingId).digest("base64url");
}
