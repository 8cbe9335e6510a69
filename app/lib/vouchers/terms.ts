/**
 * The terms of gift vouchers (decision 0164): how long one is valid, how long its buyer may change their
 * mind, and the conditions shown before ordering, in the PDF and in the e-mails. Dates are the studios'
 * calendar days (Europe/Paris), written « YYYY-MM-DD ».
 */
import { FRENCH_MONTHS, isoDayInParis } from "~/lib/dates";
import { formatCents } from "~/lib/prices";

/** How long a voucher is valid when the owner has not chosen otherwise. */
export const DEFAULT_VOUCHER_VALIDITY_MONTHS = 12;

/** The buyer's withdrawal period (Code de la consommation, L221-18), for a voucher not used yet. */
export const VOUCHER_WITHDRAWAL_DAYS = 14;

/**
 * What the order form accepts for the voucher's texts: the PDF is laid out so that the longest of each, all
 * at once, fits on its one page (voucher-pdf.test.ts).
 */
export const VOUCHER_TEXT_LIMITS = {
  /** The recipient's and the buyer's names. */
  name: 60,
  message: 500,
  messageLines: 8,
} as const;

/** What a voucher gives: a session (at one studio, or any when `studioName` is null), or an amount. */
export type VoucherCover =
  | { kind: "session"; sessionName: string; studioName: string | null }
  | { kind: "amount"; cents: number };

export type VoucherKind = VoucherCover["kind"];

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayParts(isoDay: string): { year: number; month: number; day: number } {
  const match = ISO_DAY.exec(isoDay);
  if (!match) throw new RangeError(`not a calendar day: ${isoDay}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

const isoDay = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

const daysInMonth = (year: number, month: number) =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The same day `months` later, or the last day of that month when it has no such day: 29 February + 12
 * months is 28 February, 31 January + 1 month the last day of February. It is how French law counts a
 * period in months (Code de procédure civile, art. 641), so a voucher never gets a day its buyer would not
 * expect, nor loses one.
 */
export function addCalendarMonths(day: string, months: number): string {
  if (!Number.isInteger(months) || months < 0)
    throw new RangeError(`not a number of months: ${months}`);
  const start = dayParts(day);
  const monthIndex = start.month - 1 + months;
  const year = start.year + Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return isoDay(year, month, Math.min(start.day, daysInMonth(year, month)));
}

/** `days` calendar days after `day`. */
export function addCalendarDays(day: string, days: number): string {
  const { year, month, day: date } = dayParts(day);
  const moved = new Date(Date.UTC(year, month - 1, date + days));
  return isoDay(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate());
}

/**
 * The last day a voucher issued at `issuedAt` can be used (included): its Paris day `validityMonths` later,
 * « valable 12 mois » from 29 November 2026 meaning until 29 November 2027 at midnight. A voucher sent on a
 * later day the buyer chose (`deliveryDay`) counts from that day: its recipient gets the whole validity,
 * and it can never expire before it reaches her.
 */
export function voucherExpiryDay(
  issuedAt: Date,
  validityMonths: number = DEFAULT_VOUCHER_VALIDITY_MONTHS,
  deliveryDay: string | null = null,
): string {
  const issued = isoDayInParis(issuedAt);
  const from = deliveryDay !== null && deliveryDay > issued ? deliveryDay : issued;
  return addCalendarMonths(from, validityMonths);
}

/** Whether a voucher whose last day is `expiryDay` can no longer be used at `now` (Paris's calendar). */
export function isVoucherExpired(expiryDay: string, now: Date): boolean {
  return isoDayInParis(now) > expiryDay;
}

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, « Meeus/Jones/Butcher »). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return isoDay(year, month, day);
}

/** Whether a day is a public holiday in metropolitan France (Code du travail, L3133-1). */
export function isFrenchPublicHoliday(day: string): boolean {
  const { year } = dayParts(day);
  const easter = easterSunday(year);
  const fixed = ["01-01", "05-01", "05-08", "07-14", "08-15", "11-01", "11-11", "12-25"];
  const moving = [1, 39, 50].map((offset) => addCalendarDays(easter, offset)); // Monday, Ascension, Whit Monday
  return fixed.some((monthDay) => day === `${year}-${monthDay}`) || moving.includes(day);
}

const isWeekend = (day: string) => {
  const { year, month, day: date } = dayParts(day);
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return weekday === 0 || weekday === 6;
};

/**
 * The last day the buyer of an order placed at `orderedAt` may withdraw (included): 14 days after the day of
 * the order, moved to the next working day when it falls on a Saturday, a Sunday or a public holiday (Code
 * de la consommation, L221-19).
 */
export function withdrawalLastDay(orderedAt: Date): string {
  let day = addCalendarDays(isoDayInParis(orderedAt), VOUCHER_WITHDRAWAL_DAYS);
  while (isWeekend(day) || isFrenchPublicHoliday(day)) day = addCalendarDays(day, 1);
  return day;
}

/** Whether the withdrawal period of an order placed at `orderedAt` is still open at `now`. */
export function isWithinWithdrawalPeriod(orderedAt: Date, now: Date): boolean {
  return isoDayInParis(now) <= withdrawalLastDay(orderedAt);
}

/** A calendar day as French writes it: « 29 novembre 2027 », « 1er mars 2028 ». */
export function formatCalendarDayFr(day: string): string {
  const { year, month, day: date } = dayParts(day);
  return `${date === 1 ? "1er" : date} ${FRENCH_MONTHS[month - 1] ?? ""} ${year}`;
}

/** « Valable jusqu'au 29 novembre 2027 ». */
export function voucherValidityLine(expiryDay: string): string {
  return `Valable jusqu'au ${formatCalendarDayFr(expiryDay)}`;
}

/**
 * What a voucher gives, in one line: « Séance portrait en studio, studio de Brive », « Séance portrait en
 * studio, dans le studio de votre choix », « Valable pour 150 € ».
 */
export function voucherCoverLine(cover: VoucherCover): string {
  if (cover.kind === "amount") return `Valable pour ${formatCents(cover.cents)}`;
  return `${cover.sessionName}, ${cover.studioName ?? "dans le studio de votre choix"}`;
}

const monthsText = (months: number) => `${months} mois`;

/**
 * The conditions of a voucher, one paragraph each, shown before the order button, on the order's page and
 * in the e-mails. Plain words: a studio's promises, not a contract's clauses.
 */
export function voucherTerms({
  kind,
  validityMonths = DEFAULT_VOUCHER_VALIDITY_MONTHS,
}: {
  kind: VoucherKind;
  validityMonths?: number;
}): string[] {
  return [
    kind === "session"
      ? "Le bon offre la séance indiquée dessus, au studio indiqué (ou dans celui de son choix s'il n'en précise aucun). Son bénéficiaire réserve en ligne avec le code du bon, ou en nous appelant."
      : "Le bon offre le montant indiqué dessus, à utiliser dans nos studios en une ou plusieurs fois, jusqu'à ce qu'il soit épuisé : ce qui reste après chaque passage reste disponible avec le même code.",
    `Il est valable ${monthsText(validityMonths)} à partir de l'achat, ou du jour d'envoi choisi s'il est plus tard, jusqu'à la date écrite dessus. Un empêchement ? Écrivez-nous avant cette date : le studio peut prolonger le bon.`,
    "Il peut être offert ou transmis à une autre personne : c'est son code qui compte. Gardez-le pour vous jusqu'au jour du cadeau.",
    kind === "session"
      ? "Il n'est ni échangeable ni remboursable en espèces."
      : "Il n'est ni échangeable ni remboursable en espèces, et la part non utilisée n'est pas rendue en monnaie.",
    `Vous avez changé d'avis ? Tant que le bon n'a pas servi, vous pouvez l'annuler dans les ${VOUCHER_WITHDRAWAL_DAYS} jours qui suivent l'achat (jusqu'au jour ouvré suivant si le dernier jour tombe un week-end ou un jour férié), depuis la page de votre commande : nous vous remboursons le prix payé, par le moyen de paiement utilisé.`,
  ];
}

/** The conditions in one line, at the foot of the PDF. */
export function voucherTermsLine(kind: VoucherKind): string {
  return kind === "session"
    ? "Bon cessible, ni échangeable ni remboursable en espèces, prolongeable par le studio sur demande avant sa date de fin."
    : "Bon cessible, ni échangeable ni remboursable en espèces, utilisable en plusieurs fois jusqu'à épuisement du montant, prolongeable par le studio sur demande avant sa date de fin.";
}
