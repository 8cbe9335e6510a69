import { BOOKING_STATE_READING_LABELS, type BookingActor, type BookingEventKind } from "./model";
import { instantLabelFr } from "./words";

/*
 * A booking's history in the owner's words (decision 0116): one French sentence per `booking_events` row.
 */

export type BookingEventView = {
  kind: BookingEventKind;
  actor: BookingActor;
  actorName: string;
  /** The administrator's account, when it still exists, and its current e-mail address. */
  actorUserId?: string | null;
  actorEmail?: string | null;
  detail: Record<string, unknown>;
};

const VERBS: Record<BookingEventKind, string> = {
  requested: "Demande envoyée",
  booked: "Réservée",
  deposit_paid: "Paiement reçu : réservation confirmée",
  deposit_refunded: "Paiement remboursé",
  refund_proposed: "Annulée dans les délais : remboursement du paiement à faire",
  accepted: "Demande acceptée",
  declined: "Demande refusée",
  expired: "Demande expirée sans réponse avant la date limite (le client est prévenu)",
  cancelled: "Annulée",
  moved: "Déplacée",
  no_show: "Absence notée",
  done: "Séance effectuée",
  client_changed: "Coordonnées du client corrigées",
};

/**
 * Who did it, as the administrator reading the history says it (decision 0138): « par vous » for what she did
 * herself, another administrator by her e-mail address (accounts have no display name, and their name is a
 * login word), the address recorded at the time when the account has gone.
 */
function who(event: BookingEventView, viewerId: string | undefined): string {
  if (event.kind === "expired") return "";
  if (event.actor === "system") return " automatiquement";
  if (event.actor === "client")
    return ` par le client${event.actorName ? ` (${event.actorName})` : ""}`;
  if (viewerId !== undefined && event.actorUserId === viewerId) return " par vous";
  if (event.actorEmail) return ` par ${event.actorEmail}`;
  return event.actorName.includes("@") ? ` par ${event.actorName}` : " par l'administration";
}

/** What the client was sent of a booking the owner took by phone, when nothing (decision 0138). */
function clientMailNote(event: BookingEventView): string {
  if (event.detail.clientMail === "no_address")
    return ", sans e-mail : rien n'est envoyé au client";
  if (event.detail.clientMail === "not_sent") return ", sans e-mail au client";
  return "";
}

/** The client's details a correction changed, as the owner reads them, from its detail's `before`/`after`. */
const CLIENT_FIELDS = { name: "nom", email: "e-mail", phone: "téléphone" } as const;

function clientChanges(event: BookingEventView): string {
  const { before, after, recapTo } = event.detail;
  if (
    typeof before !== "object" ||
    before === null ||
    typeof after !== "object" ||
    after === null
  ) {
    return "";
  }
  const shown = (value: unknown) =>
    typeof value === "string" && value !== "" ? `« ${value} »` : "aucun";
  const changes = Object.entries(CLIENT_FIELDS).flatMap(([field, word]) => {
    const was = (before as Record<string, unknown>)[field];
    const now = (after as Record<string, unknown>)[field];
    return was === now ? [] : [`${word} ${shown(was)} → ${shown(now)}`];
  });
  const recap =
    typeof recapTo === "string" ? ` ; récapitulatif de la réservation envoyé à ${recapTo}` : "";
  return changes.length > 0 ? ` : ${changes.join(" ; ")}${recap}` : recap;
}

/**
 * What happened, as the owner reads it. A booking that lapsed while its deposit was awaited (`unpaid`), or
 * whose payment came once its slot was gone (`lateDeposit`), was no request left unanswered (decision 0186):
 * its line says what the booking's state says.
 */
function verbOf(event: BookingEventView): string {
  if (event.kind !== "expired") return VERBS[event.kind];
  if (event.detail.lateDeposit === true) {
    return "Paiement arrivé après la libération du créneau : remboursement en entier (le client est prévenu)";
  }
  if (event.detail.unpaid === true) {
    return `${BOOKING_STATE_READING_LABELS.unpaid} avant la date limite (le client est prévenu)`;
  }
  return VERBS.expired;
}

/**
 * « Déplacée du jeudi 3 décembre 2026 à 10 h 30 au vendredi 4 décembre 2026 à 14 h par vous », as
 * `viewerId` (the administrator reading) reads it.
 */
export function eventSentence(event: BookingEventView, viewerId?: string): string {
  const from = typeof event.detail.from === "string" ? event.detail.from : null;
  const to = typeof event.detail.to === "string" ? event.detail.to : null;
  const move =
    event.kind === "moved" && from && to
      ? ` du ${instantLabelFr(from)} au ${instantLabelFr(to)}`
      : "";
  const byPhone =
    event.kind === "booked" && event.actor === "owner"
      ? ` (prise par téléphone${clientMailNote(event)})`
      : "";
  const changes = event.kind === "client_changed" ? clientChanges(event) : "";
  return `${verbOf(event)}${move}${who(event, viewerId)}${byPhone}${changes}`;
}

/** The message the owner or the client wrote with a refusal or a cancellation, if any. */
export function eventMessage(event: BookingEventView): string | null {
  return typeof event.detail.message === "string" && event.detail.message !== ""
    ? event.detail.message
    : null;
}
