const frenchDate = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "Europe/Paris",
});

/** A date as French visitors read it, in the studios' time zone: '5 mars 2025'. */
export function formatDateFr(date: Date | string): string {
  return frenchDate.format(typeof date === "string" ? new Date(date) : date);
}
