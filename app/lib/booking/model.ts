/**
 * The words of online booking (decision 0113), shared by the database schema, the server modules and the pages.
 * Decision record 0113 explains the model.
 */

/**
 * Where a booking stands. `pending` is a request (« demande ») the owner accepts or declines; one left
 * unanswered past its deadline becomes `expired` (the client and the owner are told). `pending` and
 * `confirmed` hold their time (they have occupancy rows), the others do not, except `no_show` and `done`,
 * which keep the time they took so that the agenda's history stays true. `awaiting_payment` waits for its
 * deposit (decision 0186): it holds its slot until its payment window closes (`respond_by`), then expires.
 */
export const BOOKING_STATES = [
  "pending",
  "awaiting_payment",
  "confirmed",
  "declined",
  "expired",
  "cancelled",
  "no_show",
  "done",
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

/**
 * Still to come and the owner's or the client's to change: a request, a booking waiting for its deposit
 * (decision 0186), a confirmed one. Each may be moved or cancelled (the client until the cut-off); a booking
 * waiting for its deposit cancelled has its order cancelled, a late payment refunded.
 */
export const ACTIVE_STATES = [
  "pending",
  "awaiting_payment",
  "confirmed",
] as const satisfies readonly BookingState[];
export const isActive = (state: BookingState) =>
  (ACTIVE_STATES as readonly BookingState[]).includes(state);

/** Refused, expired or cancelled: the session will not take place (its calendar event says CANCELLED). */
export const isCalledOff = (state: BookingState) =>
  state === "declined" || state === "expired" || state === "cancelled";

/**
 * Each state's own label. `expired` reads « Demande expirée » only for a request left unanswered: what the
 * owner and the client read is `bookingStateLabel`'s.
 */
export const BOOKING_STATE_LABELS: Record<BookingState, string> = {
  pending: "Demande en attente",
  awaiting_payment: "En attente de paiement",
  confirmed: "Confirmée",
  declined: "Refusée",
  expired: "Demande expirée",
  cancelled: "Annulée",
  no_show: "Absence",
  done: "Effectuée",
};

/**
 * A booking's state as the owner and its client read it, and as the owner's list filters it: `expired` says
 * why it lapsed, a request left unanswered (`expired`) or a deposit awaited that did not come (`unpaid`,
 * decision 0186), which was no request; waiting for its payment or lapsed, one whose deposit card payment
 * is held for the owner's decision reads that it came (`awaiting_held`, `unpaid_held`, decision 0172).
 */
export const BOOKING_STATE_READINGS = [
  "pending",
  "awaiting_payment",
  "awaiting_held",
  "confirmed",
  "declined",
  "expired",
  "unpaid",
  "unpaid_held",
  "cancelled",
  "no_show",
  "done",
] as const;
export type BookingStateReading = (typeof BOOKING_STATE_READINGS)[number];

/** What the owner and the client read for each reading of a state. */
export const BOOKING_STATE_READING_LABELS: Record<BookingStateReading, string> = {
  ...BOOKING_STATE_LABELS,
  awaiting_held: "En attente : paiement reçu, à vérifier",
  unpaid: "Non confirmée : paiement non reçu",
  unpaid_held: "Non confirmée : paiement reçu, à vérifier",
};

/**
 * How a booking's state reads: expired once its deposit was awaited (`depositAwaited`: an order was made
 * for it, or it lapsed waiting for one, which a request does only once accepted), it is `unpaid`; waiting
 * for its payment or lapsed while a card payment of its deposit, taken for another total, waits for the
 * owner's decision (`depositHeld`, decision 0172), it reads that the payment came.
 */
export function bookingStateReading(
  state: BookingState,
  depositAwaited: boolean,
  depositHeld = false,
): BookingStateReading {
  if (depositHeld && state === "awaiting_payment") return "awaiting_held";
  if (depositHeld && state === "expired") return "unpaid_held";
  return state === "expired" && depositAwaited ? "unpaid" : state;
}

/**
 * A booking's state as its owner and its client read it (her page, her e-mails, the owner's agenda, list,
 * booking page, export and calendar feed): one that lapsed while its deposit was awaited was no request
 * left unanswered, but a payment that did not come.
 */
export function bookingStateLabel(
  state: BookingState,
  depositAwaited: boolean,
  /**
   * A card payment of its deposit, taken for another total, waits for the owner's decision (decision
   * 0172): what its client and the owner read while it waits or once its window closed is that it came.
   */
  depositHeld = false,
): string {
  return BOOKING_STATE_READING_LABELS[bookingStateReading(state, depositAwaited, depositHeld)];
}

/** Booked at once (`instant`) or asked for (`request`): the owner answers within the type's deadline. */
export const SESSION_MODES = ["instant", "request"] as const;
export type SessionMode = (typeof SESSION_MODES)[number];

/** Listed on /reserver (`public`) or reachable only through its private link (`private`). */
export const SESSION_VISIBILITIES = ["public", "private"] as const;
export type SessionVisibility = (typeof SESSION_VISIBILITIES)[number];

/** Who made a booking: the visitor on the site, or the owner (a booking taken by phone). */
export const BOOKING_SOURCES = ["client", "owner"] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];

/** The lines of a booking's history (`booking_events`). */
export const BOOKING_EVENT_KINDS = [
  "requested",
  "booked",
  "deposit_paid",
  "deposit_refunded",
  "refund_proposed",
  "accepted",
  "declined",
  "expired",
  "cancelled",
  "moved",
  "no_show",
  "done",
  // The owner corrected the client's name, e-mail or phone (its detail keeps before and after).
  "client_changed",
] as const;
export type BookingEventKind = (typeof BOOKING_EVENT_KINDS)[number];

/** Who did what a history line says. */
export const BOOKING_ACTORS = ["client", "owner", "system"] as const;
export type BookingActor = (typeof BOOKING_ACTORS)[number];

/** Defaults of a session type (decision 0113). */
export const SESSION_TYPE_DEFAULTS = {
  minimumNoticeHours: 24,
  horizonDays: 90,
  stepMinutes: 30,
  responseDeadlineHours: 48,
  cancellationCutoffHours: 48,
} as const;

/**
 * Travel time between two studios the owner has not given yet: long enough that a photographer is never
 * booked in two towns too close together; the owner sets the real figure per pair.
 */
export const UNKNOWN_TRAVEL_MINUTES = 120;
