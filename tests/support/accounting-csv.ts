/*
 * The accountant's files (decision 0182) as a spreadsheet reads them: the tests of the exports and of the
 * invoices they list read them back through this.
 */

/** The file's rows: no BOM, `;` between cells, quotes taken off. Throws on a file without its BOM. */
export function parseAccountingCsv(csv: string): string[][] {
  if (!csv.startsWith("\uFEFF")) throw new Error("an accounting file starts with a BOM");
  return csv
    .slice(1)
    .split("\r\n")
    .filter((line) => line !== "")
    .map((line) =>
      (line.match(/("([^"]|"")*"|[^;]*)(;|$)/g) ?? [])
        .filter((cell) => cell !== "")
        .map((cell) => cell.replace(/;$/, "").replace(/^"|"$/g, "").replace(/""/g, '"')),
    );
}
