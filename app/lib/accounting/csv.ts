import { csvCell } from "~/lib/csv";
import { formatDateTimeFr, parisWallTimeInstants, parisWallTimeOf } from "~/lib/dates";

/*
 * The accountant's CSV files (decision 0182): what a French spreadsheet opens as it is, UTF-8 with a BOM,
 * `;` between cells, CRLF between rows, amounts as numbers with a decimal comma (« -30,00 », no thousands
 * separator, no currency sign, never quoted, so that they sum), dates as « 31/01/2027 », every text quoted
 * and defused (`csvCell`).
 */

/** A cell: a text, an amount in cents written as a number, or nothing (an empty cell, that sums as 0). */
export type AccountingCell = string | { cents: number } | null;

/** « 1234,50 », « -30,00 », « 0,00 ». */
export function csvAmount(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

/** « 2027-01-31 » → « 31/01/2027 ». */
export function csvDay(isoDay: string): string {
  const [year, month, day] = isoDay.split("-");
  return `${day}/${month}/${year}`;
}

/**
 * An instant as Paris's clocks read it, « 31/10/2027 14:05 » (what a French spreadsheet reads as a date
 * and time). In the hour the autumn change repeats, the same words stand for two instants an hour apart:
 * there the offset from UTC tells them apart, « 31/10/2027 02:30 (UTC+2) » then « … 02:30 (UTC+1) ».
 */
export function csvParisDateTime(at: Date): string {
  const wall = parisWallTimeOf(at.getTime());
  const text = formatDateTimeFr(at);
  if (parisWallTimeInstants(wall).length < 2) return text;
  return `${text} (UTC+${Math.round((wall - at.getTime()) / 3_600_000)})`;
}

/** The whole file: the BOM, the header, the rows. */
export function accountingCsv(
  header: readonly string[],
  rows: readonly AccountingCell[][],
): string {
  const line = (cells: readonly AccountingCell[]) =>
    cells
      .map((cell) =>
        cell === null ? "" : typeof cell === "string" ? csvCell(cell) : csvAmount(cell.cents),
      )
      .join(";");
  return `\uFEFF${[line(header), ...rows.map(line)].join("\r\n")}\r\n`;
}
