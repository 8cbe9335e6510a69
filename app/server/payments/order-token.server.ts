import { createHash, createHmac } from "node:crypto";
import { authSecret } from "../auth/auth.server";

/*
 * The buyer's page /commande/{token}: 32 bytes in base64url (43 characters), derived from the order's id with
 * the server's secret (as a booking's manage link, decision 0115), so that every e-mail about the order can
 * carry it without keeping it. The database holds only its SHA-256: a copy of it opens no order.
 */

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The SHA-256 (hex) kept in `orders.token_hash`. */
export function orderTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** True for something shaped like a token: anything else is refused before any query. */
export function looksLikeOrderToken(value: unknown): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}

/** The token of an order's page, made again from its id whenever an e-mail needs it. */
export async function orderTokenFor(orderId: string): Promise<string> {
  const secret = await authSecret();
  const key = createHmac("sha256", secret).update("studio order page links").digest();
  return createHmac("sha256", key).update(orderId).digest("base64url");
}
