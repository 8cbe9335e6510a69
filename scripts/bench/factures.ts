// Section « factures » (decision 0183): the invoices on the production code, in a process of its own
// (scripts/bench/issue-invoices.ts, the app's modules from the build) on a throwaway embedded PostgreSQL:
// 1,000 paid orders' invoices issued as the site issues them, each with its PDF, and this process's RSS
// growth; then the accountant's files of a period holding 10,000 invoices (decision 0182).
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Context } from "./context.ts";
import { check, metric, percentile, type SectionResult } from "./report.ts";
import { cleanUpCluster, makeDataDir, removeDataDir } from "./server.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The budgets of the issue that brought the invoices (decisions 0181, 0182). */
export const INVOICE_BUDGETS = {
  /** 1,000 invoices issued, PDF included, on the 2 shared cores. */
  issueThousandS: 60,
  /** The issuing process's RSS growth over them. */
  rssGrowthMiB: 64,
  /** Each file of the export of 10,000 invoices. */
  exportS: 5,
};

type Counts = { invoices: number; exported: number };
const FULL: Counts = { invoices: 1_000, exported: 10_000 };
const QUICK: Counts = { invoices: 100, exported: 1_000 };

type Figures = {
  issueCount: number;
  setupMs: number;
  totalMs: number;
  perInvoice: number[];
  issuing: number[];
  rendering: number[];
  pdfBytes: number;
  notPdf: number;
  notIssued: number;
  invoicesIssued: number;
  counterLast: number;
  rssBefore: number;
  rssAfter: number;
  peakRss: number;
  gcExposed: boolean;
  exportInvoices: number;
  exportPayments: number;
  period: { from: string; to: string };
  files: Record<"salesJournal" | "receiptsBook", { ms: number; rows: number; bytes: number }>;
};

const MiB = 1024 * 1024;
const ms = (values: number[], p: number) => (values.length ? percentile(values, p) : Number.NaN);

/** Runs issue-invoices.ts on the data directory's own embedded PostgreSQL; its figures. */
async function runIssuer(context: Context, dataDir: string, counts: Counts): Promise<Figures> {
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      path.join(root, "scripts/bench/issue-invoices.ts"),
      String(counts.invoices),
      String(counts.exported),
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const timer = setTimeout(() => child.kill("SIGKILL"), 30 * 60_000);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  const line = output
    .split("\n")
    .reverse()
    .find((each) => each.startsWith("{") && each.includes('"totalMs"'));
  if (code !== 0 || !line) throw new Error(`issue-invoices.ts (${code}) :\n${output.slice(-3000)}`);
  context.log("factures: mesures reçues du processus d'émission");
  return JSON.parse(line) as Figures;
}

export async function invoicesSection(context: Context): Promise<Partial<SectionResult>> {
  const counts = context.quick ? QUICK : FULL;
  const dataDir = await makeDataDir("factures");
  try {
    context.log(
      `factures: ${counts.invoices} commandes payées, leurs factures et PDF, puis ${counts.exported} factures exportées`,
    );
    const figures = await runIssuer(context, dataDir, counts);
    return result(counts, figures);
  } finally {
    await cleanUpCluster(dataDir);
    await removeDataDir(dataDir);
  }
}

function result(counts: Counts, figures: Figures): Partial<SectionResult> {
  // The budget is for 1,000: a quick run's time is scaled to it.
  const scaledS = (figures.totalMs / 1000) * (1_000 / counts.invoices);
  const growthMiB = (figures.rssAfter - figures.rssBefore) / MiB;
  const { salesJournal, receiptsBook } = figures.files;
  return {
    title: "Factures : émission avec PDF, mémoire, export comptable",
    tables: [
      {
        caption: `${figures.issueCount} paid orders' invoices issued one after the other as the site issues them (\`invoicePaidOrder\` in a transaction under the order's lock), each followed by its PDF (\`invoicePdf\`), in one process`,
        columns: ["figure", "value"],
        rows: [
          ["invoices issued", metric(figures.invoicesIssued, "", { equals: counts.invoices })],
          [
            "numbers without a gap (the counter's last = the count)",
            check(
              figures.counterLast === figures.invoicesIssued && figures.notIssued === 0,
              `last F number ${figures.counterLast}, ${figures.notIssued} not issued`,
            ),
          ],
          ["PDFs (each starting with %PDF-)", metric(figures.notPdf, "not PDF", { equals: 0 })],
          [
            "PDF size, mean",
            metric(
              figures.pdfBytes / Math.max(1, figures.perInvoice.length) / 1024,
              "KB",
              undefined,
              1,
            ),
          ],
          [`total for ${figures.issueCount}`, metric(figures.totalMs / 1000, "s", undefined, 1)],
          ["the same for 1,000", metric(scaledS, "s", { max: INVOICE_BUDGETS.issueThousandS }, 1)],
          ["invoice + PDF p50", metric(ms(figures.perInvoice, 50), "ms", undefined, 1)],
          ["invoice + PDF p95", metric(ms(figures.perInvoice, 95), "ms", undefined, 1)],
          [
            "of which issuing p50 (the transaction)",
            metric(ms(figures.issuing, 50), "ms", undefined, 1),
          ],
          ["of which the PDF p50", metric(ms(figures.rendering, 50), "ms", undefined, 1)],
          ["RSS before", metric(figures.rssBefore / MiB, "MiB", undefined, 1)],
          ["RSS after", metric(figures.rssAfter / MiB, "MiB", undefined, 1)],
          ["RSS growth", metric(growthMiB, "MiB", { max: INVOICE_BUDGETS.rssGrowthMiB }, 1)],
          ["RSS peak (sampled every 50)", metric(figures.peakRss / MiB, "MiB", undefined, 1)],
        ],
      },
      {
        caption: `The accountant's files (decision 0182) of ${figures.period.from} – ${figures.period.to}, over ${figures.exportInvoices} invoices and ${figures.exportPayments} payments in the journal`,
        columns: ["file", "rows", "size", "time"],
        rows: [
          [
            "journal des ventes (`salesJournal`)",
            metric(salesJournal.rows, "", { min: figures.exportInvoices }),
            metric(salesJournal.bytes / 1024, "KB", undefined, 0),
            metric(salesJournal.ms / 1000, "s", { max: INVOICE_BUDGETS.exportS }, 2),
          ],
          [
            "livre des recettes (`receiptsBook`)",
            metric(receiptsBook.rows, "", { equals: figures.exportPayments }),
            metric(receiptsBook.bytes / 1024, "KB", undefined, 0),
            metric(receiptsBook.ms / 1000, "s", { max: INVOICE_BUDGETS.exportS }, 2),
          ],
        ],
      },
    ],
    notes: [
      `\`scripts/bench/issue-invoices.ts\`, in a process of its own started with \`--expose-gc\` (the app's modules from the production build, as the command-line tools load them), on a throwaway embedded PostgreSQL: ${figures.issueCount} voucher orders by transfer (\`createOrder\`) marked paid (\`markPaidOffline\`: the succeeded attempt, the journal's payment row, the e-mails queued, never sent) while the seller's identity is incomplete, so that their invoices are held back (decision 0181); that part is not timed (${(figures.setupMs / 1000).toFixed(1)} s). The order kind's own effects are replaced by none (the ventes section measures a voucher's issuing). Then the identity is completed (\`saveDocument\`) and each invoice is issued and rendered as above, one after the other; the first PDF's fonts are counted.`,
      `RSS: \`process.memoryUsage().rss\` of that process after two full collections (${figures.gcExposed ? "--expose-gc" : "no gc exposed"}), just before the first invoice and after the last. Budgets: ${INVOICE_BUDGETS.issueThousandS} s for 1,000 invoices with their PDFs, RSS growth ≤ ${INVOICE_BUDGETS.rssGrowthMiB} MiB.`,
      `Export: the invoices are brought to ${figures.exportInvoices} with SQL copies of the last one issued (the next numbers, the counter updated in the same transaction, no order of their own: one sale invoice per order), then \`salesJournal\` and \`receiptsBook\` of the period covering them are each timed; the receipts book lists the ${figures.exportPayments} payments of the journal. Budget ≤ ${INVOICE_BUDGETS.exportS} s a file.`,
    ],
    data: {
      counts,
      setupMs: figures.setupMs,
      totalMs: figures.totalMs,
      scaledThousandS: scaledS,
      perInvoice: { p50: ms(figures.perInvoice, 50), p95: ms(figures.perInvoice, 95) },
      issuingP50: ms(figures.issuing, 50),
      renderingP50: ms(figures.rendering, 50),
      pdfBytes: figures.pdfBytes,
      rss: {
        before: figures.rssBefore,
        after: figures.rssAfter,
        peak: figures.peakRss,
        growthMiB,
        gcExposed: figures.gcExposed,
      },
      invoicesIssued: figures.invoicesIssued,
      export: {
        invoices: figures.exportInvoices,
        payments: figures.exportPayments,
        period: figures.period,
        files: figures.files,
      },
    },
  };
}
