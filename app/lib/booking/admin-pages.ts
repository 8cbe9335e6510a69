import type { FormAnswer } from "~/lib/forms";

/*
 * What the admin pages of bookings (/admin/reservations…) and their route-local server modules both read
 * (decision 0157): the addresses' search parameters, the agenda's views and the refusals' shape.
 */

/** The agenda, /admin/reservations. */
export const AGENDA_PAGE = "/admin/reservations";
export const AGENDA_VIEWS = { jour: "Jour", semaine: "Semaine", liste: "Liste" } as const;
export type AgendaView = keyof typeof AGENDA_VIEWS;
/** How many days the list view covers from its date. */
export const AGENDA_LIST_DAYS = 60;

/** The field of a question's answer in the form that adds a booking (/admin/reservations/nouvelle). */
export const answerField = (questionId: string) => `reponse-${questionId}`;

/** The search parameters that open a step of a booking's page without JavaScript. */
export const BOOKING_STEP_PARAMS = {
  move: "deplacer",
  cancel: "annuler",
  decline: "refuser",
  client: "coordonnees",
} as const;

/** A refused form of a booking's page, and the step it reopens. */
export type BookingStepAnswer = FormAnswer<{
  message: string;
  step: "move" | "cancel" | "decline" | "note" | "client" | "balance" | "other";
}>;
