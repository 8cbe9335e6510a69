import { and, desc, eq, inArray } from "drizzle-orm";
import { bookingStateLabel, isActive, isCalledOff } from "~/lib/booking/model";
import { BOOKING_EVENT_STATUS, icsCalendar } from "~/lib/booking/ics";
import { manageInvoicePath, managePath } from "~/lib/booking/urls";
import { durationLabelFr, instantLabelFr, sessionOfTypeFr } from "~/lib/booking/words";
import type { StudioData } from "~/content/schemas";
import { studioDataSchema } from "~/content/schemas";
import { sessionOffer, type SessionOffer } from "~/lib/booking/offer";
import { sellerLine } from "~/lib/legal/seller";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { bookingEvents, bookings, orders, sessionTypes, studios } from "../db/schema";
import { env } from "../env.server";
import type { Executor } from "../jobs/queue.server";
import { emailButton, emailLayout, escapeHtml } from "../mail/layout.server";
import { defineMailKind } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";
import { manageTokenFor } from "./manage-token.server";
import {
  givenBackVoucherLine,
  paidByVoucherLine,
  voucherLineOfOwner,
  voucherUseOfBooking,
  type VoucherPayment,
} from "./vouchers.server";
import { nextFreeTimes } from "./visitor.server";
import {
  DEPOSIT_MEANINGS,
  DEPOSIT_NATURE_LABELS,
  depositAfterCancel,
  depositOnClientCancelForOwner,
  depositWayChangedLine,
  type DepositRule,
} from "~/lib/booking/deposit";
import { formatCents } from "~/lib/prices";
import { invoicesOfOrder } from "../invoices/orders.server";
import { invoiceOfDepositUse } from "../invoices/voucher-uses.server";
import { orderPageUrl, transferDetailsOf } from "../payments/emails.server";
import { paymentHeldFor } from "../payments/held-attempts.server";
import { depositAwaitedOf } from "./state-reading.server";
import { receivedByCardOnly } from "../payments/orders.server";
import { formatIban } from "~/lib/payments/iban";
import { PAYMENT_HELD_MESSAGE, type PaymentMethod } from "~/lib/payments/model";

/*
 * The e-mails of online booking (decision 0115), queued by the booking functions inside their own
 * transactions (bookings.server.ts): none is lost when a booking commits, none leaves when it rolls back.
 * Like every e-mail of the outbox, a job carries ids, and the e-mail is written when it leaves, from the
 * booking as it then stands: its `.ics` has the current SEQUENCE and state, and the client's personal link
 * is derived again from the booking's id (manageTokenFor), never stored nor queued.
 */

/** What happened to a booking, as the e-mails tell it. */
export type BookingMailEvent =
  | "booked"
  | "requested"
  | "accepted"
  | "declined"
  | "expired"
  | "moved"
  | "cancelled"
  // A deposit's payment window closed unpaid; a payment came once the slot was gone (decision 0186).
  | "payment_expired"
  | "slot_lost";
export type ReminderKind = "48h" | "2h";

type ClientMailJob = {
  bookingId: string;
  /**
   * `recap`: the booking as it stands, to the address the owner corrected (bookings.server.ts).
   * `awaiting_transfer`: booked online, its deposit to pay by transfer: what to pay, to whom, by when.
   */
  event: BookingMailEvent | `reminder-${ReminderKind}` | "recap" | "awaiting_transfer";
  /** For a reminder: the start it was planned for (a booking moved since gets its own). */
  startsAt?: string;
  /** For a recap: the address it was queued for (corrected again since, the newer one gets its own). */
  to?: string;
};
type OwnerMailJob = { bookingId: string; event: BookingMailEvent };

const siteUrl = () => env().SITE_URL.replace(/\/$/, "");
const siteHost = () => new URL(env().SITE_URL).host;

type Loaded = {
  booking: typeof bookings.$inferSelect;
  typeName: string;
  /** Its price and « ce qui est compris »: its price card's when it is its offer (decision 0127). */
  offer: SessionOffer;
  depositText: string | null;
  /** The gift voucher paying it (or its deposit), null when none (decisions 0170 and 0199). */
  voucherPayment: VoucherPayment | null;
  /**
   * The deposit an amount voucher paid, given back (or kept, the voucher cancelled) once called off; a
   * session voucher's only when it came back expired.
   */
  voucherGivenBack: VoucherPayment | null;
  cutoffHours: number;
  /** The owner's questions, by id, as she worded them (her e-mail shows the answers under them). */
  questionLabels: Record<string, string>;
  studio: Pick<StudioData, "name" | "address" | "phone" | "email" | "geo">;
  brand: string;
  siteEmail: string;
  /** The seller in one line, under the client's e-mails (decision 0176). */
  seller: string;
};

async function load(bookingId: string): Promise<Loaded | null> {
  const [row] = await db()
    .select({
      booking: bookings,
      typeName: sessionTypes.name,
      priceText: sessionTypes.priceText,
      includedText: sessionTypes.includedText,
      depositText: sessionTypes.depositText,
      cutoffHours: sessionTypes.cancellationCutoffHours,
      questions: sessionTypes.questions,
      studioData: studios.data,
    })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .innerJoin(studios, eq(studios.id, bookings.studioId))
    .where(eq(bookings.id, bookingId));
  if (!row) return null;
  const content = await readSiteContent();
  const voucherUse = await voucherUseOfBooking(row.booking.id);
  const parsed = studioDataSchema.safeParse(row.studioData);
  const { identity } = content.documents;
  const studio = parsed.success
    ? parsed.data
    : {
        name: identity.brand,
        address: { street: "", postalCode: "", city: "" },
        phone: identity.phone,
        email: identity.email,
        geo: null,
      };
  return {
    booking: row.booking,
    typeName: row.typeName,
    offer: sessionOffer(content.documents.prices, {
      id: row.booking.sessionTypeId,
      priceText: row.priceText,
      includedText: row.includedText,
    }),
    depositText: row.depositText,
    voucherPayment: voucherUse && !voucherUse.givenBack ? voucherUse.payment : null,
    // A session voucher given back is said by the cancellation's own words, unless it came back expired.
    voucherGivenBack:
      voucherUse?.givenBack &&
      (voucherUse.payment.kind === "amount" || voucherUse.payment.expiredOn)
        ? voucherUse.payment
        : null,
    cutoffHours: row.cutoffHours,
    questionLabels: Object.fromEntries(
      row.questions.map((question) => [question.id, question.label]),
    ),
    studio,
    brand: identity.brand,
    siteEmail: identity.email,
    seller: sellerLine(content.documents.legal),
  };
}

/**
 * The voucher paying the booking (« Arrhes de 30 € réglées par le bon cadeau … », with the owner's warning
 * when it will stay cancelled), or where the deposit it paid went once the booking was called off (« … :
 * rendues sur votre bon cadeau. », and, come back expired, that the studio can extend it: the client
 * answers this e-mail, the owner has its link), for `whose` e-mail.
 */
const voucherLines = (loaded: Loaded, whose: "votre" | "son") =>
  loaded.voucherPayment
    ? [
        // The owner is warned, as on the booking's page, when the voucher will stay cancelled if the
        // booking still to come is called off.
        whose === "son" && isActive(loaded.booking.state)
          ? voucherLineOfOwner(loaded.voucherPayment)
          : paidByVoucherLine(loaded.voucherPayment),
      ]
    : loaded.voucherGivenBack
      ? [givenBackVoucherLine(loaded.voucherGivenBack, whose, "email")]
      : [];

/** The owner's way to extend a voucher that came back expired: its line of « Bons cadeaux ». */
const extendLink = (loaded: Loaded) =>
  loaded.voucherGivenBack?.expiredOn && !loaded.voucherGivenBack.lost
    ? `${siteUrl()}/admin/bons-cadeaux?q=${loaded.voucherGivenBack.code}`
    : null;

const addressLine = (studio: Loaded["studio"]) =>
  [studio.address.street, `${studio.address.postalCode} ${studio.address.city}`.trim()]
    .filter(Boolean)
    .join(", ");

/** A map of the studio: its coordinates when known, else its address. */
function mapLink(studio: Loaded["studio"]): string {
  return studio.geo
    ? `https://www.openstreetmap.org/?mlat=${studio.geo.latitude}&mlon=${studio.geo.longitude}#map=17/${studio.geo.latitude}/${studio.geo.longitude}`
    : `https://www.openstreetmap.org/search?query=${encodeURIComponent(addressLine(studio))}`;
}

/** The booking's calendar event as it stands (called-off ones say STATUS:CANCELLED). */
export function bookingIcs(
  loaded: Loaded,
  link: string,
  options: { publish?: boolean } = {},
): string {
  const { booking } = loaded;
  const status = BOOKING_EVENT_STATUS[booking.state];
  return icsCalendar({
    uid: `${booking.id}@${siteHost()}`,
    sequence: booking.icsSequence,
    start: booking.startsAt,
    end: booking.endsAt,
    stamp: booking.updatedAt,
    summary: `${loaded.typeName} – ${loaded.studio.name}`,
    description: [
      `${loaded.typeName} au ${loaded.studio.name}.`,
      `Téléphone du studio : ${loaded.studio.phone}`,
      `Votre réservation : ${link}`,
    ].join("\n"),
    location: addressLine(loaded.studio),
    url: link,
    organizer: { name: loaded.studio.name, email: loaded.studio.email || loaded.siteEmail },
    // A booking taken by phone without an address has no attendee (decision 0138).
    ...(booking.clientEmail
      ? { attendee: { name: booking.clientName, email: booking.clientEmail } }
      : {}),
    status,
    publish: options.publish,
  });
}

/**
 * The booking's event as a file to add to a calendar from the client's page (decision 0124), the same
 * event as the e-mails' `.ics`; null for a booking that no longer exists.
 */
export async function bookingIcsFile(
  bookingId: string,
  manageToken: string,
): Promise<string | null> {
  const loaded = await load(bookingId);
  return loaded
    ? bookingIcs(loaded, `${siteUrl()}${managePath(manageToken)}`, { publish: true })
    : null;
}

type Wording = { subject: string; heading: string; lines: string[] };

/** How to pay a deposit awaited by transfer: the amount by its deadline, to whom, with what reference. */
function transferLines(transfer: TransferToPay | null): string[] {
  if (!transfer) return [];
  return [
    `Faites un virement de ${formatCents(transfer.amountCents)} avant le ${instantLabelFr(transfer.payBy)} :`,
    ...(transfer.bank
      ? [`Titulaire : ${transfer.bank.holder}`, `IBAN : ${formatIban(transfer.bank.iban)}`]
      : []),
    `Référence à indiquer : ${transfer.reference}`,
  ];
}

/** A deposit to pay by transfer, as its order gives it to the client (decision 0186, amended). */
type TransferToPay = {
  amountCents: number;
  payBy: Date;
  /** The bank details she was given (the payment settings require them with transfers). */
  bank: { holder: string; iban: string } | null;
  reference: string;
};

/**
 * What the client's e-mail says of `event`. `payLink`: the deposit's order page while it is awaited;
 * `transfer`: the bank details of a deposit awaited by transfer.
 */
function clientWording(
  loaded: Loaded,
  event: ClientMailJob["event"],
  {
    message = null,
    alternatives = [],
    payLink = null,
    transfer = null,
    held = false,
    wayChanged = null,
  }: {
    message?: string | null;
    alternatives?: readonly string[];
    payLink?: string | null;
    transfer?: TransferToPay | null;
    /** Her card payment of its deposit, taken for another total, waits for the owner (decision 0172). */
    held?: boolean;
    /** Her deposit asked another way than she chose, and how it is paid now (decision 0186). */
    wayChanged?: string | null;
  } = {},
): Wording {
  const { booking, typeName, studio } = loaded;
  const when = instantLabelFr(booking.startsAt);
  // A request made close to its session is answered before it starts, not by a date of its own.
  const answerBy =
    booking.respondBy && booking.respondBy < booking.startsAt
      ? `au plus tard le ${instantLabelFr(booking.respondBy)}`
      : "avant le début de la séance";
  const said = message ? [`Message du studio : « ${message} »`] : [];
  switch (event) {
    case "booked":
      return {
        subject: `Votre séance est réservée : ${when}`,
        heading: "Votre séance est réservée",
        lines: [
          `Nous avons bien réservé votre ${sessionOfTypeFr(typeName)} au ${studio.name}, le ${when}.`,
        ],
      };
    case "requested":
      return {
        subject: `Demande de séance reçue : ${when}`,
        heading: "Votre demande est bien reçue",
        lines: [
          `Vous avez demandé une ${sessionOfTypeFr(typeName)} au ${studio.name}, le ${when}.`,
          `Le studio vous répond ${answerBy} ; ce créneau vous est réservé d'ici là.`,
        ],
      };
    case "accepted":
      if (booking.state === "awaiting_payment" && payLink) {
        return {
          subject: `Demande acceptée : réglez votre paiement pour confirmer (${when})`,
          heading: "Votre demande est acceptée",
          lines: [
            `Le studio a accepté votre demande : « ${typeName} » au ${studio.name}, le ${when}.`,
            ...(wayChanged ? [wayChanged] : []),
            `Pour confirmer votre séance, réglez le paiement demandé avant le ${booking.respondBy ? instantLabelFr(booking.respondBy) : when} : ${payLink}`,
            "Sans paiement dans ce délai, le créneau est libéré et rien n'est débité.",
          ],
        };
      }
      return {
        subject: `Votre séance est confirmée : ${when}`,
        heading: "Votre séance est confirmée",
        lines: [
          `Le studio a accepté votre demande : « ${typeName} » au ${studio.name}, le ${when}.`,
          ...(wayChanged ? [wayChanged] : []),
        ],
      };
    case "declined":
      return {
        subject: "Votre demande de séance n'a pas pu être acceptée",
        heading: "Votre demande n'a pas pu être acceptée",
        lines: [
          `Le studio ne peut pas vous recevoir le ${when} pour « ${typeName} ».`,
          ...said,
          "Vous pouvez choisir un autre créneau sur le site ou appeler le studio.",
        ],
      };
    case "expired":
      return {
        subject: "Votre demande de séance n'a pas reçu de réponse à temps",
        heading: "Votre demande n'a pas reçu de réponse à temps",
        lines: [
          `Le studio n'a pas pu répondre à temps à votre demande du ${when} pour « ${typeName} » : ce créneau ne vous est plus réservé.`,
          `Vous pouvez choisir un créneau sur le site, le même s'il est encore libre, ou appeler le studio au ${studio.phone}.`,
        ],
      };
    case "awaiting_transfer":
      return {
        subject: `Réglez votre virement pour confirmer votre séance (${when})`,
        heading: "Votre créneau vous attend",
        lines: [
          `Votre ${sessionOfTypeFr(typeName)} au ${studio.name}, le ${when}, vous est réservée en attendant votre virement : elle est confirmée dès sa réception.`,
          ...transferLines(transfer),
          "Sans virement reçu dans ce délai, le créneau est libéré et rien ne vous est dû.",
          ...(payLink ? [`Ces informations et l'état de votre paiement : ${payLink}`] : []),
        ],
      };
    case "payment_expired":
      // Her money came, for another total, and the owner has not decided yet: never « rien n'a été
      // débité », nor an invitation to book and pay again. Accepted, it confirms the booking if its time is
      // still free, else goes back whole (the deposit kind's `onPaid`); returned, it goes back whole.
      if (held) {
        return {
          subject: "Votre paiement est en cours de vérification",
          heading: "Votre paiement est en cours de vérification",
          lines: [
            PAYMENT_HELD_MESSAGE,
            `Le délai de paiement de votre ${sessionOfTypeFr(typeName)} au ${studio.name} du ${when} est passé pendant cette vérification : le créneau ne vous est plus réservé d'ici là.`,
            "Si le studio accepte votre paiement, votre séance est confirmée, si son créneau est encore libre ; sinon, votre paiement vous est rendu en entier.",
          ],
        };
      }
      return {
        subject: "Réservation non confirmée : paiement non reçu",
        heading: "Votre réservation n'a pas été confirmée",
        lines: [
          `Le paiement de votre ${sessionOfTypeFr(typeName)} au ${studio.name} du ${when} n'est pas arrivé dans le délai : le créneau est libéré et rien n'a été débité.`,
          `Vous pouvez réserver à nouveau sur le site, le même créneau s'il est encore libre, ou appeler le studio au ${studio.phone}.`,
        ],
      };
    case "slot_lost":
      return {
        subject: "Votre paiement vous est remboursé : le créneau n'était plus libre",
        heading: "Toutes nos excuses : votre paiement vous est remboursé",
        lines: [
          `Votre paiement pour la ${sessionOfTypeFr(typeName)} au ${studio.name} du ${when} est arrivé après la fin du délai de paiement, et ce créneau a été réservé entre-temps par quelqu'un d'autre.`,
          "Nous vous remboursons la somme entière, sur le même moyen de paiement, et vous prions de nous excuser.",
          ...(alternatives.length > 0
            ? [
                `Prochains horaires libres : ${alternatives.join(" ; ")}. Réservez sur le site ou appelez le studio au ${studio.phone}.`,
              ]
            : [
                `Pour choisir un autre créneau, réservez sur le site ou appelez le studio au ${studio.phone}.`,
              ]),
        ],
      };
    case "moved":
      return {
        subject: `Votre séance est déplacée : ${when}`,
        heading: "Votre séance est déplacée",
        lines: [
          `Votre ${sessionOfTypeFr(typeName)} au ${studio.name} a lieu désormais le ${when}.`,
          // Its payment still awaited: the deadline may have come sooner with the session (never after
          // its start), so it is said again, with how to pay.
          ...(booking.state === "awaiting_payment" && held
            ? [PAYMENT_HELD_MESSAGE]
            : booking.state === "awaiting_payment" && booking.respondBy
              ? [
                  `Votre paiement est toujours attendu : réglez-le avant le ${instantLabelFr(booking.respondBy)} pour confirmer votre séance ; sans paiement dans ce délai, le créneau est libéré.`,
                  ...transferLines(transfer),
                  ...(payLink ? [`Pour payer, et l'état de votre paiement : ${payLink}`] : []),
                ]
              : []),
        ],
      };
    case "cancelled":
      return {
        subject: `Séance annulée : ${when}`,
        heading: "Votre séance est annulée",
        lines: [
          `Votre ${sessionOfTypeFr(typeName)} au ${studio.name} du ${when} est annulée.`,
          ...said,
        ],
      };
    case "recap":
      return {
        subject: `Récapitulatif de votre réservation : ${when}`,
        heading: "Votre réservation",
        lines: [
          `Le studio a corrigé vos coordonnées : voici le récapitulatif de votre ${sessionOfTypeFr(typeName)} au ${studio.name}, le ${when}.`,
          ...(booking.state === "pending"
            ? [`Le studio vous répond ${answerBy} ; ce créneau vous est réservé d'ici là.`]
            : booking.state === "awaiting_payment" && held
              ? [PAYMENT_HELD_MESSAGE]
              : booking.state === "awaiting_payment"
                ? [
                    payLink
                      ? `Pour confirmer votre séance, réglez le paiement demandé avant le ${booking.respondBy ? instantLabelFr(booking.respondBy) : when} : ${payLink}`
                      : "Votre séance est confirmée dès que le paiement demandé est reçu.",
                  ]
                : []),
        ],
      };
    case "reminder-48h":
    case "reminder-2h":
      return {
        subject: `Rappel : votre séance ${event === "reminder-2h" ? "aujourd'hui" : "approche"} (${when})`,
        heading: "Votre séance approche",
        lines: [
          `Nous vous attendons le ${when} au ${studio.name} pour votre ${sessionOfTypeFr(typeName)}.`,
        ],
      };
  }
}

/**
 * The deposit paid (decision 0186): its amount and its invoice's PDF (or the order's page until the
 * invoice is issued: the seller's identity incomplete, decision 0181).
 */
async function depositLines(booking: Loaded["booking"]): Promise<string[]> {
  if (!booking.depositOrderId || !booking.depositRules) return [];
  const [order] = await db()
    .select({ status: orders.status, amountCents: orders.amountCents })
    .from(orders)
    .where(eq(orders.id, booking.depositOrderId));
  // Cancelled, a deposit paid may already be refunded (a card's, at once): still said, with what became of it.
  const cancelled = booking.state === "cancelled";
  if (!order || !(order.status === "paid" || (cancelled && order.status === "refunded"))) return [];
  const rules = booking.depositRules;
  const page = await orderPageUrl(booking.depositOrderId);
  const invoice = (await invoicesOfOrder(booking.depositOrderId)).find(
    (candidate) => candidate.kind !== "credit_note",
  );
  const word = DEPOSIT_NATURE_LABELS[rules.nature];
  return [
    `${word} payé${rules.nature === "arrhes" ? "es" : ""} : ${formatCents(order.amountCents)}`,
    invoice
      ? `Facture : ${page}/facture/${invoice.number}.pdf`
      : `Votre paiement et sa facture : ${page}`,
    cancelled
      ? await depositAfterCancelLine(booking, rules, order.amountCents)
      : DEPOSIT_MEANINGS[rules.nature],
  ];
}

/**
 * What the client's cancellation did with the deposit she paid, for the owner's e-mail of it (decision 0186,
 * amended): the booking's page says it, but the e-mail is what reaches her. None when no order was paid
 * (unpaid, or an amount voucher paid it: the voucher's lines say that).
 */
async function depositLinesOfClientCancel(booking: Loaded["booking"]): Promise<string[]> {
  if (!booking.depositOrderId || !booking.depositRules) return [];
  const [order] = await db()
    .select({ status: orders.status, amountCents: orders.amountCents })
    .from(orders)
    .where(eq(orders.id, booking.depositOrderId));
  if (!order || (order.status !== "paid" && order.status !== "refunded")) return [];
  return [
    depositOnClientCancelForOwner(
      booking.depositRules.nature,
      formatCents(order.amountCents),
      booking.depositRules.refundAtOnce,
      await receivedByCardOnly(booking.depositOrderId),
    ),
  ];
}

/**
 * What became of her paid deposit once her booking was cancelled (decision 0186): the studio cancelled, it
 * goes back whole (on her card when she paid by card) and, for arrhes, as much again; she cancelled in time,
 * on her card when the type refunds at once, else by the studio.
 */
async function depositAfterCancelLine(
  booking: Loaded["booking"],
  rules: DepositRule,
  amountCents: number,
): Promise<string> {
  const [cancelled] = await db()
    .select({ actor: bookingEvents.actor })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, booking.id), eq(bookingEvents.kind, "cancelled")));
  const by = cancelled?.actor === "owner" ? "studio" : "client";
  const byCard = await receivedByCardOnly(booking.depositOrderId ?? "");
  return depositAfterCancel(
    rules.nature,
    {
      amount: formatCents(amountCents),
      refundedOnCard: byCard && (by === "studio" || rules.refundAtOnce),
    },
    by,
  );
}

/**
 * The invoice of the deposit an amount voucher pays (decision 0199), said as a paid deposit's is, from the
 * client's booking page (she has no order): none under the franchise, while the seller's identity holds it
 * back, or once the deposit went back to the voucher.
 */
async function voucherDepositInvoiceLines(loaded: Loaded, token: string): Promise<string[]> {
  if (loaded.voucherPayment?.kind !== "amount") return [];
  const invoice = await invoiceOfDepositUse(loaded.booking.id);
  return invoice ? [`Facture : ${siteUrl()}${manageInvoicePath(token, invoice.number)}`] : [];
}

/** The deposit's order awaited by transfer, with the bank details the client was given; null otherwise. */
async function transferToPay(orderId: string): Promise<TransferToPay | null> {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (
    !order ||
    order.method !== "transfer" ||
    order.status !== "awaiting_payment" ||
    !order.payBy ||
    !order.transferReference
  ) {
    return null;
  }
  return {
    amountCents: order.amountCents,
    payBy: order.payBy,
    bank: transferDetailsOf(order.rulesSnapshot),
    reference: order.transferReference,
  };
}

/** The next free times of the booking's type at its studio, for the apology of a lost slot. */
async function nextTimesFor(booking: Loaded["booking"]): Promise<string[]> {
  try {
    const times = await nextFreeTimes(
      { studioId: booking.studioId, sessionTypeId: booking.sessionTypeId, privateToken: null },
      null,
    );
    return times.slice(0, 5).map((slot) => instantLabelFr(slot.start));
  } catch {
    // A type archived or private since: the e-mail says to book on the site.
    return [];
  }
}

/** The owner's message given with a decline or a cancellation, from the booking's history. */
async function lastMessage(
  bookingId: string,
  kind: "declined" | "cancelled",
): Promise<string | null> {
  const [row] = await db()
    .select({ detail: bookingEvents.detail })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, kind)))
    .orderBy(desc(bookingEvents.at), desc(bookingEvents.id))
    .limit(1);
  const message = (row?.detail as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : null;
}

const asPaymentMethod = (value: unknown): PaymentMethod | null =>
  value === "card" || value === "transfer" || value === "studio" ? value : null;

/**
 * An accepted request's deposit asked another way than its client chose, the owner no longer taking hers
 * (acceptRequest notes the way used on its « accepted » line when it differs, decision 0186): the line
 * saying so in her acceptance e-mail, null otherwise.
 */
async function depositWayChange(booking: Loaded["booking"]): Promise<string | null> {
  if (!booking.depositRules) return null;
  const rows = await db()
    .select({ kind: bookingEvents.kind, detail: bookingEvents.detail })
    .from(bookingEvents)
    .where(
      and(
        eq(bookingEvents.bookingId, booking.id),
        inArray(bookingEvents.kind, ["requested", "accepted"]),
      ),
    )
    .orderBy(desc(bookingEvents.at), desc(bookingEvents.id));
  const requested = asPaymentMethod(
    rows.find((row) => row.kind === "requested")?.detail.paymentMethod,
  );
  const used = asPaymentMethod(rows.find((row) => row.kind === "accepted")?.detail.paymentMethod);
  return requested && used && used !== requested
    ? depositWayChangedLine(booking.depositRules, requested, used)
    : null;
}

/** The client's e-mail of `event`, or null when there is nothing (left) to say. */
export async function clientBookingEmail(job: ClientMailJob): Promise<OutgoingMail | null> {
  const loaded = await load(job.bookingId);
  if (!loaded) return null;
  const { booking, studio, brand, seller } = loaded;
  // Taken by phone without an address or silently (decision 0138): nothing goes to the client.
  if (!booking.clientMail || booking.clientEmail === "") return null;
  const reminder = job.event.startsWith("reminder-");
  // A reminder goes only for the booking still on, at the time it was planned for.
  if (
    reminder &&
    (booking.state !== "confirmed" || booking.startsAt.toISOString() !== job.startsAt)
  ) {
    return null;
  }
  // A recap is of a booking still to come, to the address it was queued for.
  if (
    job.event === "recap" &&
    (!isActive(booking.state) || booking.clientEmail.toLowerCase() !== job.to?.toLowerCase())
  ) {
    return null;
  }
  const message =
    job.event === "declined" || job.event === "cancelled"
      ? await lastMessage(booking.id, job.event)
      : null;
  const alternatives = job.event === "slot_lost" ? await nextTimesFor(booking) : [];
  // Paid or lapsed before it left, the transfer's details are of no use (the booking's own e-mail
  // follows a payment; a lapse has its own).
  if (job.event === "awaiting_transfer" && booking.state !== "awaiting_payment") return null;
  // A card payment taken for another total waits for the owner (decision 0172): it came, and nothing is
  // asked again, nor said not to have come.
  const held =
    (booking.state === "awaiting_payment" || booking.state === "expired") &&
    booking.depositOrderId !== null &&
    (await paymentHeldFor(booking.depositOrderId));
  const awaited = booking.state === "awaiting_payment" && !held && booking.depositOrderId;
  const payLink =
    (job.event === "accepted" ||
      job.event === "recap" ||
      job.event === "awaiting_transfer" ||
      job.event === "moved") &&
    awaited
      ? await orderPageUrl(awaited)
      : null;
  const transfer =
    (job.event === "awaiting_transfer" || job.event === "moved") && awaited
      ? await transferToPay(awaited)
      : null;
  if (job.event === "awaiting_transfer" && !transfer) return null;
  const wayChanged = job.event === "accepted" ? await depositWayChange(booking) : null;
  const wording = clientWording(loaded, job.event, {
    message,
    alternatives,
    payLink,
    transfer,
    held,
    wayChanged,
  });
  const token = await manageTokenFor(booking.id);
  const link = `${siteUrl()}${managePath(token)}`;
  // Waiting for its deposit, it can be seen, moved and cancelled too (its deposit's words included).
  const active = isActive(booking.state);
  const duration = durationLabelFr(
    Math.round((booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000),
  );
  const where = addressLine(studio);
  const details = [
    `Séance : ${loaded.typeName} (${duration})`,
    ...(loaded.offer.price ? [`Tarif : ${loaded.offer.price}`] : []),
    ...voucherLines(loaded, "votre"),
    ...(await voucherDepositInvoiceLines(loaded, token)),
    ...(loaded.offer.included.length > 0
      ? [`Ce qui est compris : ${loaded.offer.included.join(" ; ")}`]
      : []),
    `Quand : ${instantLabelFr(booking.startsAt)}`,
    `Où : ${studio.name}, ${where}`,
    `Plan d'accès : ${mapLink(studio)}`,
    `Téléphone du studio : ${studio.phone}`,
    `État : ${bookingStateLabel(booking.state, await depositAwaitedOf(booking), held)}`,
    // The owner's sentence says « Acompte » or « Arrhes » itself (decision 0116).
    ...(loaded.depositText && active ? [loaded.depositText] : []),
    ...(await depositLines(booking)),
  ];
  // The client may change it online until the cut-off; past it, the link only shows it.
  const changeUntil = new Date(booking.startsAt.getTime() - loaded.cutoffHours * 3_600_000);
  const changeable = active && Date.now() <= changeUntil.getTime();
  const manageLine = changeable
    ? `Voir, déplacer ou annuler votre séance (jusqu'au ${instantLabelFr(changeUntil)}) : ${link}`
    : active
      ? `Voir votre séance (pour la modifier, appelez le studio au ${studio.phone}) : ${link}`
      : `Votre réservation : ${link}`;
  const text = [
    `Bonjour ${booking.clientName},`,
    "",
    ...wording.lines,
    "",
    ...details,
    "",
    manageLine,
    "",
    isCalledOff(booking.state)
      ? "Le fichier joint retire la séance de votre agenda."
      : "Le fichier joint ajoute la séance à votre agenda (et la met à jour).",
    "",
    `— ${brand}`,
    seller,
  ].join("\n");
  const paragraph = (content: string) => `<p style="margin:0 0 12px">${content}</p>`;
  const html = emailLayout({
    title: wording.subject,
    brand,
    preheader: wording.lines[0] ?? wording.subject,
    body: `<h1 style="font-size:22px;line-height:1.3;margin:16px 0">${escapeHtml(wording.heading)}</h1>
${paragraph(`Bonjour ${escapeHtml(booking.clientName)},`)}
${wording.lines.map((line) => paragraph(escapeHtml(line))).join("\n")}
<ul style="margin:0 0 12px;padding-left:20px">${details
      .filter((line) => !line.startsWith("Plan d'accès"))
      .map((line) => `<li>${escapeHtml(line)}</li>`)
      .join(
        "",
      )}<li><a href="${escapeHtml(mapLink(studio))}" style="color:#9a3412">Plan d'accès</a></li></ul>
${changeable ? emailButton(link, "Voir, déplacer ou annuler") : active ? emailButton(link, "Voir ma séance") : ""}
<p style="margin:0 0 12px;font-size:14px">Votre lien personnel :<br><a href="${escapeHtml(link)}" style="color:#9a3412;word-break:break-all">${escapeHtml(link)}</a></p>`,
    footer: `Une question ? Appelez le ${escapeHtml(studio.name)} au ${escapeHtml(studio.phone)} ou répondez à cet e-mail. Ce lien est personnel : ne le partagez pas.<br>${escapeHtml(seller)}`,
  });
  return {
    to: booking.clientEmail,
    subject: wording.subject,
    text,
    html,
    replyTo: { name: studio.name, address: studio.email || loaded.siteEmail },
    attachments: [
      {
        filename: "seance.ics",
        contentType: `text/calendar; charset=utf-8; method=${
          isCalledOff(booking.state) ? "CANCEL" : "REQUEST"
        }`,
        content: bookingIcs(loaded, link),
      },
    ],
  };
}

const OWNER_SUBJECTS: Record<BookingMailEvent, string> = {
  booked: "Nouvelle réservation",
  requested: "Nouvelle demande de séance (à accepter ou refuser)",
  accepted: "Demande acceptée",
  declined: "Demande refusée",
  expired: "Demande expirée sans réponse",
  payment_expired: "Réservation non payée dans le délai",
  slot_lost: "Paiement arrivé après la libération du créneau (remboursé)",
  moved: "Réservation déplacée par le client",
  cancelled: "Réservation annulée par le client",
};

/**
 * The owner's e-mail of a client's booking, request, move or cancellation, and of a request left unanswered
 * until it expired, to the studio's address.
 */
export async function ownerBookingEmail(job: OwnerMailJob): Promise<OutgoingMail | null> {
  const loaded = await load(job.bookingId);
  if (!loaded) return null;
  const { booking, studio, brand } = loaded;
  const when = instantLabelFr(booking.startsAt);
  const subject = `${OWNER_SUBJECTS[job.event]} : ${booking.clientName}, ${when}`;
  // Straight to this booking in the admin (decision 0125); answering stays a button there, never a link
  // of the e-mail (a mail client that opens links would answer for her).
  const bookingLink = `${siteUrl()}/admin/reservations/${booking.id}`;
  const answering = booking.state === "pending";
  const previousStart = job.event === "moved" ? await previousStartOf(booking.id) : null;
  const extend = extendLink(loaded);
  const lines = [
    `${OWNER_SUBJECTS[job.event]} au ${studio.name}.`,
    "",
    `Séance : ${loaded.typeName}`,
    previousStart
      ? `Quand : ${when} (au lieu du ${instantLabelFr(previousStart)})`
      : `Quand : ${when}`,
    `Client : ${[booking.clientName, booking.clientEmail, booking.clientPhone].filter(Boolean).join(" · ")}`,
    ...voucherLines(loaded, "son"),
    ...(job.event === "cancelled" ? await depositLinesOfClientCancel(booking) : []),
    ...(extend ? [`Prolonger le bon : ${extend}`] : []),
    ...Object.entries(booking.answers).map(
      ([question, answer]) => `${loaded.questionLabels[question] ?? question} : ${answer}`,
    ),
    ...(booking.respondBy && answering
      ? [`À accepter ou refuser avant le ${instantLabelFr(booking.respondBy)}.`]
      : []),
    ...(job.event === "expired"
      ? [
          "Elle n'a reçu ni acceptation ni refus avant sa date limite : le créneau est libéré et le client en est prévenu (il peut réserver à nouveau).",
        ]
      : []),
    "",
    ...(answering
      ? [`Accepter : ${bookingLink}`, `Refuser : ${bookingLink}?refuser=1`]
      : [`La réservation : ${bookingLink}`]),
    "",
    "Le fichier joint met la séance dans votre agenda.",
  ];
  const buttons = answering
    ? `${emailButton(bookingLink, "Accepter")}${emailButton(`${bookingLink}?refuser=1`, "Refuser")}`
    : `${emailButton(bookingLink, "Voir la réservation")}${extend ? emailButton(extend, "Prolonger le bon cadeau") : ""}`;
  const html = emailLayout({
    title: subject,
    brand,
    preheader: `${booking.clientName}, ${when}`,
    body: `${lines
      .filter(
        (line) =>
          line !== "" &&
          !/^(Accepter|Refuser|La réservation|Le fichier joint|Prolonger le bon) :?/.test(line),
      )
      .map((line) => `<p style="margin:0 0 8px">${escapeHtml(line)}</p>`)
      .join("\n")}${buttons}`,
    footer: `Message envoyé par le site ${escapeHtml(brand)} à chaque réservation en ligne.`,
  });
  return {
    to: studio.email || loaded.siteEmail,
    subject,
    text: lines.join("\n"),
    html,
    ...(booking.clientEmail
      ? { replyTo: { name: booking.clientName, address: booking.clientEmail } }
      : {}),
    attachments: [
      {
        filename: "seance.ics",
        contentType: "text/calendar; charset=utf-8; method=PUBLISH",
        // The owner's copy: an event to keep, not an invitation to answer (the client is its attendee).
        content: bookingIcs(loaded, bookingLink, { publish: true }),
      },
    ],
  };
}

/** Where the booking started before its last move (its history keeps both times). */
async function previousStartOf(bookingId: string): Promise<Date | null> {
  const [moved] = await db()
    .select({ detail: bookingEvents.detail })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, "moved")))
    .orderBy(desc(bookingEvents.at))
    .limit(1);
  const from = moved?.detail.from;
  return typeof from === "string" ? new Date(from) : null;
}

export const queueClientMail = defineMailKind<ClientMailJob>("booking-client", {
  failureKind: "booking",
  compose: clientBookingEmail,
});
export const queueOwnerMail = defineMailKind<OwnerMailJob>("booking-owner", {
  failureKind: "booking",
  compose: ownerBookingEmail,
});

/**
 * Queues, inside the booking's transaction `tx`, the e-mails of what just happened: the client's always (a
 * booking the owner took by phone too), the owner's when the client did it or it happened by itself (she
 * knows what she did).
 */
export async function queueBookingMails(
  tx: Executor,
  bookingId: string,
  event: BookingMailEvent,
  actor: "client" | "owner" | "system",
  { toClient = true }: { toClient?: boolean } = {},
): Promise<void> {
  // Not to the client when her address has had enough e-mails today (decision 0123, bookings.server.ts).
  if (toClient) await queueClientMail({ bookingId, event }, { tx });
  if (actor !== "owner" && event !== "accepted" && event !== "declined") {
    await queueOwnerMail({ bookingId, event }, { tx });
  }
}

/** Queues a reminder inside `tx` (the reminders' job, reminders.server.ts). */
export async function queueReminderMail(
  tx: Executor,
  bookingId: string,
  kind: ReminderKind,
  startsAt: Date,
): Promise<void> {
  await queueClientMail(
    { bookingId, event: `reminder-${kind}`, startsAt: startsAt.toISOString() },
    { tx },
  );
}
