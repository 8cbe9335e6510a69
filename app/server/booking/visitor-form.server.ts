import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { redirect } from "react-router";
import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { askedDepositOf, depositUnpayable, depositUnpayableMessage } from "~/lib/booking/deposit";
import { isActive } from "~/lib/booking/model";
import { bookingQuestionsSchema } from "~/lib/booking/session-types";
import { instantOfSlotKey } from "~/lib/booking/slots";
import { managePath } from "~/lib/booking/urls";
import {
  FORM_KEY_FIELD,
  formKeyOf,
  withoutControlCharacters,
  answerStatus,
  type FormAnswer,
} from "~/lib/forms";
import { PAYMENT_METHODS, type PaymentMethod } from "~/lib/payments/model";
import { db } from "../db/client.server";
import { bookingEvents, bookings, users } from "../db/schema";
import { env } from "../env.server";
import { log } from "../logger.server";
import type { OrderCheckout } from "../payments/orders.server";
import { PaymentRefusedError } from "../payments/refusals.server";
import { enqueueAdminMail } from "../admin/mailer.server";
import { parseVoucherCode } from "~/lib/vouchers/code";
import { consumeRateLimit, giveBackRateLimit, rateLimitReached } from "../rate-limit.server";
import {
  activeBookingsOf,
  createBooking,
  type BookingRecord,
  type CreatedBooking,
} from "./bookings.server";
import { createDepositOrder } from "./deposits.server";
import { queueClientMail } from "./emails.server";
import { manageTokenFor } from "./manage-token.server";
import { BookingRefusedError, SlotTakenError, VoucherCodeRefusedError } from "./refusals.server";
import {
  MAX_ACTIVE_BOOKINGS_PER_EMAIL,
  nextFreeTimes,
  type OfferedSessionType,
} from "./visitor.server";

/*
 * The details form of /reserver/{studio}/{séance}/coordonnees posted (decision 0115): rate limits, spam trap, then
 * createBooking, which checks everything again and lets PostgreSQL decide a race. A refusal answers a 4xx
 * with every value typed and a French message; a slot someone else just took also brings the next free
 * times. Success: 303 to the client's own page (/reservation/{jeton}?nouvelle=1), or to the deposit's checkout.
 * The form carries a key drawn with the page (`cle`): its second post (a double click, a resend) leads where
 * the first did instead of meeting the first's booking as « Ce créneau vient d'être réservé ».
 */

/**
 * Bookings made per visitor address and hour (decision 0123): only bookings count, so that typos and times
 * someone else took never lock anyone out; an office, a school or a phone network shares one address.
 */
export const BOOKING_RATE_LIMIT = { limit: 30, windowSeconds: 3600 };
/** Bookings made per e-mail address and day. */
export const BOOKING_EMAIL_RATE_LIMIT = { limit: 6, windowSeconds: 24 * 3600 };

/**
 * Wrong gift voucher codes per visitor address and hour (decision 0170): a code has 55 random bits, and
 * this keeps guessing them through the booking form hopeless. Only refusals of a well-formed code count
 * (unknown, another session, used…); a typo the check character catches reveals nothing and does not.
 * A well-formed code is counted before it is looked up, and given back when it was not refused: checked
 * first and counted after, posts sent together all passed the check (decision 0197).
 */
export const VOUCHER_CODE_RATE_LIMIT = { limit: 10, windowSeconds: 3600 };
const VOUCHER_LIMIT_MESSAGE =
  "Trop de codes de bon cadeau erronés depuis cette connexion : réessayez dans une heure, ou appelez le studio.";

export type BookingFormAnswer = FormAnswer<{
  errors: Record<string, string>;
  message: string;
  /** For a slot taken or refused: the next free times, to choose at once. */
  alternatives: { key: string; time: string }[];
}>;

/** The form's posted values as text, the spam trap left out. */
function postedValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (name === HONEYPOT_FIELD || typeof value !== "string" || name.length > 80) continue;
    values[name] = withoutControlCharacters(value).slice(0, 2000);
  }
  return values;
}

export async function submitBookingForm(input: {
  formData: FormData;
  studio: { id: string };
  type: OfferedSessionType;
  slot: string;
  privateToken: string | null;
  clientAddress: string;
  /** The ways of paying a deposit the owner takes now (her payment settings): another is refused. */
  acceptedMethods?: readonly PaymentMethod[];
}): Promise<{ status: number; answer: BookingFormAnswer } | Response> {
  const values = postedValues(input.formData);
  const refuse = (
    status: number,
    message: string,
    errors: Record<string, string> = {},
    alternatives: BookingFormAnswer["alternatives"] = [],
  ) => ({
    status,
    answer: { status: answerStatus(status), values, errors, message, alternatives },
  });

  const trap = input.formData.get(HONEYPOT_FIELD);
  if (typeof trap === "string" && trap !== "") {
    log.warn("booking_honeypot", { clientAddress: input.clientAddress });
    return refuse(
      400,
      "Votre réservation n'a pas pu être enregistrée. Appelez le studio pour réserver.",
    );
  }
  const formKey = formKeyOf(values[FORM_KEY_FIELD]);
  const fingerprint = requestFingerprint(input, values);
  /** The booking this form's key already made, answered as its first post was; null: none yet. */
  const sentBefore = async () => {
    const earlier = formKey ? await bookingOfFormKey(formKey) : null;
    if (!earlier) return null;
    if (earlier.booking.requestFingerprint === fingerprint) {
      log.info("booking_form_sent_again", { id: earlier.booking.id });
      return leadOn(await asFirstAnswered(earlier));
    }
    // Another time or other details under a key already used (a page shown again by « Précédent », then
    // changed): never answered with the first booking. A new key makes the next send a new booking.
    values[FORM_KEY_FIELD] = randomUUID();
    return refuse(409, FORM_ALREADY_USED);
  };
  // Before the limits: a second post of a booked form is no new booking, and must not be refused as one.
  const again = await sentBefore();
  if (again) return again;
  const addressKey = `booking:${input.clientAddress}`;
  if (await rateLimitReached(addressKey, BOOKING_RATE_LIMIT)) {
    log.warn("booking_rate_limited", { clientAddress: input.clientAddress });
    await tellOwnerOfLimit("address");
    return refuse(429, "Trop de réservations depuis cette connexion : réessayez dans une heure.");
  }
  const email = (values.email ?? "").trim().toLowerCase();
  const emailKey = `booking-email:${email}`;
  if (email) {
    const byEmail = await rateLimitReached(emailKey, BOOKING_EMAIL_RATE_LIMIT);
    const active = await activeBookingsOf(email);
    if (byEmail || active >= MAX_ACTIVE_BOOKINGS_PER_EMAIL) {
      if (byEmail) await tellOwnerOfLimit("email");
      return refuse(429, "Cette adresse e-mail a déjà plusieurs réservations à venir.", {
        email: `Au plus ${MAX_ACTIVE_BOOKINGS_PER_EMAIL} réservations à venir par adresse e-mail : appelez le studio pour en prendre une autre.`,
      });
    }
  }

  const voucherCode = (values.voucherCode ?? "").trim();
  const voucherKey = `booking-voucher:${input.clientAddress}`;
  const counted = voucherCode !== "" && parseVoucherCode(voucherCode).ok;
  if (counted && !(await consumeRateLimit(voucherKey, VOUCHER_CODE_RATE_LIMIT)).allowed) {
    await giveBackRateLimit(voucherKey);
    log.warn("booking_voucher_rate_limited", { clientAddress: input.clientAddress });
    return refuse(429, VOUCHER_LIMIT_MESSAGE, { voucherCode: VOUCHER_LIMIT_MESSAGE });
  }
  /** Whether the code was refused: only then does its count stay. */
  let codeRefused = false;
  try {
    // Its deposit payable no way the owner takes now (she turned them off since): the page said so in
    // place of the form; a post says it again, nothing booked.
    const rule = askedDepositOf(input.type.deposit);
    if (rule && input.acceptedMethods && depositUnpayable(rule, input.acceptedMethods)) {
      return refuse(409, depositUnpayableMessage(rule));
    }
    const method = PAYMENT_METHODS.find((candidate) => candidate === values.paymentMethod);
    if (method && input.acceptedMethods && !input.acceptedMethods.includes(method)) {
      const message = `Le paiement ${method === "card" ? "par carte" : method === "transfer" ? "par virement" : "au studio"} n'est pas proposé pour le moment : choisissez un autre moyen, ou appelez le studio.`;
      return refuse(400, message, { paymentMethod: message });
    }

    const questions = bookingQuestionsSchema.safeParse(input.type.questions);
    const answers: Record<string, string> = {};
    for (const question of questions.success ? questions.data : []) {
      answers[question.id] = values[`answers.${question.id}`] ?? "";
    }
    let made: CreatedBooking;
    try {
      made = await createBooking({
        studioId: input.studio.id,
        sessionTypeId: input.type.id,
        slot: input.slot,
        client: { name: values.name ?? "", email: values.email ?? "", phone: values.phone ?? "" },
        answers,
        consentAt: values.consent === "on" ? new Date() : null,
        privateToken: input.privateToken,
        maxBookingsToCome: MAX_ACTIVE_BOOKINGS_PER_EMAIL,
        voucherCode,
        paymentMethod: values.paymentMethod,
        formKeyHash: formKey ? formKeyHash(formKey) : null,
        requestFingerprint: formKey ? fingerprint : null,
      });
    } catch (error) {
      // Two posts of one form at once: the first, committed while this one waited for its locks, stands in
      // its way (its time taken, its key stored, its address's bookings counted). Answered as the first was.
      const again = await sentBefore();
      if (again) return again;
      if (!(error instanceof BookingRefusedError)) throw error;
      codeRefused = error instanceof VoucherCodeRefusedError && error.reason !== "invalid_code";
      const slotRefused = error instanceof SlotTakenError || !(error.code in NON_SLOT_CODES);
      const parsed = instantOfSlotKey(input.slot);
      const alternatives = slotRefused
        ? await nextFreeTimes(
            {
              studioId: input.studio.id,
              sessionTypeId: input.type.id,
              privateToken: input.privateToken,
            },
            typeof parsed === "string" ? null : parsed.day,
          )
        : [];
      return refuse(
        error.status,
        error.message,
        { ...error.fieldErrors },
        alternatives.map((slot) => ({ key: slot.key, time: slot.time })),
      );
    }
    log.info("booking_made", { id: made.id, state: made.state });
    // Only what books counts against the limits.
    await consumeRateLimit(addressKey, BOOKING_RATE_LIMIT);
    if (email) await consumeRateLimit(emailKey, BOOKING_EMAIL_RATE_LIMIT);
    return leadOn({
      manageToken: made.manageToken,
      bookingId: made.id,
      depositMethod: made.deposit?.method ?? null,
      created: true,
    });
  } finally {
    if (counted && !codeRefused) await giveBackRateLimit(voucherKey);
  }
}

const FORM_ALREADY_USED =
  "Ce formulaire a déjà servi à une réservation, pour un autre horaire ou avec d'autres informations : elle est enregistrée. Vérifiez ces informations, puis envoyez de nouveau le formulaire pour faire une autre réservation.";

type FormDestination = {
  bookingId: string;
  manageToken: string;
  /** The deposit's method when its order (and checkout) is where the form leads. */
  depositMethod: PaymentMethod | null;
  /** The client's page then says the booking is made (`?nouvelle=1`). */
  created: boolean;
};

/**
 * Where a booking's form leads (decision 0186 for a deposit): a card to the provider's page, a transfer
 * to the order's page with the bank details; at the studio, or without a deposit, the client's own page.
 * The deposit's order has the booking's own key: a second call finds the first order and its checkout.
 */
async function leadOn(target: FormDestination): Promise<Response> {
  if (target.depositMethod) {
    let checkout: OrderCheckout;
    try {
      checkout = await createDepositOrder({
        bookingId: target.bookingId,
        method: target.depositMethod,
        // Her bank details, reference and deadline by e-mail too, in the order's transaction: the page
        // she lands on may be closed before she pays (decision 0186, amended).
        onCreated:
          target.depositMethod === "transfer"
            ? async (tx) => {
                await queueClientMail(
                  { bookingId: target.bookingId, event: "awaiting_transfer" },
                  { tx },
                );
              }
            : undefined,
      });
    } catch (error) {
      if (!(error instanceof PaymentRefusedError && error.code === "not_awaiting_payment")) {
        throw error;
      }
      // Cancelled (or lapsed) before its order was made: nothing to pay; her page says where it stands.
      return redirect(managePath(target.manageToken), 303);
    }
    if (checkout.redirectUrl) return redirect(checkout.redirectUrl, 303);
    if (target.depositMethod !== "studio") return redirect(`/commande/${checkout.token}`, 303);
  }
  return redirect(managePath(target.manageToken, target.created ? { nouvelle: "1" } : {}), 303);
}

/** Kept as its SHA-256: a copy of the database holds no key that would lead to a booking's link. */
const formKeyHash = (key: string) => createHash("sha256").update(key).digest("hex");

type FormBooking = {
  booking: BookingRecord;
  /** What its first history line says the visitor chose: how to pay the deposit. */
  first: { kind: string; paymentMethod: string | null };
};

/** The booking a form's key made, with what its first post chose; null: none. */
async function bookingOfFormKey(key: string): Promise<FormBooking | null> {
  const [booking] = await db()
    .select()
    .from(bookings)
    .where(eq(bookings.idempotencyKey, formKeyHash(key)));
  if (!booking) return null;
  const [event] = await db()
    .select({ kind: bookingEvents.kind, detail: bookingEvents.detail })
    .from(bookingEvents)
    .where(
      and(
        eq(bookingEvents.bookingId, booking.id),
        inArray(bookingEvents.kind, ["booked", "requested"]),
      ),
    )
    .orderBy(asc(bookingEvents.at))
    .limit(1);
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    booking,
    first: {
      kind: event?.kind ?? "booked",
      paymentMethod: text(event?.detail.paymentMethod),
    },
  };
}

/**
 * What a post of the form asks for, as a SHA-256: its studio, session and time and every field but its
 * key, as posted. A second post of the same form (a double click, a resend) sends the same; a page shown
 * again by « Précédent » and changed does not, and is never answered with the first booking.
 */
function requestFingerprint(
  input: { studio: { id: string }; type: { id: string }; slot: string },
  values: Record<string, string>,
): string {
  const fields = Object.entries(values)
    .filter(([name]) => name !== FORM_KEY_FIELD)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([input.studio.id, input.type.id, input.slot, fields]))
    .digest("hex");
}

/**
 * Where the first post of a booking's form led, again. The client's link needs her manage token, which is
 * stored only hashed: it is derived from the booking's id with the server's secret (decision 0115), so it
 * can be made again, and is given only to whoever holds the form's key (drawn with her page, never shown
 * elsewhere) and posts the same details. A booking no longer waiting for its payment (paid, lapsed,
 * cancelled) leads to the client's page, which says where it stands, rather than to a spent checkout.
 */
async function asFirstAnswered({ booking, first }: FormBooking): Promise<FormDestination> {
  const method = PAYMENT_METHODS.find((each) => each === first.paymentMethod) ?? null;
  const active = isActive(booking.state);
  const depositAsked = first.kind === "booked" && booking.depositRules !== null && method !== null;
  return {
    bookingId: booking.id,
    manageToken: await manageTokenFor(booking.id),
    depositMethod:
      depositAsked && (booking.state === "awaiting_payment" || (method === "studio" && active))
        ? method
        : null,
    created: active,
  };
}

/** Refusals about the details rather than the time. */
const NON_SLOT_CODES = {
  invalid_details: true,
  unknown_studio: true,
  unknown_session_type: true,
  too_many_bookings: true,
  voucher_refused: true,
};

const LIMIT_WORDS = {
  address: `${BOOKING_RATE_LIMIT.limit} réservations en une heure depuis une même connexion`,
  email: `${BOOKING_EMAIL_RATE_LIMIT.limit} réservations en un jour avec une même adresse e-mail`,
} as const;

/**
 * Tells every administrator that a booking limit refused a visitor, at most once an hour per limit
 * (decision 0123), through the mail queue. A real person behind a shared connection calls the studio; an
 * owner who knows can expect the call, or a robot.
 */
async function tellOwnerOfLimit(limit: keyof typeof LIMIT_WORDS): Promise<void> {
  const admins = await db()
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), isNotNull(users.email)));
  const siteUrl = env().SITE_URL;
  for (const admin of admins) {
    await enqueueAdminMail(
      {
        mail: {
          to: admin.email,
          subject: "Réservation en ligne : une limite a été atteinte",
          text: [
            "Bonjour,",
            "",
            `Un visiteur vient d'être empêché de réserver sur le site : ${LIMIT_WORDS[limit]}, c'est la limite fixée contre les robots.`,
            "Il lit « Trop de réservations » et peut vous appeler. Si c'est une personne réelle (une école, un bureau ou un réseau de téléphone partagent une même connexion), prenez sa réservation par téléphone dans l'agenda.",
            "",
            `L'agenda : ${siteUrl}/admin/reservations`,
            "Ce message est envoyé au plus une fois par heure.",
          ].join("\n"),
        },
      },
      { once: `booking-limit:${limit}:${admin.email}` },
    );
  }
}
