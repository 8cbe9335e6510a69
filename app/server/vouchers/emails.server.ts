import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { instantLabelFr } from "~/lib/booking/words";
import { formatIban } from "~/lib/payments/iban";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { voucherDeliveryLine } from "~/lib/vouchers/delivery";
import type { RedeliveryTarget } from "~/lib/vouchers/redelivery";
import { formatCalendarDayFr, type VoucherCover } from "~/lib/vouchers/terms";
import { now } from "../clock.server";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { orders, sessionTypeStudios, vouchers } from "../db/schema";
import { cancelWaitingJobs, type Executor } from "../jobs/queue.server";
import { defineMailKind } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";
import { clientMail, orderPageUrl, siteUrl, transferDetailsOf } from "../payments/emails.server";
import type { VoucherPdfStudio } from "./voucher-pdf.server";

/*
 * A gift voucher's e-mails (decision 0167), queued in the transaction that made or changed its order and
 * written when they leave, from the rows as they then stand: the buyer's order (with how to pay), the
 * voucher itself as a PDF (once: `delivered_at`), and the reminder before it expires. A voucher whose
 * e-mail is given up (`delivery_failed_at`: the recipient's address refused, or never taken) is told to its
 * buyer once, with her order's page, where she corrects the address or takes the voucher herself.
 */

type OrderMailJob = { orderId: string };
type VoucherMailJob = { voucherId: string };

/** A voucher's order and the voucher, as they stand when an e-mail about them is written. */
async function orderAndVoucher(which: SQL) {
  const [row] = await db()
    .select({ order: orders, voucher: vouchers })
    .from(vouchers)
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .where(which);
  return row ?? null;
}

/** The buyer's e-mail when the order is placed: its page, and how to pay by the method chosen. */
export async function voucherOrderEmail(job: OrderMailJob): Promise<OutgoingMail | null> {
  const row = await orderAndVoucher(eq(orders.id, job.orderId));
  if (!row) return null;
  const { order, voucher } = row;
  const { identity, legal, payments } = (await readSiteContent()).documents;
  const bank = transferDetailsOf(order.rulesSnapshot) ?? {
    holder: payments.transferHolder,
    iban: payments.transferIban,
  };
  const link = await orderPageUrl(order.id);
  const amount = formatCents(order.amountCents);
  const what = `un bon cadeau (${voucher.label}) pour ${voucher.recipientName}`;
  const howToPay =
    order.status === "paid"
      ? [`Nous avons bien reçu votre paiement de ${amount}. Merci !`]
      : order.method === "transfer"
        ? [
            `Pour la régler, faites un virement de ${amount} avant le ${order.payBy ? instantLabelFr(order.payBy) : ""} :`,
            `Titulaire : ${bank.holder}`,
            `IBAN : ${formatIban(bank.iban)}`,
            `Référence à indiquer : ${order.transferReference ?? ""}`,
          ]
        : order.method === "studio"
          ? [`Vous la réglerez au studio (${amount}).`]
          : [
              `Son paiement par carte (${amount}) est en cours. S'il n'a pas abouti, vous pouvez le reprendre depuis la page de votre commande.`,
            ];
  const subject = `Votre commande : ${what}`;
  // To whom and when, as she chose: never « vous » for a gift sent to its recipient on a later day.
  const delivery = voucherDeliveryLine(
    { ...voucher, buyerEmail: order.buyerEmail, paid: order.status === "paid" },
    now(),
  );
  const lines = [
    `Bonjour ${order.buyerName},`,
    `Merci pour votre commande : ${what}.`,
    ...howToPay,
    delivery,
    "Votre commande, son état et le bon sont sur sa page :",
  ];
  return clientMail({
    to: order.buyerEmail,
    subject,
    lines,
    link,
    button: "Voir ma commande",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

/** The file name of a voucher's PDF. */
export const voucherPdfFilename = (code: string) => `bon-cadeau-${formatVoucherCode(code)}.pdf`;

/**
 * The studios where a session voucher valid in any studio can be used: those offering its session. Null
 * for an amount (every studio), or a session offered nowhere any more (every studio rather than none: the
 * holder calls one).
 */
async function studiosOffering(voucher: typeof vouchers.$inferSelect): Promise<Set<string> | null> {
  if (voucher.kind !== "session" || voucher.studioId !== null || !voucher.sessionTypeId) {
    return null;
  }
  const rows = await db()
    .select({ studioId: sessionTypeStudios.studioId })
    .from(sessionTypeStudios)
    .where(eq(sessionTypeStudios.sessionTypeId, voucher.sessionTypeId));
  return rows.length > 0 ? new Set(rows.map((row) => row.studioId)) : null;
}

/**
 * What a voucher gives, as its PDF and its order's page say it: its session at its studio (any, when it
 * names none), or its amount.
 */
export function voucherCoverOf(
  voucher: Pick<typeof vouchers.$inferSelect, "kind" | "valueCents" | "label" | "studioId">,
  studios: ReadonlyArray<{ id: string; data: { name: string } }>,
): VoucherCover {
  if (voucher.kind === "amount") return { kind: "amount", cents: voucher.valueCents };
  const studio = voucher.studioId ? studios.find((one) => one.id === voucher.studioId) : undefined;
  return { kind: "session", sessionName: voucher.label, studioName: studio?.data.name ?? null };
}

/**
 * The PDF of an issued voucher (the delivery's attachment, the order's page's download): its studio, or
 * when it is valid in any, every studio offering its session (every studio for an amount).
 */
export async function voucherPdfOf(voucher: typeof vouchers.$inferSelect): Promise<Uint8Array> {
  if (!voucher.code || !voucher.expiresOn) throw new Error("Ce bon n'est pas encore émis.");
  const content = await readSiteContent();
  const offering = await studiosOffering(voucher);
  const studios = content.studios.filter((studio) =>
    voucher.studioId !== null ? studio.id === voucher.studioId : (offering?.has(studio.id) ?? true),
  );
  const pdfStudios: VoucherPdfStudio[] = studios.map((studio) => ({
    name: studio.data.name,
    address: studio.data.address,
    phone: studio.data.phone,
  }));
  const cover = voucherCoverOf(voucher, content.studios);
  const site = siteUrl();
  // Loaded on first use, as the invoices' PDF (decision 0190).
  const { renderVoucherPdf } = await import("./voucher-pdf.server");
  return renderVoucherPdf({
    brandName: content.documents.identity.brand,
    recipientName: voucher.recipientName,
    buyerName: voucher.buyerName,
    message: voucher.message,
    cover,
    code: voucher.code,
    expiryDay: voucher.expiresOn,
    studios: pdfStudios,
    siteAddress: new URL(site).host,
    link: `${site}/bons-cadeaux?code=${voucher.code}`,
  });
}

/** The voucher as a PDF, to the buyer or the recipient; nothing once delivered or no longer active. */
export async function voucherDeliveryEmail(job: VoucherMailJob): Promise<OutgoingMail | null> {
  const row = await orderAndVoucher(eq(vouchers.id, job.voucherId));
  if (!row) return null;
  const { order, voucher } = row;
  if (voucher.status !== "active" || voucher.deliveredAt || !voucher.code || !voucher.expiresOn) {
    return null;
  }
  const { identity, legal } = (await readSiteContent()).documents;
  const pdf = await voucherPdfOf(voucher);
  const site = siteUrl();
  const toRecipient = voucher.sendTo === "recipient" ? voucher.recipientEmail : null;
  const greeting = toRecipient ? voucher.recipientName : order.buyerName;
  const lines = toRecipient
    ? [
        `Bonjour ${greeting},`,
        `${voucher.buyerName} vous offre un bon cadeau : ${voucher.label}.`,
        `Vous le trouverez en pièce jointe. Son code : ${formatVoucherCode(voucher.code)}, valable jusqu'au ${formatCalendarDayFr(voucher.expiresOn)}.`,
        voucher.kind === "session"
          ? "Pour l'utiliser, réservez votre séance sur notre site en indiquant ce code."
          : "Présentez-le au studio : il s'utilise en une ou plusieurs fois.",
      ]
    : [
        `Bonjour ${greeting},`,
        `Voici le bon cadeau pour ${voucher.recipientName} (${voucher.label}), en pièce jointe, prêt à imprimer ou à transmettre.`,
        `Son code : ${formatVoucherCode(voucher.code)}, valable jusqu'au ${formatCalendarDayFr(voucher.expiresOn)}.`,
      ];
  const subject = toRecipient
    ? `${voucher.buyerName} vous offre un bon cadeau`
    : `Le bon cadeau pour ${voucher.recipientName}`;
  return {
    ...clientMail({
      to: toRecipient ?? order.buyerEmail,
      subject,
      lines,
      link: site,
      button: identity.brand,
      footer: "pour un bon cadeau",
      identity,
      legal,
    }),
    attachments: [
      {
        filename: voucherPdfFilename(voucher.code),
        contentType: "application/pdf",
        content: Buffer.from(pdf),
      },
    ],
  };
}

/** The reminder 30 days before a voucher's last day, to whoever holds it; nothing once it has served. */
export async function voucherReminderEmail(job: VoucherMailJob): Promise<OutgoingMail | null> {
  const row = await orderAndVoucher(eq(vouchers.id, job.voucherId));
  if (!row) return null;
  const { order, voucher } = row;
  if (voucher.status !== "active" || !voucher.code || !voucher.expiresOn) return null;
  const { identity, legal } = (await readSiteContent()).documents;
  const toRecipient = voucher.sendTo === "recipient" ? voucher.recipientEmail : null;
  const subject = `Votre bon cadeau expire le ${formatCalendarDayFr(voucher.expiresOn)}`;
  const lines = [
    `Bonjour ${toRecipient ? voucher.recipientName : order.buyerName},`,
    `Le bon cadeau ${formatVoucherCode(voucher.code)} (${voucher.label}${voucher.kind === "amount" ? `, reste ${formatCents(voucher.balanceCents)}` : ""}) est valable jusqu'au ${formatCalendarDayFr(voucher.expiresOn)}.`,
    "Pensez à l'utiliser d'ici là. Un empêchement ? Répondez à ce message avant cette date : le studio peut le prolonger.",
  ];
  return clientMail({
    to: toRecipient ?? order.buyerEmail,
    subject,
    lines,
    link: siteUrl(),
    button: null,
    footer: "pour un bon cadeau",
    identity,
    legal,
  });
}

export const queueVoucherOrderMail = defineMailKind<OrderMailJob>("voucher-order", {
  failureKind: "payment",
  compose: voucherOrderEmail,
});

export const queueVoucherDeliveryMail = defineMailKind<VoucherMailJob>("voucher-delivery", {
  failureKind: "payment",
  compose: voucherDeliveryEmail,
  // Delivered once: a job run again after the server accepted it finds delivered_at and writes nothing.
  afterDelivery: async ({ voucherId }) => {
    await db()
      .update(vouchers)
      .set({ deliveredAt: now(), updatedAt: now() })
      .where(and(eq(vouchers.id, voucherId), isNull(vouchers.deliveredAt)));
  },
  // Given up (an address refused, or never taken): its buyer told once, her page offering to correct it.
  afterGivenUp: ({ voucherId }, mail) => markVoucherUndelivered(voucherId, mail.to),
});

/**
 * Cancels, inside `tx`, the voucher's delivery still waiting for its day (a gift to be sent on the 24th):
 * a voucher cancelled before it will not be sent, and the order's history says « non envoyé » at once
 * rather than « à envoyer » until its day.
 */
export function cancelWaitingVoucherDelivery(tx: Executor, voucherId: string): Promise<number> {
  return cancelWaitingJobs("mail", { kind: queueVoucherDeliveryMail.kind, voucherId }, tx);
}

/**
 * The buyer's e-mail when the voucher's could not be delivered to the recipient's address: which address,
 * and her order's page to correct it; nothing once corrected, delivered or no longer active.
 */
export async function voucherUndeliveredEmail(job: VoucherMailJob): Promise<OutgoingMail | null> {
  const row = await orderAndVoucher(eq(vouchers.id, job.voucherId));
  if (!row) return null;
  const { order, voucher } = row;
  if (voucher.status !== "active" || voucher.deliveredAt || !voucher.deliveryFailedTo) return null;
  const { identity, legal } = (await readSiteContent()).documents;
  return clientMail({
    to: order.buyerEmail,
    subject: `Le bon cadeau pour ${voucher.recipientName} n'a pas pu être envoyé`,
    lines: [
      `Bonjour ${order.buyerName},`,
      `Le bon cadeau que vous offrez à ${voucher.recipientName} (${voucher.label}) n'a pas pu lui être envoyé à l'adresse ${voucher.deliveryFailedTo} : sa messagerie l'a refusée, ou n'a pas répondu.`,
      "Une faute de frappe, peut-être ? Sur la page de votre commande, corrigez l'adresse pour le lui envoyer à nouveau, ou recevez-le vous-même pour le lui transmettre :",
    ],
    link: await orderPageUrl(order.id),
    button: "Corriger l'adresse",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

export const queueVoucherUndeliveredMail = defineMailKind<VoucherMailJob>("voucher-undelivered", {
  failureKind: "payment",
  compose: voucherUndeliveredEmail,
});

/**
 * Notes that a voucher's e-mail was given up for `address` and, when it was for its recipient, queues its
 * buyer's e-mail: in one transaction, by compare-and-set (a job run again, or on another server, finds it
 * noted and queues nothing).
 */
async function markVoucherUndelivered(voucherId: string, address: string): Promise<void> {
  await db().transaction(async (tx) => {
    const [marked] = await tx
      .update(vouchers)
      .set({ deliveryFailedAt: now(), deliveryFailedTo: address, updatedAt: now() })
      .where(
        and(
          eq(vouchers.id, voucherId),
          isNull(vouchers.deliveredAt),
          isNull(vouchers.deliveryFailedAt),
        ),
      )
      .returning({ sendTo: vouchers.sendTo });
    if (marked?.sendTo === "recipient") await queueVoucherUndeliveredMail({ voucherId }, { tx });
  });
}

/**
 * The buyer corrects where her undelivered voucher goes (the recipient's address, or her own), and it is
 * sent again at once: by compare-and-set on its failure, in the transaction that queues it, so that a form
 * posted twice sends it once (the second finds nothing failed and does nothing). Whether it was sent again.
 */
export async function redeliverVoucher(
  orderId: string,
  target: RedeliveryTarget,
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [changed] = await tx
      .update(vouchers)
      .set({
        sendTo: target.sendTo,
        ...(target.sendTo === "recipient" ? { recipientEmail: target.email } : {}),
        deliveryFailedAt: null,
        deliveryFailedTo: null,
        updatedAt: now(),
      })
      .where(
        and(
          eq(vouchers.orderId, orderId),
          eq(vouchers.status, "active"),
          isNull(vouchers.deliveredAt),
          isNotNull(vouchers.deliveryFailedAt),
        ),
      )
      .returning({ id: vouchers.id });
    if (!changed) return false;
    await queueVoucherDeliveryMail({ voucherId: changed.id }, { tx });
    return true;
  });
}

/**
 * The owner corrects the address her voucher's buyer gave (a typo the buyer told her of): the order takes
 * it and its e-mail (its page, how to pay) leaves for it, and a voucher that was to go to the buyer and
 * was given up at the old address is sent again at once. In one transaction, by compare-and-set on the
 * address, so that the form posted twice sends once (the second finds it the order's already: `unchanged`).
 * Only an order waiting for its payment or paid: null for another.
 */
export async function correctVoucherBuyerEmail(
  orderId: string,
  email: string,
): Promise<{ outcome: "corrected"; voucherSent: boolean } | { outcome: "unchanged" } | null> {
  return db().transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ buyerEmail: email, updatedAt: now() })
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.kind, "voucher"),
          inArray(orders.status, ["awaiting_payment", "paid"]),
          sql`lower(${orders.buyerEmail}) <> lower(${email})`,
        ),
      )
      .returning({ id: orders.id });
    if (!order) {
      const [same] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.kind, "voucher"),
            inArray(orders.status, ["awaiting_payment", "paid"]),
            sql`lower(${orders.buyerEmail}) = lower(${email})`,
          ),
        );
      return same ? { outcome: "unchanged" } : null;
    }
    await queueVoucherOrderMail({ orderId }, { tx });
    const [voucher] = await tx
      .update(vouchers)
      .set({ deliveryFailedAt: null, deliveryFailedTo: null, updatedAt: now() })
      .where(
        and(
          eq(vouchers.orderId, orderId),
          eq(vouchers.sendTo, "buyer"),
          eq(vouchers.status, "active"),
          isNull(vouchers.deliveredAt),
          isNotNull(vouchers.deliveryFailedAt),
        ),
      )
      .returning({ id: vouchers.id });
    if (voucher) await queueVoucherDeliveryMail({ voucherId: voucher.id }, { tx });
    return { outcome: "corrected", voucherSent: voucher !== undefined };
  });
}

export const queueVoucherReminderMail = defineMailKind<VoucherMailJob>("voucher-reminder", {
  failureKind: "payment",
  compose: voucherReminderEmail,
  // Given up at its recipient's address (her mailbox closed since): her buyer told once, as for the
  // delivery, so that the voucher's value is not lost unnoticed. Not to a buyer whose own address failed.
  afterGivenUp: async ({ voucherId }, mail) => {
    const row = await orderAndVoucher(eq(vouchers.id, voucherId));
    const voucher = row?.voucher;
    if (voucher?.sendTo !== "recipient" || !voucher.expiresOn) return;
    if (voucher.recipientEmail?.toLowerCase() !== mail.to.toLowerCase()) return;
    // Once per last day (a job run again, or on another server, queues nothing; an extended voucher's
    // reminder refused again is told again).
    await queueVoucherReminderUndeliveredMail(
      { voucherId, to: mail.to },
      {
        once: `voucher-reminder-undelivered:${voucherId}:${voucher.expiresOn}`,
        onceSeconds: 60 * 24 * 60 * 60,
      },
    );
  },
});

/**
 * The buyer's e-mail when the reminder before expiry could not reach the recipient at `to`: the voucher's
 * last day, and her order's page (its PDF); nothing once it has served, or ended.
 */
export async function voucherReminderUndeliveredEmail(
  job: VoucherMailJob & { to: string },
): Promise<OutgoingMail | null> {
  const row = await orderAndVoucher(eq(vouchers.id, job.voucherId));
  if (!row) return null;
  const { order, voucher } = row;
  if (voucher.status !== "active" || !voucher.code || !voucher.expiresOn) return null;
  const { identity, legal } = (await readSiteContent()).documents;
  const lastDay = formatCalendarDayFr(voucher.expiresOn);
  return clientMail({
    to: order.buyerEmail,
    subject: `Le bon cadeau pour ${voucher.recipientName} expire le ${lastDay} : son rappel n'a pas pu être envoyé`,
    lines: [
      `Bonjour ${order.buyerName},`,
      `Le rappel envoyé à ${voucher.recipientName} (${job.to}) avant la fin de son bon cadeau (${voucher.label}${voucher.kind === "amount" ? `, reste ${formatCents(voucher.balanceCents)}` : ""}) n'a pas pu lui parvenir : sa messagerie l'a refusé, ou n'a pas répondu.`,
      `Le bon ${formatVoucherCode(voucher.code)} est valable jusqu'au ${lastDay}. Pensez à le lui rappeler d'ici là. Un empêchement ? Répondez à ce message avant cette date : le studio peut le prolonger.`,
      "Le bon est aussi sur la page de votre commande, prêt à lui transmettre :",
    ],
    link: await orderPageUrl(order.id),
    button: "Voir ma commande",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

export const queueVoucherReminderUndeliveredMail = defineMailKind<VoucherMailJob & { to: string }>(
  "voucher-reminder-undelivered",
  { failureKind: "payment", compose: voucherReminderUndeliveredEmail },
);
