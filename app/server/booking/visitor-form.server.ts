import { and, eq, isNotNull } from "drizzle-orm";
import { redirect } from "react-router";
import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { bookingQuestionsSchema } from "~/lib/booking/session-types";
import { instantOfSlotKey } from "~/lib/booking/slots";
import { managePath } from "~/lib/booking/urls";
import { withoutControlCharacters, answerStatus, type FormAnswer } from "~/lib/forms";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { env } from "../env.server";
import { log } from "../logger.server";
import { enqueueAdminMail } from "../admin/mailer.server";
import { consumeRateLimit, rateLimitReached } from "../rate-limit.server";
import { createBooking } from "./bookings.server";
import { createDepositOrder } from "./deposits.server";
import { BookingRefusedError, SlotTakenError, VoucherCodeRefusedError } from "./refusals.server";
import {
  activeBookingsOf,
  MAX_ACTIVE_BOOKINGS_PER_EMAIL,
  nextFreeTimes,
  type OfferedSessionType,
} from "./visitor.server";

/*
 * The details form of /reserver/{studio}/{séance}/coordonnees posted (decision 0115): rate limits, spam trap, then
 * createBooking, which checks everything again and lets PostgreSQL decide a race. A refusal answers a 4xx
 * with every value typed and a French message; a slot someone else just took also brings the next free
 * times. Success: 303 to the client's own page (/reservation/{jeton}?nouvelle=1).
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
  /** Whether the owner accepts cards now (her payment settings): else a card deposit is refused. */
  cardAccepted?: boolean;
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
  if (voucherCode && (await rateLimitReached(voucherKey, VOUCHER_CODE_RATE_LIMIT))) {
    log.warn("booking_voucher_rate_limited", { clientAddress: input.clientAddress });
    return refuse(429, VOUCHER_LIMIT_MESSAGE, { voucherCode: VOUCHER_LIMIT_MESSAGE });
  }

  if (values.paymentMethod === "card" && input.cardAccepted === false) {
    const message =
      "Le paiement par carte n'est pas proposé pour le moment : choisissez un autre moyen.";
    return refuse(400, message, { paymentMethod: message });
  }

  const questions = bookingQuestionsSchema.safeParse(input.type.questions);
  const answers: Record<string, string> = {};
  for (const question of questions.success ? questions.data : []) {
    answers[question.id] = values[`answers.${question.id}`] ?? "";
  }
  try {
    const made = await createBooking({
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
    });
    log.info("booking_made", { id: made.id, state: made.state });
    // Only what books counts against the limits.
    await consumeRateLimit(addressKey, BOOKING_RATE_LIMIT);
    if (email) await consumeRateLimit(emailKey, BOOKING_EMAIL_RATE_LIMIT);
    if (made.deposit) {
      // The deposit's order (decision 0186): a card goes to the provider's page, a transfer to the
      // order's page with the bank details; at the studio the booking stands already.
      const checkout = await createDepositOrder({
        bookingId: made.id,
        method: made.deposit.method,
      });
      if (checkout.redirectUrl) return redirect(checkout.redirectUrl, 303);
      if (made.deposit.method !== "studio") return redirect(`/commande/${checkout.token}`, 303);
    }
    return redirect(managePath(made.manageToken, { nouvelle: "1" }), 303);
  } catch (error) {
    if (!(error instanceof BookingRefusedError)) throw error;
    if (error instanceof VoucherCodeRefusedError && error.reason !== "invalid_code") {
      await consumeRateLimit(voucherKey, VOUCHER_CODE_RATE_LIMIT);
    }
    const slotRefused = error instanceof SlotTakenError || !(error.code in NON_SLOT_CODES);
    const parsed = instantOfSlotKey(input.slot);
    const alternatives = slotRefused
      ? await nextFreeTimes(
          {
            studioId: input.studio.id,
            sessionTypeId: input.type.id,
            privateToken: input.privateToken,
          },
          typeof parsed === "string" ? new Date().toISOString().slice(0, 10) : parsed.day,
        )
      : [];
    return refuse(
      error.status,
      error.message,
      { ...error.fieldErrors },
      alternatives.map((slot) => ({ key: slot.key, time: slot.time })),
    );
  }
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
