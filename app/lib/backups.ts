/** The word the owner types to confirm a restore (/admin/sauvegardes; the action checks it again). */
export const RESTORE_WORD = "RESTAURER";

/** The search parameter that opens a backup's restore confirmation (works without JavaScript). */
export const RESTORE_PARAM = "restaurer";

/** What a restore of a backup taken at `since` would erase: what was made on the site after it. */
export type ErasedSince = {
  bookings: number;
  galleries: number;
  messages: number;
  subscribers: number;
  /** The clients of the bookings erased, to call them: by the time of their session. */
  clients: Array<{ name: string; phone: string; email: string; startsAt: string }>;
};

/** « 3 réservations faites depuis disparaîtront », and so on; with one or none in the singular. */
export function erasedSentences(erased: ErasedSince): string[] {
  const sentence = (n: number, one: string, many: string, verbOne: string, verbMany: string) =>
    n === 0 ? null : `${n} ${n === 1 ? one : many} depuis ${n === 1 ? verbOne : verbMany}`;
  return [
    sentence(
      erased.bookings,
      "réservation faite",
      "réservations faites",
      "disparaîtra",
      "disparaîtront",
    ),
    sentence(
      erased.galleries,
      "galerie client créée",
      "galeries clients créées",
      "disparaîtra",
      "disparaîtront",
    ),
    sentence(erased.messages, "message reçu", "messages reçus", "disparaîtra", "disparaîtront"),
    sentence(
      erased.subscribers,
      "abonné inscrit",
      "abonnés inscrits",
      "disparaîtra",
      "disparaîtront",
    ),
  ].filter((line): line is string => line !== null);
}
