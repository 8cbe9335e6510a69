// `node --expose-gc scripts/bench/issue-invoices.ts <invoices> <export total>`, run by the « factures »
// section in a process of its own (decision 0183): the app's own modules from the build (the benchmark itself
// never imports the app), on DATA_DIR's embedded PostgreSQL. Makes `invoices` paid orders while the seller's
// identity is incomplete (their invoices held back, decision 0181), completes it, then issues each invoice as
// the site does (invoicePaidOrder in a transaction under the order's lock) and renders its PDF (invoicePdf),
// timed, with this process's RSS before and after; then adds invoice rows up to `export total` and times the
// accountant's files (decision 0182). Prints the figures as JSON on its last line.
import path from "node:path";
import pg from "pg";
import type * as ExportsModule from "../../app/server/accounting/exports.server.ts";
import type * as JobsBootModule from "../../app/server/boot/jobs.server.ts";
import type * as ContentStoreModule from "../../app/server/content/content-store.server.ts";
import type * as InvoicesModule from "../../app/server/invoices/orders.server.ts";
import type * as QueueModule from "../../app/server/jobs/queue.server.ts";
import type * as OrderKindsModule from "../../app/server/payments/order-kinds.server.ts";
import type * as OrdersModule from "../../app/server/payments/orders.server.ts";
import type * as ClientModule from "../../app/server/db/client.server.ts";
import type * as EmbeddedModule from "../../app/server/db/embedded.server.ts";
import type * as EnvModule from "../../app/server/env.server.ts";
import { runWithAppDatabase } from "../lib/app-database.ts";

const issueCount = Number(process.argv[2]);
const exportTotal = Number(process.argv[3]);
if (!Number.isInteger(issueCount) || !Number.isInteger(exportTotal)) {
  console.error(
    "Usage : DATA_DIR=… node --expose-gc scripts/bench/issue-invoices.ts <factures> <total exporté>",
  );
  process.exit(2);
}

const gc = (globalThis as { gc?: () => void }).gc;
/** This process's resident memory, after a full collection when Node allows one. */
function settledRss(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
}

await runWithAppDatabase("✖ Banc des factures :", async (load) => {
  const queue = await load<typeof QueueModule>("app/server/jobs/queue.server.ts");
  const jobs = await load<typeof JobsBootModule>("app/server/boot/jobs.server.ts");
  const client = await load<typeof ClientModule>("app/server/db/client.server.ts");
  const content = await load<typeof ContentStoreModule>(
    "app/server/content/content-store.server.ts",
  );
  const kinds = await load<typeof OrderKindsModule>("app/server/payments/order-kinds.server.ts");
  const payments = await load<typeof OrdersModule>("app/server/payments/orders.server.ts");
  const invoicing = await load<typeof InvoicesModule>("app/server/invoices/orders.server.ts");
  const exports = await load<typeof ExportsModule>("app/server/accounting/exports.server.ts");
  const embedded = await load<typeof EmbeddedModule>("app/server/db/embedded.server.ts");
  const { env } = await load<typeof EnvModule>("app/server/env.server.ts");
  // DATABASE_URL, else the embedded PostgreSQL that runWithAppDatabase started in DATA_DIR.
  const databaseUrl =
    env().DATABASE_URL ?? embedded.runningEmbeddedPostgresUrl(path.join(env().dataDir, "postgres"));
  if (!databaseUrl) throw new Error("Aucune base de données");
  // The queue without workers, as create-sending.ts: a payment queues its e-mails (never sent here).
  await jobs.startSiteJobQueue(databaseUrl);
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    // Orders of a kind without effects of its own: the voucher's issuing is not what is measured here
    // (the ventes section measures it), the order's payment and its invoice are.
    kinds.provideOrderKinds([
      kinds.defineOrderKind("voucher", {
        onPaid: async () => {},
        onReleased: async () => {},
        onRefunded: async () => {},
      }),
    ]);
    const legal = await content.loadDocument("legal");
    const orderIds: string[] = [];
    const setupStarted = performance.now();
    for (let index = 0; index < issueCount; index += 1) {
      const order = await payments.createOrder({
        kind: "voucher",
        method: "transfer",
        buyer: { name: `Cliente ${index + 1}`, email: `banc-${index + 1}@example.test` },
        termsAcceptedAt: new Date(),
        rulesSnapshot: { withdrawalDays: 14, text: "Rétractation sous 14 jours." },
        lines: [
          {
            label: "Bon cadeau séance portrait",
            quantity: 1,
            unitPriceCents: 12_000 + (index % 7) * 500,
            vatRate: null,
          },
        ],
        idempotencyKey: `banc-factures-${index}`,
        payBy: new Date(Date.now() + 7 * 24 * 3_600_000),
      });
      // « Marquer payé » (a transfer received): the attempt succeeds, the journal's payment row is
      // written; the invoice is held back, the seller's identity being incomplete yet.
      await payments.markPaidOffline(order.orderId, "transfer");
      orderIds.push(order.orderId);
    }
    const setupMs = performance.now() - setupStarted;
    const heldBack = await sql.query<{ count: number }>(
      "select count(*)::int as count from invoices",
    );
    if (heldBack.rows[0]?.count !== 0) throw new Error("Des factures émises avant l'identité");
    await content.saveDocument(
      "legal",
      {
        ...legal,
        companyName: "Atelier Lumière SARL",
        legalForm: "SARL au capital de 5 000 €",
        address: "4 avenue Thiers, 19100 Brive-la-Gaillarde",
        rcs: "RCS Brive 443 061 841",
        siret: "443 061 841 00047",
        vatRegime: "franchise",
        vatNumber: "",
        email: "contact@atelier-lumiere.fr",
        phone: "05 55 00 00 00",
        mediator: { name: "Médiateur de la consommation CM2C", website: "https://www.cm2c.net" },
      },
      { id: "", name: "Banc" },
      "banc des factures",
    );

    // The first PDF loads the fonts: counted, as the site's first invoice after a start.
    const rssBefore = settledRss();
    const perInvoice: number[] = [];
    const issuing: number[] = [];
    const rendering: number[] = [];
    let pdfBytes = 0;
    let notPdf = 0;
    let notIssued = 0;
    let peakRss = rssBefore;
    const started = performance.now();
    for (const [index, orderId] of orderIds.entries()) {
      const begin = performance.now();
      const invoice = await client.db().transaction(async (tx) => {
        const order = await payments.lockOrder(tx, orderId);
        return invoicing.invoicePaidOrder(tx, order);
      });
      const issued = performance.now();
      if (!invoice) {
        notIssued += 1;
        continue;
      }
      const pdf = await invoicing.invoicePdf(invoice);
      const end = performance.now();
      if (Buffer.from(pdf.bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") notPdf += 1;
      pdfBytes += pdf.bytes.length;
      issuing.push(issued - begin);
      rendering.push(end - issued);
      perInvoice.push(end - begin);
      if (index % 50 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    const totalMs = performance.now() - started;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const rssAfter = settledRss();
    const counted = await sql.query<{ count: number; last: number | null }>(
      `select (select count(*)::int from invoices where kind = 'sale') as count,
         (select max(last) from invoice_counters where series = 'F') as last`,
    );

    // Up to `exportTotal` invoices: copies of the last one issued with the next numbers, as many rows as
    // the issuing would write (no order of their own: the unique index allows one sale per order).
    const extra = Math.max(0, exportTotal - issueCount);
    await sql.query("begin");
    await sql.query(
      `insert into invoices (series, year, sequence, number, kind, issued_at, seller, buyer, lines,
         ht_cents, vat_cents, ttc_cents, vat_breakdown, payment_terms)
       select t.series, t.year, c.last + g,
         t.series || '-' || t.year || '-' || lpad((c.last + g)::text, 6, '0'), 'sale',
         t.issued_at + make_interval(secs => g / 1000.0), t.seller,
         jsonb_set(t.buyer, '{name}', to_jsonb('Client ' || g)), t.lines,
         t.ht_cents, t.vat_cents, t.ttc_cents, t.vat_breakdown, t.payment_terms
       from (select * from invoices where series = 'F' order by sequence desc limit 1) t
       join invoice_counters c on c.series = t.series and c.year = t.year
       cross join generate_series(1, $1::int) g`,
      [extra],
    );
    await sql.query(
      `update invoice_counters set last = last + $1
       where series = 'F' and year = (select max(year) from invoices where series = 'F')`,
      [extra],
    );
    await sql.query("commit");
    const period = await sql.query<{ from: string; to: string }>(
      `select to_char(min(issued_at at time zone 'Europe/Paris'), 'YYYY-MM-DD') as from,
         to_char(max(issued_at at time zone 'Europe/Paris'), 'YYYY-MM-DD') as to from invoices`,
    );
    const range = { from: period.rows[0]?.from ?? "", to: period.rows[0]?.to ?? "" };
    const files: Record<string, { ms: number; rows: number; bytes: number }> = {};
    for (const [name, make] of [
      ["salesJournal", exports.salesJournal],
      ["receiptsBook", exports.receiptsBook],
    ] as const) {
      const begin = performance.now();
      const file = await make(range);
      const ms = performance.now() - begin;
      files[name] = { ms, rows: file.rows, bytes: Buffer.byteLength(file.csv) };
    }
    const inDatabase = await sql.query<{ count: number; payments: number }>(
      `select (select count(*)::int from invoices) as count,
         (select count(*)::int from money_journal where kind = 'payment') as payments`,
    );
    console.log(
      JSON.stringify({
        issueCount,
        setupMs,
        totalMs,
        perInvoice,
        issuing,
        rendering,
        pdfBytes,
        notPdf,
        notIssued,
        invoicesIssued: counted.rows[0]?.count ?? 0,
        counterLast: counted.rows[0]?.last ?? 0,
        rssBefore,
        rssAfter,
        peakRss,
        gcExposed: gc !== undefined,
        exportInvoices: inDatabase.rows[0]?.count ?? 0,
        exportPayments: inDatabase.rows[0]?.payments ?? 0,
        period: range,
        files,
      }),
    );
  } finally {
    await sql.end();
    await queue.stopJobQueue(2_000);
  }
});
