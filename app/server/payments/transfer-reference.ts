import { randomInt } from "node:crypto";
import type { OrderKind } from "~/lib/payments/model";

/*
 * The short reference a buyer writes on a bank transfer (`BC-7K3Q`, decision 0162): a prefix saying what
 * was ordered, then 4 characters of Crockford's base32 (no I, L, O, U: nothing to misread on a bank
 * statement), drawn by a cryptographic generator. It opens nothing (the order page has its own token);
 * it only has to be unique, which the database checks (a clash draws again).
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 4;

const PREFIXES: Record<OrderKind, string> = {
  voucher: "BC",
  gallery_photos: "PH",
  booking_deposit: "RS",
  booking_balance: "SO",
};

export const TRANSFER_REFERENCE_PATTERN = /^[A-Z]{2}-[0-9A-HJKMNP-TV-Z]{4}$/;

export function newTransferReference(kind: OrderKind): string {
  let code = "";
  for (let index = 0; index < LENGTH; index++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${PREFIXES[kind]}-${code}`;
}

/**
 * A reference as a person may type it back (lower case, spaces, O for 0, I or L for 1), in its written
 * form; null when it cannot be one.
 */
export function readTransferReference(text: string): string | null {
  const compact = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  const candidate = `${compact.slice(0, 2).replace(/0/g, "O")}-${compact.slice(2)}`;
  return TRANSFER_REFERENCE_PATTERN.test(candidate) ? candidate : null;
}
