import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { PaymentSettings } from "~/content/schemas";
import {
  photoRights,
  type PhotoRights,
  type PhotoSaleTerms,
  type PhotosDue,
  type PhotoUnlock,
} from "~/lib/gallery-sales";
import type { OfflineMeans, PaymentMethod } from "~/lib/payments/model";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { galleries, galleryPhotoOrders, galleryPhotos, galleryUnlocks, orders } from "../db/schema";
import { log } from "../logger.server";
import type { Tx } from "../payments/journal.server";
import { defineOrderKind, type OrderRecord } from "../payments/order-kinds.server";
import { orderTokenFor } from "../payments/order-token.server";
import {
  cancelUnpaidOrder,
  createOrder,
  markPaidOffline,
  type OrderCheckout,
} from "../payments/orders.server";
import type { GalleryRow } from "./access.server";
import { photoOrderRefundJob, queuePhotoOrderCalledOffMail } from "./photo-order-release.server";

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
  return photoRights({
    terms: saleTerms(gallery),
    photos,
    validated: gallery.selectionValidatedAt !== null,
    unlocks: await unlocksOf(executor, gallery.id),
    keptIncluded: gallery.packagePhotoIds,
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
  const due = gallery && !gallery.deletingAt ? (await galleryPhotoRights(gallery)).due : null;
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

export const ALTERED_ORDER_MESSAGE =
  "Le montant ou les photos de votre commande ne correspondent plus à votre sélection : vérifiez le nouveau total ci-dessous avant de payer.";

/**
 * The client's order of the extra photos of her validated selection: refused in French when the gallery
 * sells none, the method is not allowed, or the posted amount or photos differ from what is due now. The
 * same form posted again (its key) answers the order it made, and its checkout. A waiting order that no
 * longer pays what is due is called off first: she orders what is due now.
 */
export async function createPhotoOrder(
  gallery: GalleryRow,
  posted: PostedPhotoOrder,
  settings: PaymentSettings,
): Promise<OrderCheckout> {
  const again = await orderAgain(gallery, posted.idempotencyKey, settings);
  if (again) return again;
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

  await callOffStalePhotoOrders(gallery.id);
  if (await pendingPhotoOrder(gallery.id, due)) {
    // The same form's first post may have just made it.
    const made = await orderAgain(gallery, posted.idempotencyKey, settings);
    if (made) return made;
    throw new PhotoSaleRefusedError(PENDING_ORDER_MESSAGE);
  }
  return placePhotoOrder(gallery, due, posted.method, posted.idempotencyKey, settings);
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
      quantity,
      unitPriceCents: made.amountCents / quantity,
    },
    made.method,
    idempotencyKey,
    settings,
  );
  return made.status === "awaiting_payment" ? checkout : { ...checkout, redirectUrl: null };
}

async function placePhotoOrder(
  gallery: GalleryRow,
  due: NonNullable<PhotoRights["due"]>,
  method: PaymentMethod,
  idempotencyKey: string,
  settings: PaymentSettings | null,
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
      ...(method === "transfer" && settings
        ? { transfer: { holder: settings.transferHolder, iban: settings.transferIban } }
        : {}),
    },
    lines: [
      {
        label: due.allPhotos
          ? `Toutes les photos de la galerie « ${gallery.title} »`
          : `Photo supplémentaire de la galerie « ${gallery.title} »`,
        quantity: due.quantity,
        unitPriceCents: due.unitPriceCents,
        vatRate: PHOTO_VAT_RATE,
      },
    ],
    idempotencyKey,
    studioId: gallery.studioId,
    payBy:
      method === "transfer" && settings
        ? new Date(at.getTime() + settings.transferDays * 24 * 3_600_000)
        : null,
    inTransaction: async (tx, order) => {
      // The gallery's row lock: two orders posted at once cannot both await payment (the second sees
      // the first once it commits, and is refused); an offer, a reopen, new terms or a deletion committed
      // since what is due was read are seen here, and the order, stale before it exists, is not made.
      const [current] = await tx
        .select()
        .from(galleries)
        .where(eq(galleries.id, gallery.id))
        .for("update");
      const dueNow = current && !current.deletingAt ? (await photoRightsIn(tx, current)).due : null;
      const ordered = {
        amountCents: order.amountCents,
        photoIds: due.photoIds,
        allPhotos: due.allPhotos,
      };
      if (!paysWhatIsDue(ordered, dueNow)) throw new PhotoSaleRefusedError(ALTERED_ORDER_MESSAGE);
      const [other] = await waitingPhotoOrders(tx, gallery.id);
      if (other && other.id !== order.id) throw new PhotoSaleRefusedError(PENDING_ORDER_MESSAGE);
      await tx.insert(galleryPhotoOrders).values({
        orderId: order.id,
        galleryId: gallery.id,
        photoIds: due.photoIds,
        allPhotos: due.allPhotos,
      });
    },
  });
}

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
 * Whether money that came after its order was released still buys what it paid for: the gallery online,
 * no other order awaiting payment there, and the order's photos and amount what is due now. Otherwise
 * (called off because what it paid changed, or its gallery deleted) the money goes back.
 */
async function stillDue(
  tx: Tx,
  order: OrderRecord,
  purchase: typeof galleryPhotoOrders.$inferSelect,
): Promise<boolean> {
  const [gallery] = await tx.select().from(galleries).where(eq(galleries.id, purchase.galleryId));
  if (!gallery || gallery.deletingAt) return false;
  const waiting = await waitingPhotoOrders(tx, gallery.id);
  if (waiting.some((other) => other.id !== order.id)) return false;
  const { due } = await photoRightsIn(tx, gallery);
  return paysWhatIsDue({ ...purchase, amountCents: order.amountCents }, due);
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
    // Its gallery deleted meanwhile, or called off for what it no longer pays: nothing to deliver, the
    // money (journalled by the core) goes back once this commits.
    if (!purchase || (late && !(await stillDue(tx, order, purchase)))) {
      await photoOrderRefundJob.send({ orderId: order.id }, { tx });
      log.info("photo_order_paid_after_release", { orderId: order.id });
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
 * way back to it), and whether the order unlocked photos (money that came once it was called off did not).
 */
export async function photoOrderForPage(
  orderId: string,
): Promise<{ galleryId: string | null; unlocked: boolean }> {
  const [purchase] = await db()
    .select({ galleryId: galleries.id })
    .from(galleryPhotoOrders)
    .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
    .where(and(eq(galleryPhotoOrders.orderId, orderId), isNull(galleries.deletingAt)));
  const [unlock] = await db()
    .select({ id: galleryUnlocks.id })
    .from(galleryUnlocks)
    .where(eq(galleryUnlocks.orderId, orderId))
    .limit(1);
  return { galleryId: purchase?.galleryId ?? null, unlocked: unlock !== undefined };
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
