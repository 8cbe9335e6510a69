/**
 * The addresses of online booking (decision 0115), one step per page, every choice in the address
 * so that each step is a plain link that works without JavaScript and can be reloaded or shared:
 *
 * - `/reserver`: the studios that take bookings on the site (`?seance={séance}`: those offering that one);
 * - `/reserver/{studio}`: the session types offered there (a private one only with `?lien={secret}`);
 * - `/reserver/{studio}/{séance}?mois={AAAA-MM}&jour={jour}`: a month of free days (decision 0124), and the
 *   free times of `jour`;
 * - `/reserver/{studio}/{séance}/coordonnees?creneau={AAAA-MM-JJTHH:MM}`: the client's details, posted to the
 *   same address;
 * - `/reservation/{jeton}`: the client's own page (see, cancel, move), from the e-mails.
 *
 * A private session type's secret travels as `lien` on every step.
 */

const withQuery = (path: string, query: Record<string, string | null | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

export const BOOKING_HOME_PATH = "/reserver";

/** `/reserver?seance={séance}`: the studios where a session type can be booked, to choose one. */
export const bookingChooserPath = (sessionTypeSlug: string) =>
  withQuery(BOOKING_HOME_PATH, { seance: sessionTypeSlug });

export const bookingStudioPath = (studioSlug: string, privateToken?: string | null) =>
  withQuery(`/reserver/${studioSlug}`, { lien: privateToken });

export const bookingDaysPath = (
  studioSlug: string,
  sessionTypeSlug: string,
  query: { lien?: string | null; mois?: string | null; jour?: string | null } = {},
) => withQuery(`/reserver/${studioSlug}/${sessionTypeSlug}`, query);

export const bookingDetailsPath = (
  studioSlug: string,
  sessionTypeSlug: string,
  slotKey: string,
  privateToken?: string | null,
) =>
  withQuery(`/reserver/${studioSlug}/${sessionTypeSlug}/coordonnees`, {
    creneau: slotKey,
    lien: privateToken,
  });

export const managePath = (token: string, query: Record<string, string | null | undefined> = {}) =>
  withQuery(`/reservation/${token}`, query);

/** The booking's calendar file, from the client's page (« Ajouter à mon agenda », decision 0124). */
export const manageIcsPath = (token: string) => `/reservation/${token}/seance.ics`;

/**
 * An invoice or credit note of the booking as a PDF, from the client's page and e-mails: those of the gift
 * vouchers' uses that paid it and its balance's final invoice (decisions 0199 and 0201).
 */
export const manageInvoicePath = (token: string, number: string) =>
  `/reservation/${token}/facture/${number}.pdf`;
