// The pure parts of the « ventes » section (ventes.ts): the voucher order form as a browser without
// JavaScript posts it, and what the site's answers say (where an order leads, a toast's kind), so that the
// section counts outcomes from the answers themselves.

import { voucherOrderFields as orderFields } from "../../tests/support/voucher-form.ts";

export type VoucherOffer =
  { kind: "amount"; euros: number } | { kind: "session"; sessionTypeId: string };

/** The fields of /bons-cadeaux for one order (`n` makes the buyer's e-mail and the order key unique). */
export function voucherOrderFields(
  offer: VoucherOffer,
  method: "card" | "transfer" | "studio",
  n: number,
  run: string,
): Record<string, string> {
  const fields = orderFields({
    ...(offer.kind === "amount"
      ? { offre: "montant", montant: String(offer.euros) }
      : { offre: offer.sessionTypeId }),
    message: "Joyeux anniversaire ! À très vite au studio.",
    acheteurEmail: `zoe-${run}-${n}@example.com`,
    paiement: method,
    // The hidden order key the page draws: one per order, so that each post is a new order.
    cle: `banc-${run}-${n}`,
  });
  // A session voucher carries no amount.
  if (offer.kind === "session") delete fields.montant;
  return fields;
}

/**
 * Where a placed order's 303 leads: the card provider's page (its Checkout Session's id, the last segment
 * of `/pay/{id}` on `pageOrigin`), the order's own page, or elsewhere (null: not an order).
 */
export function orderDestination(
  location: string | undefined,
  pageOrigin: string,
): { to: "checkout"; sessionId: string } | { to: "order-page"; path: string } | null {
  if (!location) return null;
  if (/^\/commande\/[A-Za-z0-9_-]+$/.test(location)) return { to: "order-page", path: location };
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return null;
  }
  const match = /^\/pay\/([A-Za-z0-9_]+)$/.exec(url.pathname);
  if (url.origin !== pageOrigin || !match?.[1]) return null;
  return { to: "checkout", sessionId: match[1] };
}

export type ToastKind = "success" | "error" | "info";

/**
 * The kind of the toast a redirect carries in its `toast` cookie (react-router's createCookie: the JSON,
 * base64, then `.` and its signature, URI-encoded), or null when there is none. The signature is not
 * checked: the bench only reads what its own server said.
 */
export function toastKind(setCookie: string | string[] | undefined): ToastKind | null {
  const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const line of lines) {
    const match = /^toast=([^;]*)/.exec(line.trim());
    if (!match?.[1]) continue;
    const value = decodeURIComponent(match[1]);
    const signed = value.lastIndexOf(".");
    const data = signed === -1 ? value : value.slice(0, signed);
    try {
      // encodeData is btoa of the JSON's UTF-8 bytes.
      const parsed = JSON.parse(Buffer.from(data, "base64").toString("utf8")) as { type?: unknown };
      if (parsed.type === "success" || parsed.type === "error" || parsed.type === "info") {
        return parsed.type;
      }
    } catch {
      // not a toast of ours
    }
  }
  return null;
}
