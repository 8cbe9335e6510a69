import { eq } from "drizzle-orm";
import { instantLabelFr } from "~/lib/booking/words";
import { formatIban } from "~/lib/payments/iban";
import { formatCents } from "~/lib/prices";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { galleries, galleryPhotoOrders, orders } from "../db/schema";
import { defineMailKind } from "../mail/outbox.server";
import { clientMail, orderPageUrl, transferDetailsOf } from "../payments/emails.server";

/*
 * Her order of extra photos to pay by transfer or at the studio, confirmed by e-mail (decision 0184,
 * amended 2026-12-02): what she ordered, how to pay it (a transfer's amount, deadline, IBAN and reference),
 * and her order's page. Without it the bank details were only on a page she may have closed. A card order
 * has none: the provider's page takes the payment at once, then « Paiement reçu » (or the core's e-mail of
 * an order not paid in time) tells her; one the owner cashes at the studio is paid as it is made.
 */

/** The e-mail of her order of photos awaiting payment; none once it no longer waits (paid, called off). */
export async function photoOrderEmail(orderId: string) {
  const [row] = await db()
    .select({
      order: orders,
      title: galleries.title,
      photoIds: galleryPhotoOrders.photoIds,
      allPhotos: galleryPhotoOrders.allPhotos,
    })
    .from(orders)
    .innerJoin(galleryPhotoOrders, eq(galleryPhotoOrders.orderId, orders.id))
    .innerJoin(galleries, eq(galleries.id, galleryPhotoOrders.galleryId))
    .where(eq(orders.id, orderId));
  // Paid, replaced or called off before it left: the e-mails of those say what stands.
  if (!row || row.order.status !== "awaiting_payment" || row.order.method === "card") return null;
  const { order, title } = row;
  const { identity, legal, payments } = (await readSiteContent()).documents;
  const amount = formatCents(order.amountCents);
  const count = row.photoIds.length;
  const what = row.allPhotos
    ? "toutes les photos de la galerie"
    : `${count} photo${count > 1 ? "s" : ""} supplémentaire${count > 1 ? "s" : ""}`;
  const bank = transferDetailsOf(order.rulesSnapshot) ?? {
    holder: payments.transferHolder,
    iban: payments.transferIban,
  };
  const howToPay =
    order.method === "transfer"
      ? [
          `Pour la régler, faites un virement de ${amount} avant le ${order.payBy ? instantLabelFr(order.payBy) : ""} :`,
          `Titulaire : ${bank.holder}`,
          `IBAN : ${formatIban(bank.iban)}`,
          `Référence à indiquer : ${order.transferReference ?? ""}`,
          "Vos photos sont débloquées dans votre galerie dès réception du virement. Passé ce délai, la commande est annulée.",
        ]
      : [
          `Vous la réglerez au studio (${amount}) : vos photos sont débloquées dans votre galerie dès le paiement reçu.`,
        ];
  return clientMail({
    to: order.buyerEmail,
    subject: `Votre commande de photos : ${amount} à régler ${order.method === "transfer" ? "par virement" : "au studio"}`,
    lines: [
      `Bonjour ${order.buyerName},`,
      `Merci pour votre commande dans votre galerie « ${title} » : ${what}.`,
      ...howToPay,
      "Votre commande, son état et ses documents sont sur sa page :",
    ],
    link: await orderPageUrl(order.id),
    button: "Voir ma commande",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

/** The e-mail `gallery-photo-order` (orders.id), queued in the transaction that makes her order. */
export const queuePhotoOrderMail = defineMailKind<{ orderId: string }>("gallery-photo-order", {
  failureKind: "payment",
  compose: ({ orderId }) => photoOrderEmail(orderId),
});
