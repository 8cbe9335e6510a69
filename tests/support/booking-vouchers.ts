import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { isoDayInParis } from "../../app/lib/dates";
import { addParisDays } from "../../app/lib/booking/slots";
import { formatVoucherCode, generateVoucherCode } from "../../app/lib/vouchers/code";
import { db, type Database } from "../../app/server/db/client.server";
import { orders, voucherUses, vouchers } from "../../app/server/db/schema";

/*
 * Session vouchers for the booking form's tests (decision 0170): a paid order and its issued voucher,
 * written as the payments core leaves them once paid (decision 0167), in the tests' database or in
 * `database` (an http test's server: `serverDatabase()`).
 */

export type SessionVoucherOptions = {
  sessionTypeId: string;
  /** Null: any studio offering the session. */
  studioId: string | null;
  status?: "active" | "used" | "expired" | "cancelled";
  /** The last Paris day it can be used; default a year from now. */
  expiresOn?: string;
};

/** A paid session voucher; returns its id and its code as printed (« 7K3Q-M2XD-9PTX »). */
export async function insertSessionVoucher(
  options: SessionVoucherOptions,
  database: Database = db(),
): Promise<{ id: string; code: string }> {
  const now = new Date();
  const [order] = await database
    .insert(orders)
    .values({
      kind: "voucher",
      status: "paid",
      amountCents: 15_000,
      method: "studio",
      buyerName: "Noël Lefèvre",
      buyerEmail: `noel-${randomUUID()}@example.test`,
      termsAcceptedAt: now,
      rulesSnapshot: {},
      tokenHash: randomBytes(32).toString("hex"),
      idempotencyKey: randomUUID(),
      paidAt: now,
    })
    .returning({ id: orders.id });
  if (!order) throw new Error("order not inserted");
  const status = options.status ?? "active";
  const code = generateVoucherCode();
  const [voucher] = await database
    .insert(vouchers)
    .values({
      orderId: order.id,
      code,
      kind: "session",
      sessionTypeId: options.sessionTypeId,
      studioId: options.studioId,
      label: "Séance Iris",
      valueCents: 15_000,
      balanceCents: status === "used" ? 0 : 15_000,
      status,
      recipientName: "Élodie Françoise",
      buyerName: "Noël Lefèvre",
      sendTo: "buyer",
      issuedAt: now,
      expiresOn: options.expiresOn ?? addParisDays(isoDayInParis(now), 365),
      vatMode: "single",
    })
    .returning({ id: vouchers.id });
  if (!voucher) throw new Error("voucher not inserted");
  return { id: voucher.id, code: formatVoucherCode(code) };
}

/** The voucher's row and its uses (the booking each paid, and whether it was given back). */
export async function voucherState(voucherId: string, database: Database = db()) {
  const [voucher] = await database.select().from(vouchers).where(eq(vouchers.id, voucherId));
  if (!voucher) throw new Error(`no voucher ${voucherId}`);
  const uses = await database
    .select()
    .from(voucherUses)
    .where(eq(voucherUses.voucherId, voucherId))
    .orderBy(voucherUses.at);
  return { status: voucher.status, balanceCents: voucher.balanceCents, uses };
}
