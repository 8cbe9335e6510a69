import { instantLabelFr, NBSP } from "~/lib/booking/words";
import { parisDateTimeToInstant } from "~/lib/dates";
import { formatCalendarDayFr } from "./terms";

/*
 * When a gift voucher leaves (decision 0167): at 9:00 Paris time on the day the buyer chose, or as soon as
 * it is paid.
 */

/** The hour of Paris's clock a voucher is delivered on its day. */
export const VOUCHER_DELIVERY_TIME = "09:00";

/** When a voucher for `deliveryDay` leaves: 9:00 in Paris that day; null (now) when none or already past. */
export function deliveryInstant(deliveryDay: string | null, at: Date): Date | null {
  if (!deliveryDay) return null;
  const instant = parisDateTimeToInstant(`${deliveryDay}T${VOUCHER_DELIVERY_TIME}`);
  return instant && instant > at ? instant : null;
}

/** Whom a voucher goes to and on which day, as its buyer chose them on the order form. */
export type VoucherDeliveryPlan = {
  sendTo: "buyer" | "recipient";
  recipientName: string;
  recipientEmail: string | null;
  buyerEmail: string;
  deliveryDay: string | null;
  deliveredAt: Date | null;
  /** Its order paid: the voucher is issued and waits only for its day. */
  paid: boolean;
  /** The address its e-mail was given up for (refused by the mail server, or never taken). */
  deliveryFailedTo?: string | null;
};

/**
 * What the buyer reads of her voucher's sending (her order's e-mail and page): to her own address or to
 * the recipient's, on the day she chose at 9:00 or as soon as it is paid, that it has left, or that it
 * could not be delivered to the address she gave.
 */
export function voucherDeliveryLine(plan: VoucherDeliveryPlan, at: Date): string {
  const to =
    plan.sendTo === "recipient" && plan.recipientEmail
      ? `à ${plan.recipientName} (${plan.recipientEmail})`
      : `à votre adresse (${plan.buyerEmail})`;
  if (!plan.deliveredAt && plan.deliveryFailedTo) {
    const failed =
      plan.sendTo === "recipient"
        ? `à ${plan.recipientName} (${plan.deliveryFailedTo})`
        : `à votre adresse (${plan.deliveryFailedTo})`;
    return `Le bon n'a pas pu être envoyé ${failed} : cette adresse a été refusée par sa messagerie, ou celle-ci n'a pas répondu.`;
  }
  if (plan.deliveredAt) return `Le bon a été envoyé ${to} le ${instantLabelFr(plan.deliveredAt)}.`;
  const instant = deliveryInstant(plan.deliveryDay, at);
  if (instant && plan.deliveryDay) {
    const when = `le ${formatCalendarDayFr(plan.deliveryDay)} à 9${NBSP}h`;
    return plan.paid
      ? `Le bon sera envoyé ${to} ${when}.`
      : `Le bon sera envoyé ${to} ${when}, ou dès réception du paiement s'il arrive après.`;
  }
  return plan.paid
    ? `Le bon est envoyé ${to} dès réception du paiement.`
    : `Le bon sera envoyé ${to} dès réception du paiement.`;
}
