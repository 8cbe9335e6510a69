import { createHash, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { PaymentMethod } from "../../app/lib/payments/model";
import { generateVoucherCode } from "../../app/lib/vouchers/code";
import { orderLines, orders, paymentAttempts, vouchers } from "../../app/server/db/schema";
import { serverDatabase } from "./server-under-test";

/*
 * Orders and vouchers in the database of the server under test, as the payments core leaves them
 * (decision 0162), for the admin's sales and vouchers pages.
 */

/**
 * An unpaid order as the core leaves it: its line, its offline attempt, its voucher awaiting payment; and
 * its page's token.
 */
export async function insertOrder(
  options: {
    method?: PaymentMethod;
    buyer?: string;
    createdAt?: Date;
    amountCents?: number;
    latePayment?: boolean;
  } = {},
) {
  const database = serverDatabase();
  const method = options.method ?? "studio";
  const amountCents = options.amountCents ?? 8000;
  const reference = `BC-${randomBytes(4).toString("hex").toUpperCase()}`;
  // Its page's token, as the buyer's links carry it (the database keeps its SHA-256 only).
  const token = randomBytes(32).toString("base64url");
  const [order] = await database
    .insert(orders)
    .values({
      kind: "voucher",
      method,
      amountCents,
      buyerName: options.buyer ?? "Camille Martin",
      buyerEmail: `camille-${randomUUID()}@example.test`,
      termsAcceptedAt: new Date(),
      rulesSnapshot: { withdrawalDays: 14 },
      tokenHash: createHash("sha256").update(token).digest("hex"),
      idempotencyKey: randomUUID(),
      transferReference: method === "transfer" ? reference : null,
      latePayment: options.latePayment ?? false,
      createdAt: options.createdAt ?? new Date(),
    })
    .returning();
  if (!order) throw new Error("no order");
  await database.insert(orderLines).values({
    orderId: order.id,
    position: 0,
    label: `Bon cadeau de ${amountCents / 100} €`,
    quantity: 1,
    unitPriceCents: amountCents,
    vatRate: null,
  });
  if (method !== "card") {
    await database.insert(paymentAttempts).values({
      orderId: order.id,
      provider: method === "transfer" ? "transfer" : "studio",
      providerReference: method === "transfer" ? reference : randomUUID(),
      amountCents,
      idempotencyKey: randomUUID(),
    });
  }
  const [voucher] = await database
    .insert(vouchers)
    .values({
      orderId: order.id,
      kind: "amount",
      label: `${amountCents / 100} €`,
      valueCents: amountCents,
      balanceCents: amountCents,
      recipientName: "Élodie Françoise",
      buyerName: options.buyer ?? "Camille Martin",
      sendTo: "buyer",
      vatMode: "multi",
    })
    .returning();
  if (!voucher) throw new Error("no voucher");
  return { order, voucher, token };
}

/**
 * A paid order of insertOrder's with its voucher active (a code, valid until 2099), and `voucher`'s fields
 * (to whom, its day, a delivery given up); its code.
 */
export async function paidWithActiveVoucher(
  made: Awaited<ReturnType<typeof insertOrder>>,
  voucher: Partial<typeof vouchers.$inferInsert> = {},
) {
  const code = generateVoucherCode();
  await serverDatabase()
    .update(orders)
    .set({ status: "paid", paidAt: new Date() })
    .where(eq(orders.id, made.order.id));
  await serverDatabase()
    .update(vouchers)
    .set({ status: "active", code, expiresOn: "2099-06-30", ...voucher })
    .where(eq(vouchers.id, made.voucher.id));
  return code;
}

/** An amount voucher already paid and active, with its code. */
export async function activeVoucher(recipient: string, amountCents = 8000) {
  const { voucher, token } = await insertOrder({ amountCents });
  const code = generateVoucherCode();
  const [active] = await serverDatabase()
    .update(vouchers)
    .set({ status: "active", code, expiresOn: "2099-06-30", recipientName: recipient })
    .where(eq(vouchers.id, voucher.id))
    .returning();
  if (!active) throw new Error("no voucher");
  return { ...active, code, token };
}

type OrderRef = { id: string; amountCents: number };

/** A Stripe checkout attempt of `order` for its amount, with `fields` (its status and what goes with it). */
async function insertCardAttempt(
  order: OrderRef,
  fields: Partial<typeof paymentAttempts.$inferInsert>,
) {
  const [attempt] = await serverDatabase()
    .insert(paymentAttempts)
    .values({
      orderId: order.id,
      provider: "stripe",
      providerReference: `cs_${randomUUID()}`,
      paymentReference: `pi_${randomUUID()}`,
      amountCents: order.amountCents,
      idempotencyKey: randomUUID(),
      ...fields,
    })
    .returning();
  if (!attempt) throw new Error("no card attempt inserted");
  return attempt;
}

/** A card payment the provider took for `takenCents` instead of the order's amount: held (decision 0172). */
export function insertHeldAttempt(order: OrderRef, takenCents: number) {
  return insertCardAttempt(order, {
    status: "held",
    heldReason: `un montant de ${takenCents / 100} € au lieu de ${order.amountCents / 100} €`,
    heldAmountCents: takenCents,
    heldCurrency: "EUR",
  });
}

/** The order paid by card in full: its succeeded card attempt (to refund), the order `paid`. */
export async function insertPaidCardAttempt(order: OrderRef) {
  const attempt = await insertCardAttempt(order, { status: "succeeded", succeededAt: new Date() });
  await serverDatabase()
    .update(orders)
    .set({ status: "paid", paidAt: new Date() })
    .where(eq(orders.id, order.id));
  return attempt;
}
