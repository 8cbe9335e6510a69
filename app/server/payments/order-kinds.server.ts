import type { OrderKind, StatusSource } from "~/lib/payments/model";
import type { orders } from "../db/schema";
import { queueBuyerPaymentMail } from "./emails.server";
import type { Tx } from "./journal.server";

/*
 * What each kind of order does when its payment lands, when it is released unpaid and when money is given
 * back (decision 0162): the payments core knows no kind. Each feature defines its own (defineOrderKind)
 * and boot/order-kinds.server lists them (as the e-mail kinds, decision 0150); boot provides the list to the
 * core at start (provideOrderKinds). Every effect runs inside the transaction that changed the order: it
 * writes its rows, its journal rows (appendJournal) and queues its e-mails with `tx`, or nothing happens.
 */

export type OrderRecord = typeof orders.$inferSelect;

export type OrderKindEffects = {
  /**
   * The order was paid (once: never for a duplicate payment). `late`: after it had expired. « given_back »
   * when the kind gives the payment back at once (what it paid for is gone: a slot taken meanwhile, a
   * booking cancelled, photos no longer due): the buyer is not told « paiement reçu », only why it goes
   * back (the refund's e-mail, and the kind's own if it has one).
   */
  onPaid: (
    tx: Tx,
    order: OrderRecord,
    context: { attemptId: string; late: boolean; source: StatusSource },
  ) => Promise<"given_back" | undefined>;
  /**
   * A new card checkout was opened on the order, payable until `expiresAt` (the buyer's « Payer par
   * carte »), in its transaction: what the order pays for is held as long (a booking's slot), or the kind
   * refuses (PaymentRefusedError) when it no longer holds it. Kinds that hold nothing leave it out.
   */
  onCheckoutOpened?: (tx: Tx, order: OrderRecord, context: { expiresAt: Date }) => Promise<void>;
  /** The order was released unpaid (its checkout or transfer deadline passed, or it was called off). */
  onReleased: (
    tx: Tx,
    order: OrderRecord,
    context: { reason: "expired" | "cancelled" },
  ) => Promise<void>;
  /**
   * The kind tells its buyer itself, from `onReleased`, that an order was released unpaid (a booking's
   * « rien n'a été débité », sent whichever of the order and the booking lapses first): the core's
   * « commande non réglée à temps » would be a second e-mail about the same thing, and is not sent.
   */
  tellsBuyerOfRelease?: boolean;
  /**
   * Money was given back (a refund done); `fullyRefunded`: nothing paid is left. `paidCents` and
   * `refundedCents`: the order's payments and refunds done, this one counted (`refundedOfPrice` tells
   * what of them came out of its price).
   */
  onRefunded: (
    tx: Tx,
    order: OrderRecord,
    context: {
      refundId: string;
      amountCents: number;
      fullyRefunded: boolean;
      paidCents: number;
      refundedCents: number;
    },
  ) => Promise<void>;
  /**
   * The owner asks a refund of `amountCents` from her order's page, under the order's lock, before it is
   * written: `shownCents` is what her page showed of what the order bought (an amount voucher's usable
   * balance). The kind refuses (PaymentRefusedError) when what changed since would make the refund give
   * back what she did not mean to (a use of the voucher made meanwhile). Kinds with nothing to check
   * leave it out.
   */
  onRefundAsked?: (
    tx: Tx,
    order: OrderRecord,
    context: { amountCents: number; shownCents: number },
  ) => Promise<void>;
};

export type OrderKindDefinition = OrderKindEffects & { kind: OrderKind };

/** Defines what orders of `kind` do; its feature exports it and boot/order-kinds.server lists it. */
export function defineOrderKind(kind: OrderKind, effects: OrderKindEffects): OrderKindDefinition {
  return { kind, ...effects };
}

const holder = globalThis as typeof globalThis & {
  __studioOrderKinds?: Map<OrderKind, OrderKindDefinition>;
};

/** Gives the core the kinds of order the site sells (boot, at every start; a test its own). */
export function provideOrderKinds(kinds: readonly OrderKindDefinition[]): void {
  holder.__studioOrderKinds = new Map(kinds.map((definition) => [definition.kind, definition]));
}

/**
 * The effects of `kind`. A kind nobody defined throws: its order's change is rolled back and retried
 * rather than applied without what the kind does (a payment would be taken and nothing delivered).
 */
export function orderKindEffects(kind: OrderKind): OrderKindEffects {
  const definition = holder.__studioOrderKinds?.get(kind);
  if (!definition) throw new Error(`Type de commande sans définition : ${kind}`);
  return definition;
}

/**
 * An order released unpaid (its checkout or transfer deadline passed), in the transaction that released
 * it: its kind told, and its buyer, once.
 */
export async function announceRelease(tx: Tx, order: OrderRecord): Promise<void> {
  const effects = orderKindEffects(order.kind);
  await effects.onReleased(tx, order, { reason: "expired" });
  if (!effects.tellsBuyerOfRelease) {
    await queueBuyerPaymentMail({ orderId: order.id, event: "expired" }, { tx });
  }
}
