import { randomUUID } from "node:crypto";
import { paymentHeldFor } from "../payments/held-attempts.server";
import { and, asc, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { PaymentSettings } from "~/content/schemas";
import {
  photoRights,
  type PhotoRights,
  type PhotoSaleTerms,
  type PhotosDue,
  type PhotoUnlock,
} from "~/lib/gallery-sales";
import { PAYMENT_HELD_MESSAGE, type OfflineMeans, type PaymentMethod } from "~/lib/payments/model";
import { heldAmountText } from "~/lib/payments/admin-words";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import {
  galleries,
  galleryPhotoOrders,
  galleryPhotos,
  galleryUnlocks,
  orders,
  paymentAttempts,
} from "../db/schema";
import { log } from "../logger.server";
import type { Tx } from "../payments/journal.server";
import { defineOrderKind, type OrderRecord } from "../payments/order-kinds.server";
import { orderTokenFor } from "../payments/order-token.server";
import { PaymentRefusedError } from "../payments/refusals.server";
import {
  cancelUnpaidOrder,
  COUNTED_REFUNDS,
  createOrder,
  markPaidOffline,
  moveTransferDeadline,
  type OrderCheckout,
} from "../payments/orders.server";
import { expiryDay, type GalleryRow } from "./access.server";
import { formatCents } from "~/lib/prices";
import {
  photoOrderRefundJob,
  queuePhotoOrderCalledOffMail,
  queuePhotoOrderDeadlineMail,
  replacedByHerOrder,
} from "./photo-order-release.server";
import { readSiteContent } from "../content/site-content.server";
import { queuePhotoOrderMail } from "./photo-order-mail.server";

/*
 * Extra photos sold from a client gallery (decision 0184): what the client may download (the package,
 * what she bought, what the owner offered), her order of the others through the payments core, and what
 * its payment and its refund do. The amount is always computed here from the rows, never read from a form.
 */

/** TVA on photos sold as files: the normal rate (ignored on the invoice under the franchise, 293 B). */
export const PHOTO_VAT_RATE = 2000;

/** A sale refused: expected, with its French message and its status (never a 5xx). */
export class PhotoSaleRefusedError extends Error {
  override name = "PhotoSaleRefusedError";
  readonly status: 400 | 403 | 409;
  /** The form's field the message belongs to, when it is one. */
  readonly field: string | null;
  constructor(message: string, status: 400 | 403 | 409 = 409, field: string | null = null) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

export const saleTerms = (gallery: GalleryRow): PhotoSaleTerms => ({
  includedPhotos: gallery.includedPhotos,
  extraPhotoPriceCents: gallery.extraPhotoPriceCents,
  allPhotosPriceCents: gallery.allPhotosPriceCents,
});

type Executor = Tx | ReturnType<typeof db>;

/**
 * Whether the gallery still sells its photos: online and not expired. An expired gallery delivers nothing
 * (its downloads answer 410), so, as a deleted one, it takes no money for photos (decision 0196).
 */
export const sellsNow = (gallery: Pick<GalleryRow, "deletingAt" | "expiresAt">, at = now()) =>
  gallery.deletingAt === null && gallery.expiresAt.getTime() > at.getTime();

/**
 * A transfer is awaited at most until the gallery expires (its money would then go back), and not offered
 * when less than this is left: the money would not arrive and be marked received in time (decision 0196,
 * amended 2026-12-01).
 */
export const TRANSFER_MIN_HOURS_LEFT = 48;

/** Whether a transfer ordered `at` leaves her money the time to arrive before the gallery expires. */
export const transferArrivesInTime = (gallery: Pick<GalleryRow, "expiresAt">, at = now()) =>
  gallery.expiresAt.getTime() - at.getTime() >= TRANSFER_MIN_HOURS_LEFT * 3_600_000;

/** A transfer's deadline: the owner's delay, never past the gallery's expiry. */
export const transferPayBy = (
  gallery: Pick<GalleryRow, "expiresAt">,
  transferDays: number,
  at = now(),
) => new Date(Math.min(at.getTime() + transferDays * 24 * 3_600_000, gallery.expiresAt.getTime()));

const DAY_MS = 24 * 3_600_000;

/**
 * The gallery's expiry moved `from` → `to` (its settings, « Prolonger »), in the transaction that moves it,
 * its row locked: each of its orders of photos awaiting a transfer takes the deadline it would have had
 * with the new expiry (decision 0196, amended 2026-12-01) — the owner's delay from the order (kept in its
 * rules), capped at the new expiry, never before `at` — and its transfer's attempt ends with it: the
 * payments' expiry job closes the attempt, then releases the order, at that time. A deadline brought
 * forward is told to her by e-mail. Returns how many deadlines moved.
 */
export async function transferDeadlinesFollowExpiry(
  tx: Tx,
  galleryId: string,
  { from, to }: { from: Date; to: Date },
  at = now(),
): Promise<number> {
  if (from.getTime() === to.getTime()) return 0;
  const waiting = await tx
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      payBy: orders.payBy,
      rulesSnapshot: orders.rulesSnapshot,
    })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .where(
      and(
        eq(galleryPhotoOrders.galleryId, galleryId),
        eq(orders.status, "awaiting_payment"),
        eq(orders.method, "transfer"),
      ),
    );
  let settingsDays: number | null = null;
  let moved = 0;
  for (const order of waiting) {
    const was = order.payBy;
    if (!was) continue;
    const kept = order.rulesSnapshot.transferDays;
    // Ordered before its rules kept the delay: uncapped, its deadline tells it; capped at the old expiry,
    // the owner's delay now, never less than it was given (an extension never brings it forward).
    const given = was.getTime() - order.createdAt.getTime();
    let delay = given;
    if (typeof kept === "number") delay = kept * DAY_MS;
    else if (was.getTime() >= from.getTime()) {
      settingsDays ??= (await readSiteContent()).documents.payments.transferDays;
      delay = Math.max(given, settingsDays * DAY_MS);
    }
    const payBy = new Date(
      Math.max(at.getTime(), Math.min(order.createdAt.getTime() + delay, to.getTime())),
    );
    if (payBy.getTime() === was.getTime()) continue;
    if (!(await moveTransferDeadline(tx, order.id, payBy))) continue;
    moved++;
    log.info("photo_order_deadline_moved", { galleryId, orderId: order.id, payBy });
    // Brought forward while the gallery still sells: she may have planned her transfer on the old date.
    // Past its end, the order is called off after the change, with its own e-mail.
    if (payBy < was && to.getTime() > at.getTime()) {
      await queuePhotoOrderDeadlineMail({ orderId: order.id }, { tx });
    }
  }
  return moved;
}

/** Why a transfer is no longer offered near the gallery's expiry, and what she can do instead. */
export function lateTransferMessage(
  gallery: Pick<GalleryRow, "expiresAt">,
  settings: Pick<PaymentSettings, "card" | "studio">,
): string {
  const instead =
    settings.card && settings.studio
      ? "Payez par carte ou au studio."
      : settings.card
        ? "Payez par carte."
        : settings.studio
          ? "Réglez au studio."
          : "Contactez le studio : il débloquera vos photos à réception de votre paiement.";
  return `Votre galerie n'est disponible que jusqu'au ${expiryDay(gallery)} : un virement n'arriverait pas à temps. ${instead}`;
}

export const EXPIRED_SALE_MESSAGE =
  "Cette galerie a expiré : ses photos ne sont plus en vente et rien ne vous a été débité. Contactez le studio pour qu'il la prolonge.";

/**
 * What her paid orders of the gallery's photos brought and still keep, net of refunds: each payment of an
 * order that unlocked photos, less what went back of it (a duplicate payment is not the price; money that
 * came once an order was called off unlocked nothing and goes back). `beforeRefunds`: the same payments
 * with nothing taken off — an order fully refunded has no unlocks left, so what stays is what orders still
 * unlocking photos paid before a partial refund (a gesture that takes no photo back, decision 0184).
 */
async function paidForPhotosCents(
  executor: Executor,
  galleryId: string,
): Promise<{ net: number; beforeRefunds: number }> {
  const counted = sql.join(
    COUNTED_REFUNDS.map((status) => sql`${status}`),
    sql`, `,
  );
  const [row] = (
    await executor.execute<{ cents: number; gross: number }>(sql`
      select coalesce(sum(a.amount_cents - coalesce((select sum(r.amount_cents) from refunds r
          where r.attempt_id = a.id and r.status in (${counted})), 0)), 0)::int as cents,
        coalesce(sum(a.amount_cents), 0)::int as gross
      from ${galleryPhotoOrders} g
      join ${paymentAttempts} a on a.order_id = g.order_id and a.status = 'succeeded' and not a.duplicate
      where g.gallery_id = ${galleryId}
        and exists (select 1 from ${galleryUnlocks} u where u.order_id = g.order_id)`)
  ).rows;
  return { net: Math.max(0, row?.cents ?? 0), beforeRefunds: Math.max(0, row?.gross ?? 0) };
}

async function unlocksOf(executor: Executor, galleryId: string) {
  return (await executor
    .select({ photoId: galleryUnlocks.photoId, source: galleryUnlocks.source })
    .from(galleryUnlocks)
    .where(eq(galleryUnlocks.galleryId, galleryId))) as PhotoUnlock[];
}

/** Each ready photo's right and what is due, from the gallery's rows as `executor` reads them. */
export async function photoRightsIn(executor: Executor, gallery: GalleryRow): Promise<PhotoRights> {
  const photos = await executor
    .select({ id: galleryPhotos.id, favourite: galleryPhotos.favourite })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.galleryId, gallery.id), eq(galleryPhotos.status, "ready")))
    .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.createdAt));
  const paid = await paidForPhotosCents(executor, gallery.id);
  return photoRights({
    terms: saleTerms(gallery),
    photos,
    validated: gallery.selectionValidatedAt !== null,
    unlocks: await unlocksOf(executor, gallery.id),
    keptIncluded: gallery.packagePhotoIds,
    paidCents: paid.net,
    paidBeforePartialRefundsCents: paid.beforeRefunds,
  });
}

/** Each ready photo's right and what is due, from the gallery's rows as they are now. */
export function galleryPhotoRights(gallery: GalleryRow): Promise<PhotoRights> {
  return photoRightsIn(db(), gallery);
}

/** The ids of the photos whose original the client may download. */
export async function downloadablePhotoIds(gallery: GalleryRow): Promise<Set<string>> {
  const { rights } = await galleryPhotoRights(gallery);
  return new Set([...rights].filter(([, right]) => right !== "to_buy").map(([id]) => id));
}

/** An order of the gallery's photos awaiting its payment: what it pays for. */
type WaitingPhotoOrder = {
  id: string;
  method: PaymentMethod;
  amountCents: number;
  idempotencyKey: string;
  photoIds: string[];
  allPhotos: boolean;
};

/** The gallery's orders of photos awaiting their payment, the newest first. */
function waitingPhotoOrders(executor: Executor, galleryId: string): Promise<WaitingPhotoOrder[]> {
  return executor
    .select({
      id: orders.id,
      method: orders.method,
      amountCents: orders.amountCents,
      idempotencyKey: orders.idempotencyKey,
      photoIds: galleryPhotoOrders.photoIds,
      allPhotos: galleryPhotoOrders.allPhotos,
    })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .where(and(eq(galleryPhotoOrders.galleryId, galleryId), eq(orders.status, "awaiting_payment")))
    .orderBy(desc(orders.createdAt));
}

/**
 * Whether an order pays exactly what is due now: the same photos (or all of them) for the same amount.
 * One that does not is stale: an offer, a reopened selection or new terms changed what she owes.
 */
export function paysWhatIsDue(
  order: Pick<WaitingPhotoOrder, "amountCents" | "photoIds" | "allPhotos">,
  due: PhotosDue | null,
): boolean {
  return (
    due !== null &&
    order.amountCents === due.amountCents &&
    order.allPhotos === due.allPhotos &&
    order.photoIds.length === due.photoIds.length &&
    due.photoIds.every((id) => order.photoIds.includes(id))
  );
}

/**
 * The gallery's order of photos awaiting its payment for what is due now, with its page's token; a stale
 * one (called off at the next change or order) is not shown as awaited.
 */
export async function pendingPhotoOrder(galleryId: string, due: PhotosDue | null) {
  const pending = (await waitingPhotoOrders(db(), galleryId)).find((order) =>
    paysWhatIsDue(order, due),
  );
  return pending ? { ...pending, token: await orderTokenFor(pending.id) } : null;
}

/**
 * The gallery's latest order of photos not paid whose card payment the provider took for another total
 * and that waits for the owner's decision (decision 0172): awaiting payment, or lapsed or called off since
 * (what is due changed). Her money came for photos of this gallery: nothing is sold to her again, by her
 * gallery or at the studio, until the owner accepts it or gives it back.
 */
export async function heldPhotoOrder(galleryId: string) {
  const [held] = await db()
    .select({
      id: orders.id,
      status: orders.status,
      amountCents: orders.amountCents,
      heldCents: paymentAttempts.heldAmountCents,
      heldCurrency: paymentAttempts.heldCurrency,
      attemptCents: paymentAttempts.amountCents,
    })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .innerJoin(
      paymentAttempts,
      and(eq(paymentAttempts.orderId, orders.id), eq(paymentAttempts.status, "held")),
    )
    .where(
      and(
        eq(galleryPhotoOrders.galleryId, galleryId),
        inArray(orders.status, ["awaiting_payment", "expired", "cancelled"]),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!held) return null;
  const { heldCents, heldCurrency, attemptCents, ...order } = held;
  return {
    ...order,
    /** What the provider took, as the owner's page of the order writes it. */
    taken: heldAmountText(heldCents ?? attemptCents, heldCurrency),
    token: await orderTokenFor(order.id),
  };
}

/**
 * Calls off the gallery's orders awaiting payment that no longer pay what is due now, every one of a
 * gallery being deleted (decision 0184), after the change is committed: each through the core's
 * `cancelUnpaidOrder` (under the order's lock, its open checkouts then closed at the provider). A payment
 * applied before it stands (its photos unlocked, what is due read again from them); one after it is late,
 * and given back (the kind's onPaid). Returns how many were called off.
 */
export async function callOffStalePhotoOrders(galleryId: string): Promise<number> {
  const waiting = await waitingPhotoOrders(db(), galleryId);
  if (waiting.length === 0) return 0;
  const [gallery] = await db().select().from(galleries).where(eq(galleries.id, galleryId));
  // A gallery being deleted or expired sells nothing: every waiting order is called off.
  const due = gallery && sellsNow(gallery) ? (await galleryPhotoRights(gallery)).due : null;
  let kept = false;
  let calledOff = 0;
  for (const order of waiting) {
    // The newest that pays what is due stays awaited (never two: placePhotoOrder refuses a second).
    if (!kept && paysWhatIsDue(order, due)) {
      kept = true;
      continue;
    }
    if (await cancelUnpaidOrder(order.id)) {
      calledOff++;
      log.info("photo_order_called_off", { galleryId, orderId: order.id });
    }
  }
  return calledOff;
}

/**
 * Calls off the orders of photos still awaiting payment in galleries expired by `at` (the retention's
 * daily run): a transfer on its way or a card page left open would be paid for photos she can no longer
 * download. Money that still comes for one goes back (the kind's onPaid). Returns how many.
 */
export async function callOffExpiredPhotoOrders(at = now()): Promise<number> {
  const expired = await db()
    .selectDistinct({ galleryId: galleryPhotoOrders.galleryId })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
    .where(and(eq(orders.status, "awaiting_payment"), lte(galleries.expiresAt, at)));
  let calledOff = 0;
  for (const { galleryId } of expired) calledOff += await callOffStalePhotoOrders(galleryId);
  return calledOff;
}

/**
 * Whether the buyer may still pay an order of photos (« Payer par carte » on its page): false once its
 * gallery expired or is gone, and then the order is called off (when the daily run has not yet).
 */
export async function photoOrderStillPayable(orderId: string): Promise<boolean> {
  const [purchase] = await db()
    .select({ gallery: galleries })
    .from(galleryPhotoOrders)
    .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
    .where(eq(galleryPhotoOrders.orderId, orderId));
  if (purchase && sellsNow(purchase.gallery)) return true;
  if (purchase) await callOffStalePhotoOrders(purchase.gallery.id);
  else await cancelUnpaidOrder(orderId);
  return false;
}

/** The gallery's order of photos made by the form of `idempotencyKey`, if one was. */
async function photoOrderOfKey(galleryId: string, idempotencyKey: string) {
  const [made] = await db()
    .select({
      id: orders.id,
      status: orders.status,
      method: orders.method,
      amountCents: orders.amountCents,
      photoIds: galleryPhotoOrders.photoIds,
      allPhotos: galleryPhotoOrders.allPhotos,
    })
    .from(orders)
    .innerJoin(galleryPhotoOrders, eq(galleryPhotoOrders.orderId, orders.id))
    .where(
      and(eq(orders.idempotencyKey, idempotencyKey), eq(galleryPhotoOrders.galleryId, galleryId)),
    );
  return made ?? null;
}

/** What the client's form says she is paying for, checked against what the server computes. */
export type PostedPhotoOrder = {
  method: PaymentMethod;
  idempotencyKey: string;
  /** The amount and photos the page showed her (hidden fields). */
  amountCents: number | null;
  photoIds: string[];
};

export const NOT_UNLOCKED_MESSAGE =
  "Cette photo n'est pas encore débloquée : elle n'est pas incluse dans votre formule. Achetez-la depuis votre galerie pour la télécharger.";

export const PENDING_ORDER_MESSAGE =
  "Une commande de photos attend déjà son paiement : payez-la depuis sa page.";

export const CHECKOUT_OPEN_MESSAGE =
  "Un paiement par carte de cette commande est en cours : terminez-le sur la page de paiement, ou attendez une demi-heure avant de choisir un autre moyen de paiement.";

export const ALTERED_ORDER_MESSAGE =
  "Le montant ou les photos de votre commande ne correspondent plus à votre sélection : vérifiez le nouveau total ci-dessous avant de payer.";

/**
 * The client's order of the extra photos of her validated selection: refused in French when the gallery
 * sells none, the method is not allowed (a transfer too near the gallery's expiry to arrive), or the posted
 * amount or photos differ from what is due now. The same form posted again (its key) answers the order it
 * made, and its checkout. A waiting order that no longer pays what is due is called off first: she orders
 * what is due now.
 */
export async function createPhotoOrder(
  gallery: GalleryRow,
  posted: PostedPhotoOrder,
  settings: PaymentSettings,
): Promise<OrderCheckout> {
  if (!sellsNow(gallery)) throw new PhotoSaleRefusedError(EXPIRED_SALE_MESSAGE);
  const again = await orderAgain(gallery, posted.idempotencyKey, settings);
  if (again) return again;
  // Her card payment came for another total and waits for the studio (decision 0172), its order waiting,
  // lapsed or called off since: neither replaced (her money would pay nothing) nor paid a second time.
  if (await heldPhotoOrder(gallery.id)) throw new PhotoSaleRefusedError(PAYMENT_HELD_MESSAGE);
  const { due } = await galleryPhotoRights(gallery);
  if (!due) {
    throw new PhotoSaleRefusedError("Aucune photo à acheter dans votre sélection validée.");
  }
  const samePhotos =
    posted.photoIds.length === due.photoIds.length &&
    due.photoIds.every((id) => posted.photoIds.includes(id));
  if (posted.amountCents !== due.amountCents || !samePhotos) {
    throw new PhotoSaleRefusedError(ALTERED_ORDER_MESSAGE);
  }
  if (!settings[posted.method]) {
    throw new PhotoSaleRefusedError(
      "Ce moyen de paiement n'est pas proposé : choisissez-en un autre.",
      400,
      "paiement",
    );
  }
  if (posted.method === "transfer" && !transferArrivesInTime(gallery)) {
    throw new PhotoSaleRefusedError(lateTransferMessage(gallery, settings), 400, "paiement");
  }

  await callOffStalePhotoOrders(gallery.id);
  const pending = await pendingPhotoOrder(gallery.id, due);
  if (pending) {
    // The same form's first post may have just made it.
    const made = await orderAgain(gallery, posted.idempotencyKey, settings);
    if (made) return made;
    // Held since the check above (the provider's report meanwhile): the same refusal.
    if (await paymentHeldFor(pending.id)) throw new PhotoSaleRefusedError(PAYMENT_HELD_MESSAGE);
    if (pending.method === posted.method) throw new PhotoSaleRefusedError(PENDING_ORDER_MESSAGE);
    // Another method for the same photos: she changed her mind (a transfer not sent, a card refused).
    // The new order replaces the waiting one, unless she is paying it by card right now.
    if (await cardCheckoutOpen(pending.id)) throw new PhotoSaleRefusedError(CHECKOUT_OPEN_MESSAGE);
    const replacing = await placePhotoOrder(
      gallery,
      due,
      posted.method,
      posted.idempotencyKey,
      settings,
      pending.id,
    );
    // After the new order is made: a failure in between leaves two, and the next change keeps the newest.
    if (await cancelUnpaidOrder(pending.id)) {
      log.info("photo_order_replaced", { galleryId: gallery.id, orderId: pending.id });
    }
    return replacing;
  }
  return placePhotoOrder(gallery, due, posted.method, posted.idempotencyKey, settings);
}

/** Whether a card checkout of the order is open and still payable now. */
async function cardCheckoutOpen(orderId: string): Promise<boolean> {
  const open = await db()
    .select({ expiresAt: paymentAttempts.expiresAt })
    .from(paymentAttempts)
    .innerJoin(orders, eq(orders.id, paymentAttempts.orderId))
    .where(
      and(
        eq(paymentAttempts.orderId, orderId),
        eq(paymentAttempts.status, "open"),
        eq(orders.method, "card"),
      ),
    );
  const at = now().getTime();
  return open.some((attempt) => attempt.expiresAt === null || attempt.expiresAt.getTime() > at);
}

/**
 * A second post of the form of `idempotencyKey` (a double submit): createOrder finds the order the first
 * made and answers its checkout; one no longer awaiting payment sends her to its page. Null when the key
 * made nothing yet.
 */
async function orderAgain(
  gallery: GalleryRow,
  idempotencyKey: string,
  settings: PaymentSettings | null,
): Promise<OrderCheckout | null> {
  const made = await photoOrderOfKey(gallery.id, idempotencyKey);
  if (!made) return null;
  const quantity = made.allPhotos ? 1 : made.photoIds.length;
  // Its own lines, so that the core's checks pass; nothing is written again.
  const checkout = await placePhotoOrder(
    gallery,
    {
      photoIds: made.photoIds,
      allPhotos: made.allPhotos,
      amountCents: made.amountCents,
      creditCents: 0,
      quantity,
      unitPriceCents: made.amountCents / quantity,
    },
    made.method,
    idempotencyKey,
    settings,
  );
  return made.status === "awaiting_payment" ? checkout : { ...checkout, redirectUrl: null };
}

/** `replacing`: the waiting order this one replaces (another method), called off once it is made. */
async function placePhotoOrder(
  gallery: GalleryRow,
  due: NonNullable<PhotoRights["due"]>,
  method: PaymentMethod,
  idempotencyKey: string,
  settings: PaymentSettings | null,
  replacing: string | null = null,
): Promise<OrderCheckout> {
  const at = now();
  return createOrder({
    kind: "gallery_photos",
    method,
    buyer: { name: gallery.clientName, email: gallery.clientEmail },
    termsAcceptedAt: at,
    rulesSnapshot: {
      galleryId: gallery.id,
      terms: [
        "Photos livrées en fichiers numériques, téléchargeables dès le paiement reçu : le droit de rétractation ne s'applique plus une fois le téléchargement ouvert (Code de la consommation, art. L221-28 13°).",
      ],
      // The owner's delay is kept: a new expiry recomputes the deadline from it (decision 0196).
      ...(method === "transfer" && settings
        ? {
            transfer: { holder: settings.transferHolder, iban: settings.transferIban },
            transferDays: settings.transferDays,
          }
        : {}),
    },
    lines: [
      {
        label: due.allPhotos
          ? `Toutes les photos de la galerie « ${gallery.title} »${due.creditCents > 0 ? ` (déjà payé ${formatCents(due.creditCents)} déduit)` : ""}`
          : `Photo supplémentaire de la galerie « ${gallery.title} »`,
        quantity: due.quantity,
        unitPriceCents: due.unitPriceCents,
        vatRate: PHOTO_VAT_RATE,
      },
    ],
    idempotencyKey,
    studioId: gallery.studioId,
    // Money after the gallery's expiry goes back (onPaid): she is never told to pay later.
    payBy:
      method === "transfer" && settings ? transferPayBy(gallery, settings.transferDays, at) : null,
    inTransaction: async (tx, order) => {
      // The gallery's row lock: two orders posted at once cannot both await payment (the second sees
      // the first once it commits, and is refused); an offer, a reopen, new terms or a deletion committed
      // since what is due was read are seen here, and the order, stale before it exists, is not made.
      const [current] = await tx
        .select()
        .from(galleries)
        .where(eq(galleries.id, gallery.id))
        .for("update");
      const dueNow = current && sellsNow(current) ? (await photoRightsIn(tx, current)).due : null;
      const ordered = {
        amountCents: order.amountCents,
        photoIds: due.photoIds,
        allPhotos: due.allPhotos,
      };
      if (!paysWhatIsDue(ordered, dueNow)) throw new PhotoSaleRefusedError(ALTERED_ORDER_MESSAGE);
      // A new expiry saved since `gallery` was read (its change did not see this order): her transfer's
      // deadline is capped at it, as a waiting order's follows it, and one too near it is refused.
      if (
        method === "transfer" &&
        settings &&
        current &&
        current.expiresAt.getTime() !== gallery.expiresAt.getTime()
      ) {
        if (!transferArrivesInTime(current, at)) {
          throw new PhotoSaleRefusedError(lateTransferMessage(current, settings), 400, "paiement");
        }
        const payBy = transferPayBy(current, settings.transferDays, order.createdAt);
        await moveTransferDeadline(tx, order.id, payBy);
      }
      const other = (await waitingPhotoOrders(tx, gallery.id)).find(
        (waiting) => waiting.id !== order.id && waiting.id !== replacing,
      );
      if (other) throw new PhotoSaleRefusedError(PENDING_ORDER_MESSAGE);
      await tx.insert(galleryPhotoOrders).values({
        orderId: order.id,
        galleryId: gallery.id,
        photoIds: due.photoIds,
        allPhotos: due.allPhotos,
      });
      // Her order (not the owner's « Encaisser », `settings` null) by transfer or at the studio: confirmed
      // by e-mail, the bank details with it. A card order is paid on the provider's page at once.
      if (settings && method !== "card") {
        await queuePhotoOrderMail({ orderId: order.id }, { tx, once: `photo-order:${order.id}` });
      }
    },
  });
}

export const EXPIRED_CASH_MESSAGE =
  "Cette galerie a expiré : prolongez-la avant d'encaisser des photos, sinon la cliente paierait des photos qu'elle ne peut plus télécharger.";

/** « Encaisser » while a card payment of hers waits for the owner's decision (decision 0172). */
export const heldCashMessage = (taken: string) =>
  `Un paiement par carte de ${taken} de la cliente pour ces photos attend votre décision (montant différent) : acceptez-le ou remboursez-le depuis sa commande avant d'encaisser, sinon elle paierait deux fois.`;

export const DUE_CHANGED_MESSAGE =
  "Le montant dû vient de changer : vérifiez-le ci-dessous avant d'encaisser.";

/**
 * « Encaisser et débloquer »: the owner received the money at the studio. The order awaiting payment for
 * what is due now is marked paid, or an order « au studio » of what is due now is made and marked paid,
 * through the core's mark-paid path (its journal row, its invoice, then the unlocks of its kind). A stale
 * waiting order is called off first: never cashed. `expectedCents`: the amount her page showed (refused
 * when what is due changed since); the same form posted twice cashes once.
 */
export async function cashPhotoOrder(
  gallery: GalleryRow,
  means: OfflineMeans,
  idempotencyKey: string,
  expectedCents: number | null = null,
): Promise<{ orderId: string }> {
  const made = await photoOrderOfKey(gallery.id, idempotencyKey);
  if (made?.status === "paid" || made?.status === "refunded") return { orderId: made.id };
  // This form's order called off before it was cashed (what is due changed meanwhile): nothing cashed.
  if (made && made.status !== "awaiting_payment") {
    throw new PhotoSaleRefusedError(DUE_CHANGED_MESSAGE);
  }
  if (!sellsNow(gallery)) {
    await callOffStalePhotoOrders(gallery.id);
    throw new PhotoSaleRefusedError(EXPIRED_CASH_MESSAGE);
  }
  const held = await heldPhotoOrder(gallery.id);
  if (held) throw new PhotoSaleRefusedError(heldCashMessage(held.taken));
  await callOffStalePhotoOrders(gallery.id);
  const { due } = await galleryPhotoRights(gallery);
  if (!due) throw new PhotoSaleRefusedError("Aucune photo à encaisser : rien n'est dû.");
  if (expectedCents !== null && expectedCents !== due.amountCents) {
    throw new PhotoSaleRefusedError(DUE_CHANGED_MESSAGE);
  }
  const pending = await pendingPhotoOrder(gallery.id, due);
  if (pending) {
    await markPaidOffline(pending.id, means);
    return { orderId: pending.id };
  }
  const checkout = await placePhotoOrder(gallery, due, "studio", idempotencyKey, null);
  await markPaidOffline(checkout.orderId, means);
  return { orderId: checkout.orderId };
}

/** The owner offers photos (or every photo: `null`); an offer made twice adds nothing. */
export async function offerPhotos(galleryId: string, photoIds: string[] | null): Promise<number> {
  if (photoIds !== null && photoIds.length === 0) return 0;
  const ids =
    photoIds === null
      ? [null]
      : (
          await db()
            .select({ id: galleryPhotos.id })
            .from(galleryPhotos)
            .where(and(eq(galleryPhotos.galleryId, galleryId), inArray(galleryPhotos.id, photoIds)))
        ).map((row) => row.id);
  if (ids.length === 0) return 0;
  const inserted = await db()
    .insert(galleryUnlocks)
    .values(ids.map((photoId) => ({ galleryId, photoId, source: "offered" as const })))
    .onConflictDoNothing()
    .returning({ id: galleryUnlocks.id });
  // An order awaiting payment for photos now offered asks too much: called off (she pays what is left).
  await callOffStalePhotoOrders(galleryId);
  return inserted.length;
}

/**
 * Why a payment no longer buys what it paid for, or null when it does: the gallery must be online and not
 * expired (she can download), and for money that came after its order was released, no other order may
 * await payment there and the order's photos and amount must be what is due now. Otherwise (called off
 * because what it paid changed, or its gallery deleted or expired) the money goes back.
 */
async function undeliverable(
  tx: Tx,
  order: OrderRecord,
  purchase: typeof galleryPhotoOrders.$inferSelect | undefined,
  late: boolean,
): Promise<"gone" | "expired" | "changed" | null> {
  const [gallery] = purchase
    ? await tx.select().from(galleries).where(eq(galleries.id, purchase.galleryId))
    : [];
  if (!purchase || !gallery || gallery.deletingAt) return "gone";
  if (!sellsNow(gallery)) return "expired";
  if (!late) return null;
  const waiting = await waitingPhotoOrders(tx, gallery.id);
  if (waiting.some((other) => other.id !== order.id)) return "changed";
  const { due } = await photoRightsIn(tx, gallery);
  return paysWhatIsDue({ ...purchase, amountCents: order.amountCents }, due) ? null : "changed";
}

/**
 * What an order of photos does (decision 0184): paid, its photos (or every photo) are unlocked — paid
 * late (after its release) only when it still pays what is due, else given back; released unpaid, nothing
 * was unlocked, and called off (not expired: the core tells that) its client is told; fully refunded,
 * what it unlocked is locked again (the money went back).
 */
export const photoSalesOrderKind = defineOrderKind("gallery_photos", {
  onPaid: async (tx, order, { late }) => {
    const [purchase] = await tx
      .select()
      .from(galleryPhotoOrders)
      .where(eq(galleryPhotoOrders.orderId, order.id));
    // Its gallery deleted or expired meanwhile, or called off for what it no longer pays: nothing to
    // deliver, the money (journalled by the core) goes back once this commits.
    const why = await undeliverable(tx, order, purchase, late);
    if (!purchase || why) {
      await photoOrderRefundJob.send({ orderId: order.id, expired: why === "expired" }, { tx });
      log.info("photo_order_given_back", { orderId: order.id, late, why });
      return "given_back";
    }
    const photoIds: (string | null)[] = purchase.allPhotos ? [null] : purchase.photoIds;
    // A photo deleted since the order has no row to unlock: skipped (the order still counts).
    const existing = purchase.allPhotos
      ? []
      : (
          await tx
            .select({ id: galleryPhotos.id })
            .from(galleryPhotos)
            .where(inArray(galleryPhotos.id, purchase.photoIds))
        ).map((row) => row.id);
    const rows = photoIds
      .filter((id) => id === null || existing.includes(id))
      .map((photoId) => ({
        galleryId: purchase.galleryId,
        photoId,
        source: "bought" as const,
        orderId: order.id,
      }));
    if (rows.length > 0) await tx.insert(galleryUnlocks).values(rows).onConflictDoNothing();
  },
  // « Payer par carte » on its page once its gallery expired or went (the page refuses first; this holds
  // for any other way in): nothing left to deliver, no checkout.
  onCheckoutOpened: async (tx, order) => {
    const [purchase] = await tx
      .select({ deletingAt: galleries.deletingAt, expiresAt: galleries.expiresAt })
      .from(galleryPhotoOrders)
      .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
      .where(eq(galleryPhotoOrders.orderId, order.id));
    if (!purchase || !sellsNow(purchase)) {
      throw new PaymentRefusedError("not_awaiting_payment", EXPIRED_SALE_MESSAGE);
    }
  },
  onReleased: async (tx, order, { reason }) => {
    // Nothing was unlocked before the payment: nothing to undo. Expired, the core's e-mail tells her.
    if (reason === "cancelled") {
      await queuePhotoOrderCalledOffMail(
        { orderId: order.id },
        { tx, once: `photo-order-called-off:${order.id}` },
      );
    }
  },
  onRefunded: async (tx, order, { fullyRefunded }) => {
    if (!fullyRefunded) return;
    await tx.delete(galleryUnlocks).where(eq(galleryUnlocks.orderId, order.id));
  },
});

/**
 * What the buyer's page of an order of photos says (decision 0184): its gallery while it is online (the
 * way back to it), whether it expired, whether the order unlocked photos (money that came once it was
 * called off, or once its gallery expired, did not), and whether, called off, her own order of the same
 * photos by another method replaced it (decision 0196).
 */
export async function photoOrderForPage(
  order: OrderRecord,
): Promise<{ galleryId: string | null; expired: boolean; unlocked: boolean; replaced: boolean }> {
  const [purchase] = await db()
    .select({ galleryId: galleries.id, expiresAt: galleries.expiresAt })
    .from(galleryPhotoOrders)
    .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
    .where(and(eq(galleryPhotoOrders.orderId, order.id), isNull(galleries.deletingAt)));
  const expired = purchase !== undefined && !sellsNow({ deletingAt: null, ...purchase });
  const [unlock] = await db()
    .select({ id: galleryUnlocks.id })
    .from(galleryUnlocks)
    .where(eq(galleryUnlocks.orderId, order.id))
    .limit(1);
  return {
    galleryId: purchase && !expired ? purchase.galleryId : null,
    expired,
    unlocked: unlock !== undefined,
    replaced:
      order.status === "cancelled" &&
      purchase !== undefined &&
      (await replacedByHerOrder(order, purchase.galleryId)),
  };
}

/** Whether the gallery has an order of photos paid or awaiting payment (the settings' warning). */
export async function hasPhotoOrderPaidOrAwaited(galleryId: string): Promise<boolean> {
  const [order] = await db()
    .select({ id: orders.id })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .where(
      and(
        eq(galleryPhotoOrders.galleryId, galleryId),
        inArray(orders.status, ["paid", "awaiting_payment"]),
      ),
    )
    .limit(1);
  return order !== undefined;
}

/** A fresh key for an order form drawn with its page. */
export const newOrderKey = () => randomUUID();
