import { SLOT_REFUSAL_MESSAGES, type SlotRefusal } from "~/lib/booking/slots";
import type { VoucherRefusalReason } from "../vouchers/redemption.server";

/** Every reason a booking operation says no, beside the slot's own (app/lib/booking/slots.ts). */
export type BookingRefusalCode =
  | SlotRefusal
  | "unknown_studio"
  | "unknown_session_type"
  | "invalid_details"
  | "not_found"
  | "not_pending"
  | "deposit_needs_email"
  | "deposit_unpayable"
  | "expired"
  | "not_active"
  | "hold_lapsed"
  | "cutoff"
  | "invalid_period"
  | "period_taken"
  | "too_many_moves"
  | "too_many_bookings"
  | "photographer_busy"
  | "voucher_refused";

const MESSAGES: Record<Exclude<BookingRefusalCode, SlotRefusal>, string> = {
  unknown_studio: "Ce studio n'existe pas ou ne prend pas de réservation en ligne.",
  unknown_session_type: "Cette séance n'existe pas ou n'est pas proposée dans ce studio.",
  invalid_details: "Certaines informations sont à corriger.",
  not_found: "Cette réservation n'existe pas.",
  not_pending: "Cette demande a déjà reçu une réponse.",
  deposit_needs_email:
    "Cette séance demande un paiement, dont la commande et la facture vont à la cliente par e-mail : ajoutez son adresse (« Modifier les coordonnées du client ») avant d'accepter.",
  deposit_unpayable:
    "Le paiement demandé pour cette séance ne peut plus être réglé : vous ne prenez plus aucun de ses moyens de paiement. Acceptez la carte ou le virement dans vos réglages de paiement, ou ajoutez « Au studio » aux moyens de cette séance, puis acceptez la demande ; ou appelez la cliente.",
  expired:
    "Cette demande a expiré sans réponse avant sa date limite : le client en a été prévenu et peut réserver à nouveau.",
  not_active: "Cette réservation est déjà annulée ou terminée.",
  hold_lapsed:
    "Le délai de cette réservation est passé : son créneau n'est plus gardé. Réservez de nouveau, ou appelez le studio.",
  cutoff: "Il est trop tard pour modifier cette réservation en ligne : appelez le studio.",
  invalid_period: "La fin doit suivre le début.",
  period_taken: "Une réservation occupe déjà ce moment : déplacez-la ou annulez-la d'abord.",
  too_many_bookings: "Cette adresse e-mail a déjà plusieurs réservations à venir.",
  photographer_busy: "Cette personne n'est pas libre à cette heure.",
  voucher_refused: "Ce bon cadeau ne peut pas régler cette séance.",
  too_many_moves:
    "Cette séance a déjà été déplacée 3 fois aujourd'hui : appelez le studio pour la déplacer de nouveau.",
};

/** The HTTP status a page answers with: 404 for what does not exist, 409 for a conflict, else 400. */
const STATUS: Partial<Record<BookingRefusalCode, 404 | 409>> = {
  unknown_studio: 404,
  unknown_session_type: 404,
  not_found: 404,
  taken: 409,
  not_pending: 409,
  deposit_needs_email: 409,
  deposit_unpayable: 409,
  expired: 409,
  not_active: 409,
  hold_lapsed: 409,
  period_taken: 409,
  too_many_moves: 409,
  too_many_bookings: 409,
  photographer_busy: 409,
};

/**
 * An expected refusal of a booking operation, with its French message: pages answer it as a 4xx with the
 * submitted values (nothing typed lost), never as a 5xx. `fieldErrors` names the fields to correct.
 */
export class BookingRefusedError extends Error {
  readonly code: BookingRefusalCode;
  readonly status: 400 | 404 | 409;
  readonly fieldErrors: Readonly<Record<string, string>>;

  constructor(
    code: BookingRefusalCode,
    options: { fieldErrors?: Record<string, string>; message?: string; cause?: unknown } = {},
  ) {
    const message =
      options.message ??
      (code in MESSAGES
        ? MESSAGES[code as keyof typeof MESSAGES]
        : SLOT_REFUSAL_MESSAGES[code as SlotRefusal]);
    super(message, { cause: options.cause });
    this.name = "BookingRefusedError";
    this.code = code;
    this.status = STATUS[code] ?? 400;
    this.fieldErrors = options.fieldErrors ?? {};
  }
}

/**
 * The slot was taken by someone else, between the page and the click or at the same instant: the database's
 * exclusion constraint said so. « Ce créneau vient d'être réservé. » (decision 0113); the page proposes the next
 * free times.
 */
export class SlotTakenError extends BookingRefusedError {
  constructor(options: { cause?: unknown } = {}) {
    super("taken", options);
    this.name = "SlotTakenError";
  }
}

/**
 * The gift voucher's code posted with a booking was refused (decision 0170): the booking is refused with it,
 * nothing written, the French reason at the field. `reason` tells the form whether it counts as a wrong
 * code (rate limited) or a typo the check character caught.
 */
export class VoucherCodeRefusedError extends BookingRefusedError {
  readonly reason: VoucherRefusalReason;

  constructor(reason: VoucherRefusalReason, message: string) {
    super("voucher_refused", { message, fieldErrors: { voucherCode: message } });
    this.name = "VoucherCodeRefusedError";
    this.reason = reason;
  }
}
