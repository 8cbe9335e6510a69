import { sql } from "drizzle-orm";
import {
  accountingCsv,
  csvAmount,
  csvDay,
  csvParisDateTime,
  type AccountingCell,
} from "~/lib/accounting/csv";
import type { VatShare } from "~/lib/invoices/model";
import { vatRateLabel } from "~/lib/invoices/model";
import { CURRENCY } from "~/lib/payments/model";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { db } from "../db/client.server";

/*
 * The accountant's exports (decision 0182), for a period of Paris days (both included): the receipts book
 * (« livre des recettes »), the sales journal (invoices and credit notes, HT/TVA/TTC by rate; a
 * multi-purpose voucher's sale and the invoices of its uses each named so, decision 0198), the
 * payments received (the money journal's payments and refunds with their providers' references) and, at a
 * day, the vouchers still to be honoured (a debt of the business). Each is read in one query, in the
 * order of the journal or of the numbers, and written by `accountingCsv`.
 */

export type Period = { from: string; to: string };

/** A file: its name, its text, its rows and the sum of its amount column (TTC, received, left). */
export type AccountingExport = { filename: string; csv: string; rows: number; totalCents: number };

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** How the money came or went, in the accountant's words. */
const MEANS: Record<string, string> = {
  card: "Carte bancaire (en ligne)",
  transfer: "Virement",
  cheque: "Chèque",
  cash: "Espèces",
  card_terminal: "Carte bancaire (au studio)",
  studio: "Au studio",
  voucher: "Bon cadeau",
};
const meansOf = (method: string | null) => (method ? (MEANS[method] ?? method) : "");

/**
 * The order's transfer reference beside the money that came by that transfer, and only there: not beside
 * money of an order meant to be paid by transfer and paid otherwise (a reference no bank statement shows),
 * nor beside a refund, which goes out by a transfer the owner makes from her bank with her own words (the
 * incoming reference there would read as money come in; the refund's piece is its credit note).
 */
const incomingTransferReference = (row: {
  kind: "payment" | "refund";
  method: string | null;
  transfer_reference: string | null;
}) => (row.kind === "payment" && row.method === "transfer" ? (row.transfer_reference ?? "") : "");

/**
 * The reference the accountant can match with a statement: the card provider's (a refund's own, from the
 * provider), an incoming transfer's; none for money taken at the studio (its attempt's reference is ours,
 * meaningless outside the site) nor for a transfer refund (the site does not know its words).
 */
const referenceOf = (row: {
  kind: "payment" | "refund";
  method: string | null;
  provider_reference: string | null;
  transfer_reference: string | null;
}) => (row.method === "card" ? (row.provider_reference ?? "") : incomingTransferReference(row));

/** A journal row's Paris day, as SQL. */
const parisDay = (column: string) => sql.raw(`(${column} at time zone 'Europe/Paris')::date`);

/** A payment or refund of the journal, with what the two money files print of it. */
type MoneyRow = {
  seq: number;
  day: string;
  /** The instant (node-postgres gives a Date; a text is read as one too). */
  at: Date | string;
  kind: "payment" | "refund";
  amount_cents: number;
  /** Null for euros; another currency's code for a held payment given back and its refund (« USD »). */
  currency: string | null;
  method: string | null;
  provider_reference: string | null;
  transfer_reference: string | null;
  buyer: string | null;
  nature: string | null;
  piece: string | null;
};

/**
 * The client of a journal row whose order is not on the site: a restore keeps the journal's rows written
 * after its backup and erases their orders (decision 0207, amended). The row stays, its money counted.
 */
const ORDER_GONE = "Commande absente du site (restauration d'une sauvegarde)";

/**
 * The journal's payments and refunds of the period, in its order, each with its order's client, lines and
 * transfer reference, and the invoice (or credit note) that is its voucher.
 */
async function moneyRows(period: Period): Promise<MoneyRow[]> {
  const result = await db().execute<MoneyRow>(sql`
    select j.seq::int as seq, to_char(${parisDay("j.at")}, 'YYYY-MM-DD') as day,
      j.at, j.kind, j.amount_cents,
      nullif(upper(coalesce(j.details ->> 'currency',
        (select a.held_currency from payment_attempts a
          where j.kind = 'refund' and a.id = j.attempt_id and a.status = 'returned'))), ${CURRENCY})
        as currency,
      j.method, j.provider_reference, o.transfer_reference,
      case when j.order_id is not null and o.id is null then ${ORDER_GONE} else o.buyer_name end
        as buyer,
      (select string_agg(l.label, ' · ' order by l.position) from order_lines l
        where l.order_id = j.order_id) as nature,
      case when j.kind = 'payment' then
        (select i.number from invoices i
          where i.order_id = j.order_id and i.kind in ('sale', 'deposit', 'final'))
      else (select i.number from invoices i where i.refund_id = j.refund_id and i.kind = 'credit_note')
      end as piece
    from money_journal j left join orders o on o.id = j.order_id
    where j.kind in ('payment', 'refund')
      and ${parisDay("j.at")} between ${period.from}::date and ${period.to}::date
    order by j.seq`);
  return result.rows;
}

/*
 * A held payment in another currency (decision 0172) is journaled in its own currency and given back whole:
 * the site never knows what it came to in euros (the provider converts). Its rows stay in the files, the
 * amount and currency said in words and the euro cell left empty, so that no column or total reads
 * dollars as euros. Its refund's row gained the currency later: an older one is known by its attempt.
 */

/** The amount in the file's euro column: none for a sum in another currency. */
const euroCell = (row: MoneyRow): AccountingCell =>
  row.currency === null ? { cents: row.amount_cents } : null;

/** « (200,00 USD, non converti en euros) » after the row's words, for a sum in another currency. */
const otherCurrency = (row: MoneyRow) =>
  row.currency === null
    ? ""
    : ` (${csvAmount(Math.abs(row.amount_cents))} ${row.currency}, non converti en euros)`;

/** The euros of the rows: the total of the euro column. */
const euroTotal = (money: MoneyRow[]) =>
  sum(money.filter((row) => row.currency === null).map((row) => row.amount_cents));

/**
 * The receipts book: each payment received and each refund given, in the journal's order, with the
 * invoice (or credit note) that is its voucher, the client, what was sold and how it was paid.
 */
export async function receiptsBook(period: Period): Promise<AccountingExport> {
  const money = await moneyRows(period);
  const rows: AccountingCell[][] = money.map((row) => {
    const nature =
      row.kind === "refund" ? `Remboursement — ${row.nature ?? ""}` : (row.nature ?? "");
    return [
      csvDay(row.day),
      row.piece ?? "",
      row.buyer ?? "",
      `${nature}${otherCurrency(row)}`,
      euroCell(row),
      meansOf(row.method),
      referenceOf(row),
    ];
  });
  return {
    filename: `livre-des-recettes-${period.from}-${period.to}.csv`,
    totalCents: euroTotal(money),
    csv: accountingCsv(
      ["Date", "Pièce", "Client", "Nature", "Montant TTC (€)", "Mode de règlement", "Référence"],
      rows,
    ),
    rows: rows.length,
  };
}

type InvoiceRow = {
  day: string;
  number: string;
  kind: string;
  buyer: string;
  vat_breakdown: VatShare[];
  credited: string | null;
  /** The sale of a multi-purpose voucher by a seller subject to TVA: money received, TVA due at its uses. */
  multi_voucher_sale: boolean;
};

/** What the sales journal calls each document. */
function documentType(row: InvoiceRow): string {
  if (row.kind === "credit_note") return "Avoir";
  if (row.kind === "deposit") return "Facture d'acompte";
  if (row.kind === "voucher_use") return "Facture réglée par bon cadeau";
  return row.multi_voucher_sale ? "Vente de bon cadeau (TVA due à son utilisation)" : "Facture";
}

/** The sales journal: each invoice and credit note of the period, one row per TVA rate, in number order. */
export async function salesJournal(period: Period): Promise<AccountingExport> {
  const result = await db().execute<InvoiceRow>(sql`
    select to_char(${parisDay("i.issued_at")}, 'YYYY-MM-DD') as day, i.number, i.kind,
      i.buyer->>'name' as buyer, i.vat_breakdown, c.number as credited,
      (i.kind = 'sale' and i.seller->>'vatMention' is null and exists (select 1 from vouchers v
        where v.order_id = i.order_id and v.vat_mode = 'multi')) as multi_voucher_sale
    from invoices i left join invoices c on c.id = i.credited_invoice_id
    where ${parisDay("i.issued_at")} between ${period.from}::date and ${period.to}::date
    order by i.series desc, i.year, i.sequence`);
  const rows: AccountingCell[][] = result.rows.flatMap((row) =>
    row.vat_breakdown.map((share): AccountingCell[] => [
      csvDay(row.day),
      row.number,
      documentType(row),
      row.buyer,
      share.vatRate === null ? "Sans TVA" : vatRateLabel(share.vatRate).replace("\u00a0", " "),
      { cents: share.htCents },
      { cents: share.vatCents },
      { cents: share.ttcCents },
      row.credited ?? "",
    ]),
  );
  return {
    filename: `journal-des-ventes-${period.from}-${period.to}.csv`,
    totalCents: sum(result.rows.flatMap((row) => row.vat_breakdown.map((share) => share.ttcCents))),
    csv: accountingCsv(
      [
        "Date",
        "Numéro",
        "Type",
        "Client",
        "Taux de TVA",
        "Montant HT (€)",
        "TVA (€)",
        "Montant TTC (€)",
        "Facture corrigée",
      ],
      rows,
    ),
    rows: rows.length,
  };
}

/** The payments received and refunds given, as the journal holds them: its number, time and references. */
export async function paymentsReceived(period: Period): Promise<AccountingExport> {
  const money = await moneyRows(period);
  const rows: AccountingCell[][] = money.map((row) => [
    String(row.seq),
    csvParisDateTime(new Date(row.at)),
    `${row.kind === "payment" ? "Encaissement" : "Remboursement"}${otherCurrency(row)}`,
    row.buyer ?? "",
    euroCell(row),
    meansOf(row.method),
    row.method === "card" ? (row.provider_reference ?? "") : "",
    incomingTransferReference(row),
  ]);
  return {
    filename: `encaissements-${period.from}-${period.to}.csv`,
    totalCents: euroTotal(money),
    csv: accountingCsv(
      [
        "N° au journal",
        "Date et heure (Paris)",
        "Opération",
        "Client",
        "Montant (€)",
        "Mode de règlement",
        "Référence du prestataire",
        "Référence de virement",
      ],
      rows,
    ),
    rows: rows.length,
  };
}

type VoucherRow = {
  code: string;
  kind: string;
  label: string;
  issued: string;
  expires: string | null;
  value_cents: number;
  left_cents: number;
  buyer: string;
};

/**
 * The vouchers still to be honoured at the end of `day`: issued by then, neither cancelled nor past their
 * last day then, with what was left of them then (their uses up to that day taken off, and the parts of
 * their orders refunded by then: a partial refund lowers an amount voucher, its `voucher_cancellation`
 * row of reason `partial_refund`).
 *
 * Their last day then, so that a file of a past day is the same when made again (decision 0182, amended
 * 2026-11-30): an extension made after `day` (its Paris day later) recorded the last day it replaced, and
 * the first of them holds the one in force at the end of `day`; without any, the current one (an
 * extension made on `day` itself counts: its end is what is asked). An expired voucher extended back to
 * life is thus absent between its old last day and its extension, present after it. A voucher extended
 * before `voucher_expiry_changes` existed has no row there: its current last day is read, as before.
 */
export async function vouchersOutstanding(day: string): Promise<AccountingExport> {
  const result = await db().execute<VoucherRow>(sql`
    select v.code, v.kind, v.label, to_char(${parisDay("v.issued_at")}, 'YYYY-MM-DD') as issued,
      to_char(e.expires_on, 'YYYY-MM-DD') as expires, v.value_cents,
      (v.value_cents - coalesce((select sum(u.amount_cents) from voucher_uses u
        where u.voucher_id = v.id and ${parisDay("u.at")} <= ${day}::date
          and (u.cancelled_at is null or ${parisDay("u.cancelled_at")} > ${day}::date)), 0)
        + coalesce((select sum(j.amount_cents) from money_journal j
          where j.voucher_id = v.id and j.kind = 'voucher_cancellation'
            and j.details ->> 'reason' = 'partial_refund' and ${parisDay("j.at")} <= ${day}::date), 0))::int
        as left_cents,
      v.buyer_name as buyer
    from vouchers v
      cross join lateral (select coalesce(
        (select c.previous_expires_on from voucher_expiry_changes c
          where c.voucher_id = v.id and ${parisDay("c.at")} > ${day}::date
          order by c.at limit 1),
        v.expires_on) as expires_on) e
    where v.code is not null and v.issued_at is not null
      and ${parisDay("v.issued_at")} <= ${day}::date
      and (v.cancelled_at is null or ${parisDay("v.cancelled_at")} > ${day}::date)
      and (e.expires_on is null or e.expires_on >= ${day}::date)
    order by v.issued_at, v.code`);
  const left = result.rows.filter((row) => row.left_cents > 0);
  const rows: AccountingCell[][] = left.map((row) => [
    formatVoucherCode(row.code),
    row.kind === "session" ? "Séance" : "Montant",
    row.label,
    csvDay(row.issued),
    row.expires ? csvDay(row.expires) : "",
    { cents: row.value_cents },
    { cents: row.left_cents },
    row.buyer,
  ]);
  return {
    filename: `bons-cadeaux-a-honorer-${day}.csv`,
    totalCents: sum(left.map((row) => row.left_cents)),
    csv: accountingCsv(
      [
        "Code",
        "Type",
        "Offre",
        "Émis le",
        "Valable jusqu'au",
        "Valeur (€)",
        `Reste à honorer au ${csvDay(day)} (€)`,
        "Acheteur",
      ],
      rows,
    ),
    rows: rows.length,
  };
}

/**
 * The four files of a period, in the order of ACCOUNTING_FILES (the page, its downloads and the
 * accountant's e-mail, decision 0189, all read them from here).
 */
export function accountingExports(period: Period): Promise<AccountingExport[]> {
  return Promise.all([
    receiptsBook(period),
    salesJournal(period),
    paymentsReceived(period),
    vouchersOutstanding(period.to),
  ]);
}
