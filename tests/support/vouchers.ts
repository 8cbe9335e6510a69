import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { paymentsSchema, type PaymentSettings } from "../../app/content/schemas";
import { formatVoucherCode } from "../../app/lib/vouchers/code";
import type { VoucherOrder } from "../../app/lib/vouchers/order-form";
import { db } from "../../app/server/db/client.server";
import { voucherUses, vouchers } from "../../app/server/db/schema";
import { markPaidOffline } from "../../app/server/payments/orders.server";
import {
  createVoucherOrder,
  type VoucherOrderInput,
} from "../../app/server/vouchers/orders.server";

/*
 * Gift vouchers' tests (decision 0167): an order as the form reads it, placed through createVoucherOrder,
 * and the rows it leaves.
 */

export const voucherSettings = (overrides: Partial<PaymentSettings> = {}): PaymentSettings =>
  paymentsSchema.parse({
    vouchersOnSale: true,
    transfer: true,
    studio: true,
    card: true,
    transferHolder: "Atelier Lumière",
    transferIban: "FR7630006000011234567890189",
    ...overrides,
  });

/** An order of an amount (`euros`) or of a session (`sessionTypeId`), as readVoucherOrder gives it. */
export function voucherOrderOf(
  offer: VoucherOrder["offer"],
  overrides: Partial<VoucherOrder> = {},
): VoucherOrder {
  return {
    offer,
    buyer: { name: "Noël Lefèvre", email: `noel-${randomUUID()}@example.test`, phone: "" },
    recipient: { name: "Élodie Françoise", email: null },
    message: "Joyeux Noël ! « sœur de cœur »",
    sendTo: "buyer",
    deliveryDay: null,
    method: "transfer",
    ...overrides,
  };
}

export function placeVoucherOrder(order: VoucherOrder, input: Partial<VoucherOrderInput> = {}) {
  return createVoucherOrder(order, {
    idempotencyKey: randomUUID(),
    termsAcceptedAt: new Date(),
    settings: voucherSettings(),
    sessionLabel: order.offer.kind === "session" ? "Séance Iris" : undefined,
    ...input,
  });
}

/**
 * A paid amount voucher of `euros` (paid in cash), for `recipient` if given: its order, its id and its
 * code as printed (« ABCD-EFGH-JKLM »).
 */
export async function paidAmountVoucher(euros: number, recipient?: VoucherOrder["recipient"]) {
  const { orderId, voucherId } = await placeVoucherOrder(
    voucherOrderOf({ kind: "amount", euros }, recipient ? { recipient } : {}),
  );
  await markPaidOffline(orderId, "cash");
  const code = formatVoucherCode((await voucherRow(voucherId)).code ?? "");
  return { orderId, voucherId, code };
}

export async function voucherRow(voucherId: string) {
  const [voucher] = await db().select().from(vouchers).where(eq(vouchers.id, voucherId));
  if (!voucher) throw new Error(`no voucher ${voucherId}`);
  return voucher;
}

export function usesOf(voucherId: string) {
  return db()
    .select()
    .from(voucherUses)
    .where(eq(voucherUses.voucherId, voucherId))
    .orderBy(voucherUses.at);
}

/** The e-mail jobs of a voucher or its order, as `kind` with their start time. */
export async function voucherMailJobs(ids: { orderId?: string; voucherId?: string }) {
  const result = await db().execute<{ kind: string; start_after: Date }>(sql`
    select data->>'kind' as kind, start_after from pgboss.job
    where name = 'mail' and (data->>'orderId' = ${ids.orderId ?? ""}
      or data->>'voucherId' = ${ids.voucherId ?? ""}) order by created_on`);
  return result.rows.map((row) => ({ kind: row.kind, startAfter: new Date(row.start_after) }));
}
