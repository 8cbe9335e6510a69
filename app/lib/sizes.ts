/**
 * A size as a person reads it, the one form of the product (decision 0139): « 850 octets », « 12 Ko »,
 * « 1,4 Mo », « 2,3 Go ». Binary units (1 Ko = 1 024 octets), as Windows's Explorer counts and as the
 * product's limits are set (50 × 1 024 × 1 024 octets reads « 50 Mo »). One decimal below 10 of a unit,
 * none above; French digit grouping (Intl fr-FR) and a non-breaking space before the unit, so that
 * « 12 Ko » never breaks across two lines.
 */
const UNITS = ["Ko", "Mo", "Go", "To"] as const;
const NBSP = "\u00a0";

const oneDecimal = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0 });

export function formatSize(bytes: number): string {
  const count = Math.max(0, Math.round(bytes));
  if (count < 1024) return `${whole.format(count)}${NBSP}${count < 2 ? "octet" : "octets"}`;
  let value = count / 1024;
  let unit = 0;
  // 1 023,96 Ko would round to « 1 024 Ko »: the next unit reads better (« 1 Mo »).
  while (unit < UNITS.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unit += 1;
  }
  const digits = Math.round(value * 10) / 10 < 10 ? oneDecimal : whole;
  return `${digits.format(value)}${NBSP}${UNITS[unit]}`;
}
