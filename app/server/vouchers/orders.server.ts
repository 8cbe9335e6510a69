import { eq } from "drizzle-orm";
import type { PaymentSettings } from "~/content/schemas";
import type { VoucherOrder } from "~/lib/vouchers/order-form";
import { voucherTerms, withdrawalLastDay } from "~/lib/vouchers/terms";
import { formatCents } from "~/lib/prices";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { vouchers } from "../db/schema";
import type { Tx } from "../payments/journal.server";
import { createOrder, type NewOrderLine, type OrderCheckout } from "../payments/orders.server";
import { queueVoucherOrderMail } from "./emails.server";
import { VoucherRefusedError } from "./refusals.server";

/*
 * A gift voucher's order (decision 0167): the order, its line and its voucher row (awaiting payment, no
 * code yet) in one transaction, through the payments core's createOrder; the buyer's e-mail with the
 * order's page queued in that transaction too. A second submit of the same form finds both.
 */

/** TVA of a single-purpose voucher (a session): 20 %, due at sale (BOFiP TVA-BASE-20-10-20). */
export const SESSION_VOUCHER_VAT_RATE = 2000;

export type VoucherOrderInput = {
  /** The order form's hidden key: a second submit finds the first order. */
  idempotencyKey: string;
  termsAcceptedAt: Date;
  settings: PaymentSettings;
  /** What a session voucher covers, as the offer shows it (« Séance Iris »); required for a session. */
  sessionLabel?: string;
  /** The studio a session voucher is valid in (from the form's slug); null or absent: any. */
  studioId?: string | null;
};

export type VoucherOrderResult = OrderCheckout & { voucherId: string };

/** The order line's label: « Bon cadeau : Séance Iris », « Bon cadeau de 80 € ». */
export function voucherLineLabel(order: VoucherOrder, sessionLabel?: string): string {
  return order.offer.kind === "session"
    ? `Bon cadeau : ${sessionLabel ?? ""}`.trim()
    : `Bon cadeau de ${formatCents(order.offer.euros * 100)}`;
}

/** Creates the voucher's order and its voucher; the checkout as createOrder answers it. */
export async function createVoucherOrder(
  order: VoucherOrder,
  input: VoucherOrderInput,
): Promise<VoucherOrderResult> {
  // The page read the form against the settings it showed; they may have changed since.
  if (!input.settings.vouchersOnSale) {
    throw new VoucherRefusedError(
      "not_on_sale",
      "La vente de bons cadeaux est suspendue pour le moment : rien n'a été commandé.",
    );
  }
  if (!input.settings[order.method]) {
    throw new VoucherRefusedError(
      "method_not_offered",
      "Ce moyen de paiement n'est plus proposé : choisissez-en un autre.",
      400,
    );
  }
  const { offer } = order;
  const session = offer.kind === "session";
  if (session && !input.sessionLabel?.trim()) {
    throw new Error("Un bon pour une séance nomme sa séance (sessionLabel).");
  }
  const valueCents = offer.euros * 100;
  const label = session ? (input.sessionLabel ?? "").trim() : formatCents(valueCents);
  const line: NewOrderLine = {
    label: voucherLineLabel(order, input.sessionLabel),
    quantity: 1,
    unitPriceCents: valueCents,
    vatRate: session ? SESSION_VOUCHER_VAT_RATE : null,
    voucherVatMode: session ? "single" : "multi",
  };
  const at = now();
  const checkout = await createOrder({
    kind: "voucher",
    method: order.method,
    buyer: order.buyer,
    termsAcceptedAt: input.termsAcceptedAt,
    rulesSnapshot: {
      withdrawalLastDay: withdrawalLastDay(at),
      validityMonths: input.settings.voucherValidityMonths,
      terms: voucherTerms({
        kind: offer.kind,
        validityMonths: input.settings.voucherValidityMonths,
      }),
      // The bank details as given to the buyer: her e-mail and page keep them if the owner's change.
      ...(order.method === "transfer"
        ? {
            transfer: {
              holder: input.settings.transferHolder,
              iban: input.settings.transferIban,
            },
          }
        : {}),
    },
    lines: [line],
    idempotencyKey: input.idempotencyKey,
    // Everything the form asked for: the same key with another recipient, amount or day is refused.
    request: order,
    studioId: session ? (input.studioId ?? null) : null,
    payBy:
      order.method === "transfer"
        ? new Date(at.getTime() + input.settings.transferDays * 24 * 3_600_000)
        : null,
    inTransaction: async (tx: Tx, created) => {
      await tx.insert(vouchers).values({
        orderId: created.id,
        kind: offer.kind,
        sessionTypeId: offer.kind === "session" ? offer.sessionTypeId : null,
        studioId: session ? (input.studioId ?? null) : null,
        label,
        valueCents,
        balanceCents: valueCents,
        recipientName: order.recipient.name,
        buyerName: order.buyer.name,
        message: order.message,
        sendTo: order.sendTo,
        recipientEmail: order.recipient.email,
        deliveryDay: order.deliveryDay,
        vatMode: session ? "single" : "multi",
        createdAt: at,
        updatedAt: at,
      });
      await queueVoucherOrderMail(
        { orderId: created.id },
        { tx, once: `voucher-order:${created.id}` },
      );
    },
  });
  const [voucher] = await db()
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(eq(vouchers.orderId, checkout.orderId));
  if (!voucher) throw new Error("Bon cadeau introuvable après sa commande.");
  return { ...checkout, voucherId: voucher.id };
}
