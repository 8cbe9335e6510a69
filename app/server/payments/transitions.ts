import type { AttemptStatus, OrderStatus, ReportedStatus } from "~/lib/payments/model";

/*
 * What a payment report does to an attempt and its order (decision 0162), as a pure function of their
 * statuses: applyPaymentStatus reads them, asks here, and writes the answer by compare-and-set (the
 * statuses it read are the `WHERE status IN (…)` of its updates, so a report that raced another changes
 * nothing and is asked again).
 */

export type PaymentDecision =
  /** Nothing to do: the attempt already says this (the same report again). */
  | { outcome: "already_applied" }
  /** Nothing to do: the attempt is final and this report cannot change it (`expired` after `succeeded`). */
  | { outcome: "ignored" }
  /** The provider's total or currency is not ours: the attempt is held for the owner, nothing applied. */
  | { outcome: "held"; attemptFrom: readonly AttemptStatus[] }
  /**
   * The attempt takes the report's status; the order moves too when `orderTo` is set. `outcome`: `late`
   * for money after the order had expired or been called off, `duplicate` for money on an order another
   * attempt had already paid (recorded for a refund, the kind's effects not run again).
   */
  | {
      outcome: "applied" | "late" | "duplicate";
      attemptFrom: readonly AttemptStatus[];
      attemptTo: Exclude<AttemptStatus, "open" | "held" | "returned">;
      orderFrom: readonly OrderStatus[] | null;
      orderTo: OrderStatus | null;
    };

export type PaymentSituation = {
  attempt: AttemptStatus;
  order: OrderStatus;
  report: ReportedStatus;
  /** False when the provider's total or currency differs from the attempt's (only read for a success). */
  amountMatches: boolean;
  /** Another attempt of the order is still open (an expiry or failure of this one then releases nothing). */
  otherOpenAttempt: boolean;
  /**
   * The order's own window (`pay_by`) ends later than this moment: an accepted request's deposit gives the
   * client hours to pay, each checkout only 30 minutes (decision 0186). An expired checkout then releases
   * nothing; the expiry job releases the order once its window ends, if still unpaid.
   */
  windowStillOpen: boolean;
  /**
   * The owner accepts a held payment as it came (« Accepter ce paiement », decision 0172): a success on a
   * `held` attempt is applied whatever its total; any other report, or any other attempt, is not hers.
   */
  ownerAcceptsHeld?: boolean;
};

export function decidePayment(situation: PaymentSituation): PaymentDecision {
  const { attempt, order, report } = situation;
  if (attempt === report) return { outcome: "already_applied" };
  if (situation.ownerAcceptsHeld) {
    if (attempt !== "held" || report !== "succeeded") return { outcome: "ignored" };
  } else if (attempt === "held" || attempt === "succeeded" || attempt === "returned") {
    // A held attempt waits for the owner; a succeeded one stays paid whatever comes after it; a returned
    // one was given back.
    return { outcome: "ignored" };
  }

  if (report === "succeeded") {
    if (!situation.amountMatches && !situation.ownerAcceptsHeld) {
      return { outcome: "held", attemptFrom: [attempt] };
    }
    if (order === "awaiting_payment" && attempt !== "expired") {
      return {
        outcome: "applied",
        attemptFrom: [attempt],
        attemptTo: "succeeded",
        orderFrom: ["awaiting_payment"],
        orderTo: "paid",
      };
    }
    if (order === "awaiting_payment" || order === "expired" || order === "cancelled") {
      return {
        outcome: "late",
        attemptFrom: [attempt],
        attemptTo: "succeeded",
        orderFrom: [order],
        orderTo: "paid",
      };
    }
    // `paid` or `refunded`: another attempt's money already counts for the order.
    return {
      outcome: "duplicate",
      attemptFrom: [attempt],
      attemptTo: "succeeded",
      orderFrom: null,
      orderTo: null,
    };
  }

  // `failed` or `expired`, from an attempt still open (a failed one may still expire; an expired one stays).
  if (attempt === "expired") return { outcome: "ignored" };
  const attemptFrom: readonly AttemptStatus[] = attempt === "open" ? ["open"] : ["failed"];
  // An expired checkout releases its order unless the buyer is paying through another attempt or may
  // still open one (the order's window goes on); a failed payment leaves the order waiting (the buyer may
  // try again).
  const releases =
    report === "expired" &&
    order === "awaiting_payment" &&
    !situation.otherOpenAttempt &&
    !situation.windowStillOpen;
  return {
    outcome: "applied",
    attemptFrom,
    attemptTo: report,
    orderFrom: releases ? ["awaiting_payment"] : null,
    orderTo: releases ? "expired" : null,
  };
}
