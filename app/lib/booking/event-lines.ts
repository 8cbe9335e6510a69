import type { BookingActor, BookingEventKind } from "./model";
import { instantLabelFr } from "./words";

/*
 * A booking's history in the owner's words (issue 25): one French sentence per `booking_events` row.
 */

export type BookingEventView = {
  kind: BookingEventKind;
  actor: BookingActor;
  actorName: string;
  detail: Record<string, unknown>;
};

const VERBS: Record<BookingEventKind, string> = {
  requested: "Demande envoyée",
  booked: "Réservée",
  accepted: "Demande acceptée",
  declined: "Demande refusée",
  expired: "Demande expirée sans réponse avant la date limite (le client est prévenu)",
  cancelled: "Annulée",
  moved: "Déplacée",
  no_show: "Absence notée",
  done: "Séance effectuée",
};

function who(event: BookingEventView): string {
  if (event.kind === "expired") return "";
  if (event.actor === "system") return " automatiquement";
  if (event.actor === "client")
    return ` par le client${event.actorName ? ` (${event.actorName})` : ""}`;
  return event.actorName ? ` par ${event.actorName}` : " par l'administration";
}

/** « Déplacée du 3 décembre 2026 à 10:30 au 4 décembre 2026 à 14:00 par Marie ». */
export function eventSentence(event: BookingEventView): string {
  const from = typeof event.detail.from === "string" ? event.detail.from : null;
  const to = typeof event.detail.to === "string" ? event.detail.to : null;
  const move =
    event.kind === "moved" && from && to
      ? ` du ${instantLabelFr(from)} au ${instantLabelFr(to)}`
      : "";
  const byPhone =
    event.kind === "booked" && event.actor === "owner" ? " (prise par téléphone)" : "";
  return `${VERBS[event.kind]}${move}${who(event)}${byPhone}`;
}

/** The message the owner or the client wrote with a refusal or a cancellation, if any. */
export function eventMessage(event: BookingEventView): string | null {
  return typeof event.detail.message === "string" && event.detail.message !== ""
    ? event.detail.message
    : null;
}
