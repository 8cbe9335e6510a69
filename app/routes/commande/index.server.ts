import { data, redirect } from "react-router";
import { paymentHeldFor } from "~/server/payments/held-attempts.server";
import type { Route } from "./+types/index";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { formatIban } from "~/lib/payments/iban";
import {
  failedRefundReplaced,
  ORDER_STATUS_LABELS,
  PAYMENT_HELD_MESSAGE,
  PAYMENT_METHOD_LABELS,
} from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { voucherDeliveryLine } from "~/lib/vouchers/delivery";
import { now } from "~/server/clock.server";
import { orderInvoicePath, orderPagePath, orderPdfPath } from "~/lib/vouchers/order-page";
import { formatCalendarDayFr, voucherCoverLine, withdrawalLastDay } from "~/lib/vouchers/terms";
import { invoiceLink } from "~/lib/invoices/links";
import { invoicesOfOrder } from "~/server/invoices/orders.server";
import { log } from "~/server/logger.server";
import { findOrderByToken, retryCheckout, type OrderPage } from "~/server/payments/orders.server";
import { applyProviderState } from "~/server/payments/provider-state.server";
import { PaymentRefusedError } from "~/server/payments/refusals.server";
import { withdrawalOffer, withdrawVoucherOrder } from "~/server/vouchers/lifecycle.server";
import {
  correctVoucherBuyerEmail,
  redeliverVoucher,
  voucherCoverOf,
} from "~/server/vouchers/emails.server";
import { parseRedelivery } from "~/lib/vouchers/redelivery";
import { voucherOfOrder } from "~/server/vouchers/queries.server";
import { readSiteContent } from "~/server/content/site-content.server";
import { VoucherRefusedError } from "~/server/vouchers/refusals.server";
import { instantLabelFr } from "~/lib/booking/words";
import { formatDateFr } from "~/lib/dates";
import { clientGalleryPath } from "~/lib/gallery-urls";
import { bookingOfBalance, bookingOfDeposit } from "~/server/booking/deposits.server";
import { UNDELIVERED_PHOTO_REFUND_REASONS } from "~/server/galleries/photo-order-release.server";
import {
  EXPIRED_SALE_MESSAGE,
  photoOrderForPage,
  photoOrderStillPayable,
} from "~/server/galleries/photo-sales.server";

/*
 * /commande/{jeton} (decision 0167): the buyer's order page, reached from the order form, the card
 * provider's return (`?paiement={CHECKOUT_SESSION_ID}`) and every e-mail. Its status, lines and total; how
 * to pay (transfer, at the studio, a card checkout to open again); once paid the voucher and its PDF; the
 * withdrawal within 14 days of an unused voucher, confirmed on a page of its own. Never cached.
 */

const CHECKOUT_REFERENCE = /^cs_[A-Za-z0-9_]{1,250}$/;

async function orderOf(token: string): Promise<OrderPage> {
  const page = await findOrderByToken(token);
  // A voucher's order, a client's extra photos (decision 0184: the same page, without a voucher), a
  // booking's deposit (decision 0186) and its balance paid at the studio (decision 0201, amended: the
  // core's « Paiement reçu » links it) have their buyer's page.
  const buyerPages = ["voucher", "gallery_photos", "booking_deposit", "booking_balance"];
  if (!page || !buyerPages.includes(page.order.kind)) {
    throw data(null, NOT_FOUND_INIT);
  }
  return page;
}

/**
 * What the card's return says: paid, being checked (the page refreshes), to be tried again, or taken for
 * another total and waiting for the owner (decision 0172: never to be paid a second time).
 */
type CardState = "confirmed" | "checking" | "retry" | "held" | null;

export async function loader({ request, params }: Route.LoaderArgs) {
  let page = await orderOf(params.token);
  const search = new URL(request.url).searchParams;
  const reference = search.get("paiement") ?? "";
  const back = page.order.method === "card" && CHECKOUT_REFERENCE.test(reference);
  if (back && page.order.status === "awaiting_payment") {
    // The webhook may not have come yet: ask the provider (decision 0162's return page).
    try {
      await applyProviderState({ provider: "stripe", providerReference: reference }, "return");
    } catch (error) {
      log.warn("order_return_state_failed", { orderId: page.order.id, error: String(error) });
    }
    page = await orderOf(params.token);
  }
  const { order, lines, attempts, refunds } = page;
  const open = attempts.some((attempt) => attempt.status === "open");
  const held = attempts.some((attempt) => attempt.status === "held");
  let card: CardState = null;
  if (order.method === "card") {
    if (order.status === "paid") card = back ? "confirmed" : null;
    // Her money came, for another total: the owner accepts or returns it; lapsed or called off meanwhile,
    // it still came.
    else if (
      held &&
      (order.status === "awaiting_payment" ||
        order.status === "expired" ||
        order.status === "cancelled")
    ) {
      card = "held";
    }
    // Back from the provider with the checkout still open: being checked. Otherwise (a checkout that
    // failed, or one left with « Retour » on the provider's page) the buyer may pay again from here.
    else if (order.status === "awaiting_payment") card = open && back ? "checking" : "retry";
  }
  const voucher = await voucherOfOrder(order.id);
  const snapshot = order.rulesSnapshot as {
    transfer?: { holder: string; iban: string };
  } | null;
  const issued = voucher?.code && voucher.status !== "awaiting_payment";
  // Unused, within its period, with money left to give back (an earlier refund taken off).
  const withdrawable = await withdrawalOffer(order, voucher);
  const booking =
    order.kind === "booking_deposit"
      ? await bookingOfDeposit(order.id)
      : await bookingOfBalance(order);
  const photoOrder = order.kind === "gallery_photos" ? await photoOrderForPage(order) : null;
  return {
    token: params.token,
    /** A booking's deposit or balance: her booking's page (decisions 0186 and 0201). */
    booking: booking ? { href: booking.href, waiting: booking.state === "awaiting_payment" } : null,
    status: ORDER_STATUS_LABELS[order.status],
    paid: order.status === "paid",
    awaiting: order.status === "awaiting_payment",
    /** Lapsed unpaid: nothing more to pay here; a voucher is ordered anew from the shop. */
    expired:
      order.status === "expired" && card !== "held"
        ? { orderAgain: order.kind === "voucher" }
        : null,
    method: order.method,
    methodLabel: PAYMENT_METHOD_LABELS[order.method],
    orderedOn: formatDateFr(order.createdAt),
    lines: lines.map((line) => ({
      label: line.label,
      quantity: line.quantity,
      total: formatCents(line.quantity * line.unitPriceCents),
    })),
    total: formatCents(order.amountCents),
    transfer:
      order.method === "transfer" && order.status === "awaiting_payment"
        ? {
            holder: snapshot?.transfer?.holder ?? "",
            iban: formatIban(snapshot?.transfer?.iban ?? ""),
            reference: order.transferReference ?? "",
            amount: formatCents(order.amountCents),
            // The instant the order lapses (the expiry job frees it then), not only its day: a booking's
            // 48 hours end mid-day.
            deadline: order.payBy ? instantLabelFr(order.payBy) : null,
          }
        : null,
    card,
    /** A checkout still open (left on the provider's page): « Payer par carte » goes back to it. */
    checkoutOpen: open,
    voucher:
      issued && voucher.code
        ? {
            code: formatVoucherCode(voucher.code),
            // Its studio named, as its PDF does, when it is valid in one only.
            cover: voucherCoverLine(voucherCoverOf(voucher, (await readSiteContent()).studios)),
            validUntil: voucher.expiresOn ? formatCalendarDayFr(voucher.expiresOn) : null,
            cancelled: voucher.status === "cancelled",
            pdf: voucher.status === "cancelled" ? null : orderPdfPath(params.token),
          }
        : null,
    /** To whom and when the voucher is sent, as its buyer chose (while it is to be, or once it left). */
    delivery:
      voucher &&
      (order.status === "awaiting_payment" || order.status === "paid") &&
      (voucher.deliveredAt || voucher.status === "awaiting_payment" || voucher.status === "active")
        ? voucherDeliveryLine(
            { ...voucher, buyerEmail: order.buyerEmail, paid: order.status === "paid" },
            now(),
          )
        : null,
    /**
     * Its e-mail given up (the address refused, or never taken): the address, and the form to correct it
     * or have it herself (decision 0167).
     */
    undelivered:
      voucher?.deliveryFailedTo &&
      !voucher.deliveredAt &&
      voucher.status === "active" &&
      order.status === "paid"
        ? {
            to: voucher.deliveryFailedTo,
            recipientName: voucher.recipientName,
            toRecipient: voucher.sendTo === "recipient",
            buyerEmail: order.buyerEmail,
          }
        : null,
    withdrawal: withdrawable
      ? {
          lastDay: formatCalendarDayFr(withdrawalLastDay(order.createdAt)),
          /** What she gets back: what she paid, or what is left of it after an earlier refund. */
          refund: formatCents(withdrawable.refundCents),
          whole: refunds.every((refund) => refund.status === "failed"),
          confirming: search.get("retractation") === "1",
        }
      : null,
    invoices: (await invoicesOfOrder(order.id)).map((invoice) =>
      invoiceLink(invoice, orderInvoicePath(params.token, invoice.number)),
    ),
    // A failed refund is said as such, never « en cours » (decision 0171); one later refunds made good
    // is no longer the buyer's concern.
    refunded: refunds
      .filter((refund) => !failedRefundReplaced(refund, refunds))
      .map((refund) => ({
        amount: formatCents(refund.amountCents),
        state:
          refund.status === "succeeded" || refund.status === "refunded_offline"
            ? ("done" as const)
            : refund.status === "failed"
              ? ("failed" as const)
              : ("pending" as const),
      })),
    done: search.get("fait"),
    /** Extra photos of a client gallery (decision 0184): the way back to it, while it is online. */
    gallery: photoOrder?.galleryId ? clientGalleryPath(photoOrder.galleryId) : null,
    /**
     * An order of photos called off while it awaited payment (what it paid changed, or its gallery was
     * deleted or expired), and money that came for it once it was: given back, nothing unlocked.
     */
    photos: photoOrder
      ? {
          // Held, the page says her money came (« Paiement reçu, à vérifier »), not « rien ne vous a été
          // débité ».
          calledOff: order.status === "cancelled" && card !== "held",
          /** By her own order of the same photos by another method (« Payer plutôt par carte »). */
          replaced: photoOrder.replaced,
          expired: photoOrder.expired,
          undelivered:
            !photoOrder.unlocked &&
            ((order.latePayment && order.status === "paid") ||
              refunds.some((refund) => UNDELIVERED_PHOTO_REFUND_REASONS.includes(refund.reason))),
        }
      : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { order } = await orderOf(params.token);
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "renvoyer" && order.kind === "voucher") {
      const voucher = await voucherOfOrder(order.id);
      // Her own address refused: « À moi » takes it corrected (the owner's correction, decision 0167).
      const ownRefused = voucher?.sendTo === "buyer" && voucher.deliveryFailedAt !== null;
      const parsed = parseRedelivery(form, voucher?.deliveryFailedTo ?? null, ownRefused);
      if (!parsed.ok) {
        const { error, field, typed } = parsed.answer;
        return data({ error, field, typed }, { status: 400 });
      }
      const { target } = parsed;
      if (target.sendTo === "buyer" && target.email !== undefined) {
        // Her order takes the address and its e-mails leave for it, the voucher with them; posted twice,
        // the second finds it hers already (`unchanged`) and sends nothing.
        if (!(await correctVoucherBuyerEmail(order.id, target.email))) {
          return data(
            { error: "Ce bon ne peut plus être envoyé : il n'est plus actif." },
            { status: 409 },
          );
        }
        return redirect(`${orderPagePath(params.token)}?fait=renvoi`, 303);
      }
      if (!(await redeliverVoucher(order.id, target))) {
        // Posted twice: the first sent it again (the failure is gone, the voucher waits or left).
        const current = await voucherOfOrder(order.id);
        if (current?.status !== "active" || current.deliveryFailedAt) {
          return data(
            { error: "Ce bon ne peut plus être envoyé : il n'est plus actif." },
            { status: 409 },
          );
        }
      }
      return redirect(`${orderPagePath(params.token)}?fait=renvoi`, 303);
    }
    if (intent === "payer" && order.method === "card") {
      // A payment taken for another total waits for the owner (decision 0172): it came, whatever became
      // of the booking or the gallery meanwhile, and is not paid a second time (retryCheckout says so too).
      if (await paymentHeldFor(order.id)) {
        return data({ error: PAYMENT_HELD_MESSAGE }, { status: 409 });
      }
      // A deposit is paid while its booking still holds the slot (decision 0186).
      if (order.kind === "booking_deposit") {
        const booking = await bookingOfDeposit(order.id);
        if (booking?.state !== "awaiting_payment") {
          return data(
            {
              error:
                "Le délai de paiement de cette réservation est passé : le créneau a été libéré et rien n'a été débité. Réservez à nouveau sur le site.",
            },
            { status: 409 },
          );
        }
      }
      // Photos are paid while their gallery is online: an expired one delivers nothing (decision 0196).
      if (order.kind === "gallery_photos" && !(await photoOrderStillPayable(order.id))) {
        return data({ error: EXPIRED_SALE_MESSAGE }, { status: 409 });
      }
      const checkout = await retryCheckout(order.id);
      if (checkout.redirectUrl) return redirect(checkout.redirectUrl, 303);
      // Keys the provider refuses fail every try until the owner enters them again (she is told).
      return data(
        {
          error: checkout.keysRefused
            ? "Le paiement par carte est indisponible pour le moment : le studio en est averti. Réessayez plus tard, ou contactez le studio."
            : "Le paiement par carte ne répond pas pour le moment : réessayez dans quelques minutes.",
        },
        { status: 503 },
      );
    }
    if (intent === "retracter") {
      await withdrawVoucherOrder(order.id);
      return redirect(`${orderPagePath(params.token)}?fait=retractation`, 303);
    }
  } catch (error) {
    if (error instanceof VoucherRefusedError || error instanceof PaymentRefusedError) {
      return data({ error: error.message }, { status: error.status });
    }
    throw error;
  }
  return data({ error: "Cette action n'existe pas." }, { status: 400 });
}

export const headers = () => ({ "Cache-Control": "no-store" });
