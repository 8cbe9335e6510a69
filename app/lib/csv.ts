/**
 * One cell of the admin's CSV exports (subscribers, a gallery's selection): quoted, quotes doubled, and a
 * leading = + - @ (or tab, carriage return) defused with an apostrophe, since spreadsheets run formulas and
 * some of these texts come from visitors.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
