import { and, eq, gt, inArray, ne } from "drizzle-orm";
import { instantLabelFr } from "~/lib/booking/words";
import { clientGalleryPath } from "~/lib/gallery-urls";
import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { readSiteContent } from "../content/site-content.server";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { galleries, galleryPhotoOrders, orders } from "../db/schema";
import { defineJob, PROVIDER_JOB_POLICY } from "../jobs/queue.server";
import { defineMailKind } from "../mail/outbox.server";
import { clientMail, orderPageUrl, siteUrl } from "../payments/emails.server";
import { paymentHeldFor } from "../payments/held-attempts.server";
import { refundWhatIsLeft } from "../payments/orders.server";

/*
 * An order of extra photos called off while it awaited its payment (decision 0184): what it paid for
 * changed (photos offered, the selection reopened, the gallery's terms) or its gallery was deleted. Its
 * client is told once, and money that still came for it (a checkout paid before it closed, a transfer
 * marked received) goes back: a job after the payment's commit, as the refund needs the order paid. And
 * one awaiting a transfer whose deadline the gallery's new expiry brought forward (decision 0196, amended
 * 2026-12-01): its client is told the new one.
 */

/** Why the money goes back, as the refund and its e-mail read. */
export const LATE_PHOTO_REFUND_REASON =
  "Paiement arrivé après l'annulation de la commande de photos (ce qu'elle payait avait changé)";

/** The same, for a payment that came once the gallery had expired (nothing can be downloaded). */
export const EXPIRED_PHOTO_REFUND_REASON =
  "Paiement arrivé après l'expiration de la galerie : plus aucune photo ne pouvait être téléchargée";

/** The reasons of the refunds of payments that delivered nothing (the order's page says so). */
export const UNDELIVERED_PHOTO_REFUND_REASONS = [
  LATE_PHOTO_REFUND_REASON,
  EXPIRED_PHOTO_REFUND_REASON,
];

/** The client's e-mail of an order of photos called off; none once it was paid after all. */
export async function photoOrderCalledOffEmail(orderId: string) {
  const [row] = await db()
    .select({ order: orders, galleryId: galleryPhotoOrders.galleryId })
    .from(orders)
    .leftJoin(galleryPhotoOrders, eq(galleryPhotoOrders.orderId, orders.id))
    .where(eq(orders.id, orderId));
  // Paid meanwhile (a checkout that beat its close): the payment's and the refund's e-mails tell it.
  if (row?.order.status !== "cancelled") return null;
  const { order, galleryId } = row;
  const [gallery] = galleryId
    ? await db()
        .select({
          title: galleries.title,
          deletingAt: galleries.deletingAt,
          expiresAt: galleries.expiresAt,
        })
        .from(galleries)
        .where(eq(galleries.id, galleryId))
    : [];
  const online = galleryId !== null && gallery !== undefined && gallery.deletingAt === null;
  // Replaced by her own order of the same photos by another method: she knows, and pays the new one.
  if (online && (await replacedByHerOrder(order, galleryId))) return null;
  const expired = online && gallery.expiresAt.getTime() <= now().getTime();
  const amount = formatCents(order.amountCents);
  // Her card payment came for another total and waits for the studio (decision 0172): never « rien ne
  // vous a été débité », nor an invitation to pay what is left.
  const held = await paymentHeldFor(order.id);
  const { identity, legal } = (await readSiteContent()).documents;
  return clientMail({
    to: order.buyerEmail,
    subject: `Votre commande de photos de ${amount} est annulée`,
    lines: held
      ? [
          `Bonjour ${order.buyerName},`,
          `Votre commande de photos de ${amount} de votre galerie${gallery ? ` « ${gallery.title} »` : ""} est annulée.`,
          PAYMENT_HELD_MESSAGE,
          "Votre commande :",
        ]
      : [
          `Bonjour ${order.buyerName},`,
          expired
            ? `Votre galerie « ${gallery.title} » a expiré avant que votre paiement n'arrive : votre commande de photos de ${amount} est annulée, et rien ne vous a été débité. Contactez le studio pour qu'il la prolonge.`
            : online
              ? `Ce que payait votre commande de photos de ${amount} a changé dans votre galerie « ${gallery.title} » (des photos offertes, la sélection rouverte ou d'autres tarifs) : elle est annulée, et rien ne vous a été débité.`
              : `Votre galerie a été supprimée : votre commande de photos de ${amount} est annulée, et rien ne vous a été débité.`,
          order.method === "transfer"
            ? "Ne faites pas ce virement ; s'il est déjà parti, il vous sera remboursé."
            : "Ne la réglez pas : un paiement qui arriverait encore pour elle vous serait remboursé.",
          online && !expired
            ? "Ce qui reste à payer, s'il en reste, est dans votre galerie :"
            : "Votre commande :",
        ],
    link:
      online && !expired && !held
        ? `${siteUrl()}${clientGalleryPath(galleryId)}`
        : await orderPageUrl(order.id),
    button: online && !expired && !held ? "Voir ma galerie" : "Voir ma commande",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

/** The e-mail `gallery-photo-order-called-off` (orders.id), queued in the order's cancellation. */
export const queuePhotoOrderCalledOffMail = defineMailKind<{ orderId: string }>(
  "gallery-photo-order-called-off",
  { failureKind: "payment", compose: ({ orderId }) => photoOrderCalledOffEmail(orderId) },
);

/**
 * The client's e-mail of an order of photos awaiting her transfer whose deadline came earlier, the owner
 * having brought her gallery's end forward: her new deadline (the order's as it stands when the e-mail
 * leaves), and the card instead while the owner takes it. None once the order no longer awaits it.
 */
export async function photoOrderDeadlineEmail(orderId: string) {
  const [row] = await db()
    .select({ order: orders, galleryId: galleries.id, title: galleries.title })
    .from(orders)
    .innerJoin(galleryPhotoOrders, eq(galleryPhotoOrders.orderId, orders.id))
    .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
    .where(eq(orders.id, orderId));
  if (
    !row ||
    row.order.status !== "awaiting_payment" ||
    row.order.method !== "transfer" ||
    !row.order.payBy
  ) {
    return null;
  }
  const { order, galleryId, title } = row;
  const payBy = row.order.payBy;
  const amount = formatCents(order.amountCents);
  const { identity, legal, payments } = (await readSiteContent()).documents;
  return clientMail({
    to: order.buyerEmail,
    subject: `Votre virement de ${amount} est attendu plus tôt`,
    lines: [
      `Bonjour ${order.buyerName},`,
      `La fin de votre galerie « ${title} » a été avancée : votre virement de ${amount} pour vos photos est désormais attendu avant le ${instantLabelFr(payBy)}, la fin de votre galerie, et non plus à la date donnée lors de votre commande.`,
      "Passé ce délai, la commande est annulée, et un virement qui arriverait ensuite vous serait remboursé.",
      ...(payments.card
        ? [
            `Si votre virement ne peut plus arriver à temps, payez plutôt par carte depuis votre galerie : ${siteUrl()}${clientGalleryPath(galleryId)}`,
          ]
        : []),
      "Le montant, l'IBAN et la référence à indiquer sont sur la page de votre commande :",
    ],
    link: await orderPageUrl(order.id),
    button: "Voir ma commande",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

/** The e-mail `gallery-photo-order-deadline` (orders.id), queued where the gallery's expiry moved. */
export const queuePhotoOrderDeadlineMail = defineMailKind<{ orderId: string }>(
  "gallery-photo-order-deadline",
  { failureKind: "payment", compose: ({ orderId }) => photoOrderDeadlineEmail(orderId) },
);

/**
 * Whether a later order of the same gallery pays the same photos for the same amount: she ordered them
 * again by another method, which called this one off.
 */
export async function replacedByHerOrder(
  order: Pick<typeof orders.$inferSelect, "id" | "createdAt" | "amountCents" | "method">,
  galleryId: string,
) {
  const [own] = await db()
    .select({ photoIds: galleryPhotoOrders.photoIds, allPhotos: galleryPhotoOrders.allPhotos })
    .from(galleryPhotoOrders)
    .where(eq(galleryPhotoOrders.orderId, order.id));
  if (!own) return false;
  const later = await db()
    .select({ photoIds: galleryPhotoOrders.photoIds, allPhotos: galleryPhotoOrders.allPhotos })
    .from(galleryPhotoOrders)
    .innerJoin(orders, eq(orders.id, galleryPhotoOrders.orderId))
    .where(
      and(
        eq(galleryPhotoOrders.galleryId, galleryId),
        gt(orders.createdAt, order.createdAt),
        eq(orders.amountCents, order.amountCents),
        ne(orders.method, order.method),
        inArray(orders.status, ["awaiting_payment", "paid"]),
      ),
    );
  const same = (ids: string[]) =>
    ids.length === own.photoIds.length && ids.every((id) => own.photoIds.includes(id));
  return later.some((other) => other.allPhotos === own.allPhotos && same(other.photoIds));
}

/**
 * Gives back what was paid on an order of photos that delivered nothing (paid once called off, or once
 * its gallery was gone or expired). Run twice, the second finds nothing left to give back.
 */
export async function refundUndeliveredPhotoOrder(orderId: string, expired = false): Promise<void> {
  await refundWhatIsLeft(orderId, expired ? EXPIRED_PHOTO_REFUND_REASON : LATE_PHOTO_REFUND_REASON);
}

/** The queue `gallery-photo-refund`: a payment that delivered nothing, refunded after its commit. */
export const photoOrderRefundJob = defineJob<{ orderId: string; expired?: boolean }>({
  name: "gallery-photo-refund",
  policy: PROVIDER_JOB_POLICY,
  handler: async (jobs) => {
    for (const job of jobs) {
      await refundUndeliveredPhotoOrder(job.data.orderId, job.data.expired ?? false);
    }
  },
});
