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

const frenchDateTime = new Intl.DateTimeFormat("fr-FR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Paris",
});

/** Date and time for tables and exports, in the studios' time zone: '23/11/2026 14:32'. */
export function formatDateTimeFr(date: Date | string): string {
  // Intl writes "23/11/2026 14:32" (some versions put a comma after the date): one form for spreadsheets.
  return frenchDateTime.format(typeof date === "string" ? new Date(date) : date).replace(",", "");
}

const parisDay = new Intl.DateTimeFormat("en-CA", {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  timeZone: "Europe/Paris",
});

/** The day in Paris as YYYY-MM-DD (file names that sort by date). */
export function isoDayInParis(date: Date): string {
  return parisDay.format(date);
}
