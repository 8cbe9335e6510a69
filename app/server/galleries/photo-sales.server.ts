import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { PaymentSettings } from "~/content/schemas";
import {
  photoRights,
  type PhotoRights,
  type PhotoSaleTerms,
  type PhotoUnlock,
} from "~/lib/gallery-sales";
import type { OfflineMeans, PaymentMethod } from "~/lib/payments/model";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { galleries, galleryPhotoOrders, galleryPhotos, galleryUnlocks, orders } from "../db/schema";
import type { Tx } from "../payments/journal.server";
import { defineOrderKind } from "../payments/order-kinds.server";
import { orderTokenFor } from "../payments/order-token.server";
import { createOrder, markPaidOffline, type OrderCheckout } from "../payments/orders.server";
import type { GalleryRow } from "./access.server";

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

/** The gallery's order of photos still awaiting its payment, with its page's token. */
export async function pendingPhotoOrder(galleryId: string) {
  const [pending] = await db()
    .select({ id: orders.id, method: orders.method, amountCents: orders.amountCents })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .where(and(eq(galleryPhotoOrders.galleryId, galleryId), eq(orders.status, "awaiting_payment")))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return pending ? { ...pending, token: await orderTokenFor(pending.id) } : null;
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
 * sells none, the method is not allowed, or the posted amount or photos differ from what is due now.
 */
export async function createPhotoOrder(
  gallery: GalleryRow,
  posted: PostedPhotoOrder,
  settings: PaymentSettings,
): Promise<OrderCheckout> {
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

  const pending = await pendingPhotoOrder(gallery.id);
  if (pending) {
    throw new PhotoSaleRefusedError(PENDING_ORDER_MESSAGE);
  }
  return placePhotoOrder(gallery, due, posted.method, posted.idempotencyKey, settings);
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
      // the first once it commits, and is refused).
      await tx
        .select({ id: galleries.id })
        .from(galleries)
        .where(eq(galleries.id, gallery.id))
        .for("update");
      const [other] = await tx
        .select({ id: orders.id })
        .from(galleryPhotoOrders)
        .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
        .where(
          and(eq(galleryPhotoOrders.galleryId, gallery.id), eq(orders.status, "awaiting_payment")),
        )
        .limit(1);
      if (other) throw new PhotoSaleRefusedError(PENDING_ORDER_MESSAGE);
      await tx.insert(galleryPhotoOrders).values({
        orderId: order.id,
        galleryId: gallery.id,
        photoIds: due.photoIds,
        allPhotos: due.allPhotos,
      });
    },
  });
}

/**
 * « Encaisser et débloquer »: the owner received the money at the studio. The order awaiting payment is
 * marked paid, or an order « au studio » of what is due now is made and marked paid, through the core's
 * mark-paid path (its journal row, its invoice, then the unlocks of its kind).
 */
export async function cashPhotoOrder(
  gallery: GalleryRow,
  means: OfflineMeans,
  idempotencyKey: string,
): Promise<{ orderId: string }> {
  const pending = await pendingPhotoOrder(gallery.id);
  if (pending) {
    await markPaidOffline(pending.id, means);
    return { orderId: pending.id };
  }
  const { due } = await galleryPhotoRights(gallery);
  if (!due) throw new PhotoSaleRefusedError("Aucune photo à encaisser : rien n'est dû.");
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
  return inserted.length;
}

/**
 * What an order of photos does (decision 0184): paid, its photos (or every photo) are unlocked; released
 * unpaid, nothing was unlocked; fully refunded, what it unlocked is locked again (the money went back).
 */
export const photoSalesOrderKind = defineOrderKind("gallery_photos", {
  onPaid: async (tx, order) => {
    const [purchase] = await tx
      .select()
      .from(galleryPhotoOrders)
      .where(eq(galleryPhotoOrders.orderId, order.id));
    // Its gallery deleted meanwhile: the money is journalled by the core; nothing left to unlock.
    if (!purchase) return;
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
  onReleased: async () => {
    // Nothing was unlocked before the payment: nothing to undo.
  },
  onRefunded: async (tx, order, { fullyRefunded }) => {
    if (!fullyRefunded) return;
    await tx.delete(galleryUnlocks).where(eq(galleryUnlocks.orderId, order.id));
  },
});

/** A fresh key for an order form drawn with its page. */
export const newOrderKey = () => randomUUID();
