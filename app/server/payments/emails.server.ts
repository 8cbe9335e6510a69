import { and, eq, inArray } from "drizzle-orm";
import type { Legal } from "~/content/schemas";
import { formatLongDateTimeFr } from "~/lib/dates";
import { sellerLine } from "~/lib/legal/seller";
import {
  ORDER_STATUS_LABELS,
  PAYMENT_HELD_MESSAGE,
  PAYMENT_METHOD_LABELS,
} from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { paymentHeldFor } from "./held-attempts.server";
import { invoices, orders, paymentAttempts, refunds } from "../db/schema";
import { env } from "../env.server";
import { emailButton, emailLayout, emailParagraphs, escapeHtml } from "../mail/layout.server";
import { defineMailKind } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";
import { log } from "../logger.server";
import { recordKeysInForceRefused } from "./card.server";
import { orderTokenFor } from "./order-token.server";
import { ProviderUnavailableError } from "./provider.server";

/*
 * The payments core's own e-mails (decision 0162), queued in the transaction that changed the order (so
 * one change, one e-mail; none when it rolls back) and written when they leave, from the rows as they then
 * stand. What a kind of order sends of its own (a voucher's PDF) is its kind's.
 */

/**
 * The buyer's: the payment received, the order released unpaid, a payment whose total differed given
 * back (`returned`, decision 0172: its attempt named), or a refund done (`refunded`: its credit note).
 */
type BuyerMailJob = {
  orderId: string;
  event: "paid" | "expired" | "returned" | "refunded";
  attemptId?: string;
  /** A refund done (`refunded`): what went back, and its credit note's link. */
  refundId?: string;
};
/**
 * The owner's: what needs her. A payment held, paid late or paid twice; a refund that failed (no money
 * left: she refunds again or gives it back another way, decision 0171); a refund she made in Stripe's
 * dashboard, recorded by the site (decision 0194); money the buyer is owed back that only she can give
 * (`refund_to_make`: paid by transfer or at the studio, refunded on the buyer's own demand, `why` saying
 * what happened; decision 0167); the card provider refusing the site's keys (no card payment works until
 * she enters them again, decision 0163).
 */
export type OwnerMailJob =
  | { orderId: string; attemptId: string; event: "held" | "late" | "duplicate" }
  | { orderId: string; refundId: string; event: "refund_failed" }
  | { orderId: string; refundId: string; event: "refund_outside" }
  | { orderId: string; refundIds: string[]; why: string; event: "refund_to_make" }
  | { event: "keys_refused" };

/** The site's address without its final slash, for the links e-mails carry. */
export const siteUrl = () => env().SITE_URL.replace(/\/$/, "");

/** The bank details a buyer was given when ordering (kept in the order's rules, decision 0167). */
export type TransferDetails = { holder: string; iban: string };
export const transferDetailsOf = (snapshot: Record<string, unknown>): TransferDetails | null => {
  const transfer = snapshot.transfer as Partial<TransferDetails> | undefined;
  return transfer?.holder && transfer.iban
    ? { holder: transfer.holder, iban: transfer.iban }
    : null;
};

/** The buyer's page of an order. */
export async function orderPageUrl(orderId: string): Promise<string> {
  return `${siteUrl()}/commande/${await orderTokenFor(orderId)}`;
}

/**
 * An e-mail to a client of the shop (the buyer, or the voucher's recipient): its lines as text and as
 * paragraphs, a button to `link` (shown as the text's last line), answered to the studio.
 */
export function clientMail({
  to,
  subject,
  lines,
  link,
  button,
  footer,
  identity,
  legal,
}: {
  to: string;
  subject: string;
  lines: string[];
  link: string;
  /** The button's words; none: no button. */
  button: string | null;
  footer: string;
  identity: { brand: string; email: string };
  /** The seller, named under every client's e-mail (decision 0176). */
  legal: Legal;
}): OutgoingMail {
  return {
    to,
    subject,
    text: [...lines, link, `— ${sellerLine(legal)}`].join("\n\n"),
    html: emailLayout({
      title: subject,
      brand: identity.brand,
      preheader: lines[1] ?? subject,
      body: `${emailParagraphs(lines)}${button === null ? "" : emailButton(link, button)}`,
      footer: `Message envoyé par ${escapeHtml(identity.brand)} ${footer}.<br>${escapeHtml(sellerLine(legal))}`,
    }),
    replyTo: { name: identity.brand, address: identity.email },
  };
}

export async function buyerPaymentEmail(job: BuyerMailJob): Promise<OutgoingMail | null> {
  const [order] = await db().select().from(orders).where(eq(orders.id, job.orderId));
  if (!order) return null;
  // Written when it leaves: an order paid in the meantime is not told it expired.
  if (job.event === "expired" && order.status !== "expired") return null;
  const { identity, legal } = (await readSiteContent()).documents;
  const link = await orderPageUrl(order.id);
  const amount = formatCents(order.amountCents);
  if (job.event === "returned") {
    const [attempt] = await db()
      .select({ amountCents: paymentAttempts.amountCents })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, job.attemptId ?? ""));
    if (!attempt) return null;
    const taken = formatCents(attempt.amountCents);
    return clientMail({
      to: order.buyerEmail,
      subject: `Remboursement de votre paiement de ${taken}`,
      lines: [
        `Bonjour ${order.buyerName},`,
        `Le montant payé (${taken}) ne correspondait pas à votre commande de ${amount} : nous vous le remboursons en entier, sur la carte utilisée. Il apparaîtra sur votre relevé d'ici 5 à 10 jours.`,
        order.status === "awaiting_payment"
          ? "Votre commande n'est pas réglée : vous pouvez la payer de nouveau depuis sa page."
          : "Votre commande et son état sont sur sa page :",
      ],
      link,
      button: "Voir ma commande",
      footer: "au sujet de votre commande",
      identity,
      legal,
    });
  }
  if (job.event === "refunded") {
    return job.refundId ? refundDoneEmail(order, job.refundId, link) : null;
  }
  // Released while its card payment, taken for another total, waits for the owner (decision 0172): the
  // money came, and is neither lost nor to be paid again.
  const held = job.event === "expired" && (await paymentHeldFor(order.id));
  const subject =
    job.event === "paid"
      ? `Paiement reçu : ${amount}`
      : held
        ? "Votre paiement est en cours de vérification"
        : "Votre commande n'a pas été réglée à temps";
  const lines =
    job.event === "paid"
      ? [
          `Bonjour ${order.buyerName},`,
          `Nous avons bien reçu votre paiement de ${amount} (${PAYMENT_METHOD_LABELS[order.method].toLowerCase()}). Merci !`,
          "Votre commande, son état et ses documents sont sur sa page :",
        ]
      : held
        ? [`Bonjour ${order.buyerName},`, PAYMENT_HELD_MESSAGE, "Sa page :"]
        : [
            `Bonjour ${order.buyerName},`,
            `Le paiement de votre commande de ${amount} ne nous est pas parvenu avant la date limite : elle est annulée.`,
            "Si vous avez payé entre-temps, répondez à ce message : nous la retrouverons.",
            "Sa page :",
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

/** A refund done: how much, how it comes back, why, and its credit note (« avoir ») to download. */
async function refundDoneEmail(
  order: typeof orders.$inferSelect,
  refundId: string,
  link: string,
): Promise<OutgoingMail | null> {
  const [refund] = await db().select().from(refunds).where(eq(refunds.id, refundId));
  if (!refund || (refund.status !== "succeeded" && refund.status !== "refunded_offline")) {
    return null;
  }
  const [note] = await db()
    .select({ number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.refundId, refund.id), eq(invoices.kind, "credit_note")));
  const { identity, legal } = (await readSiteContent()).documents;
  const amount = formatCents(refund.amountCents);
  return clientMail({
    to: order.buyerEmail,
    subject: `Remboursement effectué : ${amount}`,
    lines: [
      `Bonjour ${order.buyerName},`,
      refund.status === "succeeded"
        ? `Nous vous avons remboursé ${amount} sur la carte utilisée : la somme apparaîtra sur votre relevé d'ici 5 à 10 jours.`
        : `Le studio vous a remboursé ${amount}.`,
      `Motif : ${refund.reason}.`,
      ...(note ? [`Avoir ${note.number} : ${link}/facture/${note.number}.pdf`] : []),
      "Votre commande et ses documents sont sur sa page :",
    ],
    link,
    button: "Voir ma commande",
    footer: "au sujet de votre commande",
    identity,
    legal,
  });
}

const OWNER_SUBJECTS = {
  held: "Paiement à vérifier : le montant reçu diffère de la commande",
  late: "Paiement reçu après l'expiration de la commande",
  duplicate: "Paiement en double : à rembourser",
};

/**
 * An e-mail to the owner about a payment: its lines, then the admin page where she acts (`link`, its
 * button's `label`); replying writes to the buyer when there is one.
 */
function ownerMail(input: {
  identity: { email: string; brand: string };
  subject: string;
  lines: string[];
  link: { href: string; label: string; named: string };
  buyer?: { name: string; address: string };
}): OutgoingMail {
  const { identity, subject, lines, link } = input;
  return {
    to: identity.email,
    subject,
    text: [...lines, `${link.named} : ${link.href}`].join("\n\n"),
    html: emailLayout({
      title: subject,
      brand: identity.brand,
      preheader: lines[0] ?? subject,
      body: `${emailParagraphs(lines)}${emailButton(link.href, link.label)}`,
      footer: `Message envoyé par le site ${escapeHtml(identity.brand)} quand un paiement demande votre attention.`,
    }),
    ...(input.buyer ? { replyTo: input.buyer } : {}),
  };
}

/** An e-mail to the owner about an order: its admin page linked, a reply written to its buyer. */
const ownerOrderMail = (
  identity: { email: string; brand: string },
  subject: string,
  lines: string[],
  order: { id: string; buyerName: string; buyerEmail: string },
) =>
  ownerMail({
    identity,
    subject,
    lines,
    link: {
      href: `${siteUrl()}/admin/ventes/${order.id}`,
      label: "Voir la commande",
      named: "La commande",
    },
    buyer: { name: order.buyerName, address: order.buyerEmail },
  });

export async function ownerPaymentEmail(job: OwnerMailJob): Promise<OutgoingMail | null> {
  if (job.event === "keys_refused") return keysRefusedEmail();
  if (job.event === "refund_failed") return refundFailedEmail(job.orderId, job.refundId);
  if (job.event === "refund_outside") return outsideRefundEmail(job.orderId, job.refundId);
  if (job.event === "refund_to_make") return refundToMakeEmail(job);
  const [row] = await db()
    .select({ order: orders, attempt: paymentAttempts })
    .from(paymentAttempts)
    .innerJoin(orders, eq(orders.id, paymentAttempts.orderId))
    .where(eq(paymentAttempts.id, job.attemptId));
  if (!row) return null;
  const { order, attempt } = row;
  const { identity } = (await readSiteContent()).documents;
  const subject = `${OWNER_SUBJECTS[job.event]} (${formatCents(order.amountCents)})`;
  const lines = [
    `Commande du ${formatLongDateTimeFr(order.createdAt)} : ${formatCents(order.amountCents)}, ${ORDER_STATUS_LABELS[order.status].toLowerCase()}.`,
    `Acheteur : ${[order.buyerName, order.buyerEmail, order.buyerPhone].filter(Boolean).join(" · ")}`,
    ...(job.event === "held"
      ? [
          `Le prestataire de paiement annonce : ${attempt.heldReason ?? "un montant différent"}. Rien n'a été appliqué : sur la page de la commande, acceptez ce paiement tel quel ou remboursez-le au client.`,
        ]
      : job.event === "late"
        ? [
            "Le paiement est arrivé après l'expiration de la commande. Il a été appliqué (l'argent est reçu) : la commande est payée.",
          ]
        : [
            "Cette commande était déjà payée par un autre paiement. Ce second paiement est à rembourser à l'acheteur.",
          ]),
  ];
  return ownerOrderMail(identity, subject, lines, order);
}

/** A refund that failed: which order, how much, why, and what she can do from the order's page. */
async function refundFailedEmail(orderId: string, refundId: string): Promise<OutgoingMail | null> {
  const [row] = await db()
    .select({ order: orders, refund: refunds })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.id, refundId), eq(refunds.orderId, orderId)));
  // Written when it leaves, from the row: a refund that is no longer failed needs nothing.
  if (!row || row.refund.status !== "failed") return null;
  const { order, refund } = row;
  const { identity } = (await readSiteContent()).documents;
  const amount = formatCents(refund.amountCents);
  const subject = `Remboursement échoué : ${amount} pour ${order.buyerName}`;
  const lines = [
    `Le remboursement de ${amount} demandé le ${formatLongDateTimeFr(refund.createdAt)}${refund.reason ? ` (${refund.reason})` : ""} n'a pas été fait.`,
    `Raison : ${refund.error ?? "le prestataire de paiement l'a refusé."}`,
    `Commande du ${formatLongDateTimeFr(order.createdAt)} : ${formatCents(order.amountCents)}. Acheteur : ${[order.buyerName, order.buyerEmail, order.buyerPhone].filter(Boolean).join(" · ")}`,
    "Aucun argent n'est parti pour ce remboursement, et ce montant peut de nouveau être remboursé. Que faire, sur la page de la commande : si le client n'a pas déjà reçu cet argent, relancez le remboursement avec « Rembourser » ; s'il échoue encore, rendez-lui l'argent autrement (par exemple par virement).",
  ];
  return ownerOrderMail(identity, subject, lines, order);
}

/**
 * A refund she made in Stripe's dashboard, recorded by the site once Stripe confirmed it (decision 0194):
 * that it was, and what followed from it, as a refund from the order's page would have done.
 */
async function outsideRefundEmail(orderId: string, refundId: string): Promise<OutgoingMail | null> {
  const [row] = await db()
    .select({ order: orders, refund: refunds })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.id, refundId), eq(refunds.orderId, orderId)));
  // Queued when it succeeded (completeRefund): a row that says otherwise needs nothing.
  if (!row || row.refund.status !== "succeeded") return null;
  const { order, refund } = row;
  const { identity } = (await readSiteContent()).documents;
  const amount = formatCents(refund.amountCents);
  const subject = `Remboursement fait dans Stripe enregistré : ${amount} pour ${order.buyerName}`;
  const lines = [
    `Un remboursement de ${amount} a été fait depuis votre tableau de bord Stripe sur la commande du ${formatLongDateTimeFr(order.createdAt)} (${formatCents(order.amountCents)}). Le site l'a enregistré comme s'il avait été demandé depuis la page de la commande.`,
    `Acheteur : ${[order.buyerName, order.buyerEmail, order.buyerPhone].filter(Boolean).join(" · ")}`,
    "L'avoir a été émis et envoyé au client avec la confirmation du remboursement ; le remboursement figure dans le journal des encaissements et dans les exports comptables.",
    "Ce que la commande vendait suit ce remboursement : un bon cadeau remboursé en entier est annulé (en partie, son solde baisse d'autant) et des photos remboursées en entier sont de nouveau verrouillées.",
  ];
  return ownerOrderMail(identity, subject, lines, order);
}

/**
 * Money to give back by hand that the owner did not ask to refund herself (decision 0167: a buyer's
 * withdrawal from an order paid by transfer or at the studio): how much, to whom, why, and « Remboursé »
 * once done. Written when it leaves, from the rows: nothing once she has given it all back.
 */
async function refundToMakeEmail(
  job: Extract<OwnerMailJob, { event: "refund_to_make" }>,
): Promise<OutgoingMail | null> {
  if (job.refundIds.length === 0) return null;
  const rows = await db()
    .select({ order: orders, refund: refunds })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(
      and(
        inArray(refunds.id, job.refundIds),
        eq(refunds.orderId, job.orderId),
        eq(refunds.status, "to_refund_offline"),
      ),
    );
  const order = rows[0]?.order;
  if (!order) return null;
  const { identity } = (await readSiteContent()).documents;
  const amount = formatCents(rows.reduce((sum, { refund }) => sum + refund.amountCents, 0));
  const subject = `Remboursement à faire : ${amount} à ${order.buyerName}`;
  const lines = [
    `${order.buyerName} ${job.why}`,
    `Sa commande du ${formatLongDateTimeFr(order.createdAt)} (${formatCents(order.amountCents)}) a été payée hors du site : c'est à vous de lui rendre ${amount} (par virement, en espèces…). Une fois fait, cliquez sur « Remboursé » sur la page de la commande : il reçoit alors la confirmation du remboursement et son avoir.`,
    `Acheteur : ${[order.buyerName, order.buyerEmail, order.buyerPhone].filter(Boolean).join(" · ")}`,
  ];
  return ownerOrderMail(identity, subject, lines, order);
}

/** Stripe refuses the site's keys: what it means for her buyers, and where to enter them again. */
async function keysRefusedEmail(): Promise<OutgoingMail> {
  const { identity } = (await readSiteContent()).documents;
  const link = `${siteUrl()}/admin/reglages/paiement`;
  const subject = "Paiement par carte impossible : Stripe refuse les clés du site";
  const lines = [
    "Stripe refuse la clé secrète enregistrée sur le site : elle a sans doute été révoquée ou remplacée (« roll ») depuis votre tableau de bord Stripe. Tant que c'est le cas, vos clients ne peuvent pas payer par carte et les remboursements par carte ne partent pas.",
    env().STRIPE_SECRET_KEY
      ? "Les clés sont dans la configuration du serveur (STRIPE_SECRET_KEY) : demandez à la personne qui s'occupe de l'hébergement du site de la remplacer par celle de votre tableau de bord Stripe (Développeurs › Clés API)."
      : "Que faire : copiez vos clés depuis votre tableau de bord Stripe (Développeurs › Clés API), puis saisissez-les de nouveau sur le site, dans « Paiements », le menu de l'administration.",
    "Ce message est envoyé au plus une fois par jour tant que Stripe refuse les clés.",
  ];
  return ownerMail({
    identity,
    subject,
    lines,
    link: { href: link, label: "Ouvrir « Paiements »", named: "Paiements" },
  });
}

export const queueBuyerPaymentMail = defineMailKind<BuyerMailJob>("payment-buyer", {
  failureKind: "payment",
  compose: buyerPaymentEmail,
});

export const queueOwnerPaymentMail = defineMailKind<OwnerMailJob>("payment-owner", {
  failureKind: "payment",
  compose: ownerPaymentEmail,
});

/**
 * The card provider refused the site's keys (a call failed with `keysRefused`): the owner is told, at
 * most once a day, to enter them again, and her settings page says so from now on while those keys are in
 * force. Never throws: its caller is already answering a failure.
 */
export async function tellOwnerIfKeysRefused(error: unknown): Promise<void> {
  if (!(error instanceof ProviderUnavailableError) || !error.keysRefused) return;
  try {
    // The settings page says it too, while those keys are in force.
    await recordKeysInForceRefused();
  } catch (recordError) {
    log.error("keys_refused_not_recorded", { error: recordError });
  }
  try {
    await queueOwnerPaymentMail(
      { event: "keys_refused" },
      { once: "payment-keys-refused", onceSeconds: 24 * 3_600 },
    );
  } catch (queueError) {
    log.error("keys_refused_mail_not_queued", { error: queueError });
  }
}
