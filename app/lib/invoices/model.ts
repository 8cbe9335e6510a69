/**
 * Invoices and credit notes (decision 0177): what they are made of, and their arithmetic. Amounts are
 * integers in cents; a line's price is TTC, as a consumer reads it (the TVA is derived per rate, once for
 * each rate of the document, so that the totals never drift by a cent of rounding between lines).
 */

/** « F » for invoices (a sale, a deposit, a balance, a voucher's use), « A » for credit notes (avoirs): each its own numbers. */
export const INVOICE_SERIES = ["F", "A"] as const;
export type InvoiceSeries = (typeof INVOICE_SERIES)[number];

export const INVOICE_KINDS = ["sale", "deposit", "final", "voucher_use", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** The series a kind is numbered in. */
export const seriesOf = (kind: InvoiceKind): InvoiceSeries => (kind === "credit_note" ? "A" : "F");

/** The document's title as printed (« Facture d'acompte », « Avoir »…). */
export const INVOICE_TITLES: Record<InvoiceKind, string> = {
  sale: "Facture",
  deposit: "Facture d'acompte",
  final: "Facture",
  voucher_use: "Facture",
  credit_note: "Avoir",
};

/** « F-2027-000123 »: the series, the year, the number in six digits (more beyond 999,999). */
export function invoiceNumber(series: InvoiceSeries, year: number, sequence: number): string {
  return `${series}-${year}-${String(sequence).padStart(6, "0")}`;
}

/** The number a PDF's address names (« F-2027-000123.pdf »), or null for any other text. */
export function invoiceNumberOfFile(file: string): string | null {
  const match = /^([FA]-\d{4}-\d{6,9})\.pdf$/.exec(file);
  return match?.[1] ?? null;
}

/** What an invoice number typed in a search names: null parts (the series, the year) match any. */
export type TypedInvoiceNumber = {
  series: InvoiceSeries | null;
  year: number | null;
  sequence: number;
};

/**
 * An invoice number as a person types it: in full in any case, its dashes dropped or spaces put instead
 * (« f2027000123 »), its zeros left out (« F-2027-123 »), its series left out (« 2027-123 »: the invoice
 * and the credit note), or its last digits alone (« 123 »: that number in every year and both series,
 * at most two a year); null for any other text.
 */
export function readInvoiceNumber(typed: string): TypedInvoiceNumber | null {
  const text = typed.trim().toUpperCase();
  const parts =
    /^([FA])?[\s-]*(\d{4})[\s-]+(\d{1,9})$/.exec(text) ??
    /^([FA])?(\d{4})(\d{6,9})$/.exec(text.replace(/[\s-]/g, ""));
  if (parts) {
    return {
      series: (parts[1] as InvoiceSeries | undefined) ?? null,
      year: Number(parts[2]),
      sequence: Number(parts[3]),
    };
  }
  return /^\d{1,9}$/.test(text) ? { series: null, year: null, sequence: Number(text) } : null;
}

/** A line as sold: a label, a quantity, a unit price TTC, its TVA rate in basis points (null: none). */
export type InvoiceLineInput = {
  label: string;
  quantity: number;
  unitPriceCents: number;
  /** 2000 = 20 %; null under the franchise (CGI art. 293 B) or for what bears no TVA. */
  vatRate: number | null;
};

/** A rate's share of a document: its TTC, and the HT and TVA derived from it. */
export type VatShare = {
  vatRate: number | null;
  htCents: number;
  vatCents: number;
  ttcCents: number;
};

export type InvoiceTotals = {
  htCents: number;
  vatCents: number;
  ttcCents: number;
  /** One entry per rate, in increasing order of rate, « none » first. */
  byRate: VatShare[];
};

/**
 * The document's totals: each rate's TTC summed over its lines, its HT rounded to the cent
 * (TTC × 10,000 / (10,000 + rate), half away from zero), its TVA the difference; the document's totals the
 * sums of the rates'. A credit note's lines carry negative quantities or prices: its totals are negative.
 */
export function invoiceTotals(lines: readonly InvoiceLineInput[]): InvoiceTotals {
  const byRate = new Map<number | null, number>();
  for (const line of lines) {
    if (!Number.isInteger(line.quantity) || !Number.isInteger(line.unitPriceCents)) {
      throw new Error("invoiceTotals: quantities and prices are whole numbers (cents)");
    }
    const key = line.vatRate ?? null;
    byRate.set(key, (byRate.get(key) ?? 0) + line.quantity * line.unitPriceCents);
  }
  const shares = [...byRate.entries()]
    .sort(([a], [b]) => (a ?? -1) - (b ?? -1))
    .map(([vatRate, ttcCents]): VatShare => {
      const htCents = htOf(ttcCents, vatRate);
      return { vatRate, htCents, vatCents: ttcCents - htCents, ttcCents };
    });
  return totalsOf(shares);
}

/** A TTC's HT at a rate, rounded to the cent half away from zero (itself without a rate). */
function htOf(ttcCents: number, vatRate: number | null): number {
  const exact = vatRate ? (ttcCents * 10_000) / (10_000 + vatRate) : ttcCents;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

/** A document's totals from its shares by rate. */
export function totalsOf(byRate: readonly VatShare[]): InvoiceTotals {
  return {
    htCents: byRate.reduce((sum, share) => sum + share.htCents, 0),
    vatCents: byRate.reduce((sum, share) => sum + share.vatCents, 0),
    ttcCents: byRate.reduce((sum, share) => sum + share.ttcCents, 0),
    byRate: [...byRate],
  };
}

/**
 * An amount shared across a document's TVA rates in proportion to each rate's TTC, by largest remainder:
 * each rate takes its share rounded down, then the cents left go one each to the rates whose shares lost
 * most (the first of them on a tie). Rates totalling nothing take no part and a rate given nothing gets no
 * line; no rate is given more than its own TTC while the amount stays within the total: what a credit note
 * gives back of an invoice's standing rates (standingByRate).
 */
export function shareAcrossRates(
  byRate: ReadonlyArray<Pick<VatShare, "vatRate" | "ttcCents">>,
  amountCents: number,
): Array<{ vatRate: number | null; cents: number }> {
  if (!Number.isInteger(amountCents) || amountCents < 0) {
    throw new RangeError(`shareAcrossRates: a positive whole number of cents, not ${amountCents}`);
  }
  const shares = byRate.filter((share) => share.ttcCents !== 0);
  const totalCents = shares.reduce((sum, share) => sum + share.ttcCents, 0);
  if (totalCents === 0 || amountCents === 0) return [];
  const exact = shares.map((share) => (amountCents * share.ttcCents) / totalCents);
  const cents = exact.map((value) => Math.floor(value));
  let left = amountCents - cents.reduce((sum, value) => sum + value, 0);
  const byLoss = exact
    .map((value, index) => ({ index, loss: value - Math.floor(value) }))
    .sort((a, b) => b.loss - a.loss || a.index - b.index);
  for (const { index } of byLoss) {
    if (left <= 0) break;
    cents[index] = (cents[index] ?? 0) + 1;
    left -= 1;
  }
  return shares
    .map((share, index) => ({ vatRate: share.vatRate, cents: cents[index] ?? 0 }))
    .filter((share) => share.cents !== 0);
}

/**
 * What stands of an invoice at each of its TVA rates once its credit notes are counted (their shares are
 * negative), in TTC, HT and TVA: the base of the next credit note, and what a final invoice deducts of a
 * deposit invoice, so that partial refunds of a document at several rates never give back a cent more at
 * one rate than it billed there, and add up to it exactly.
 */
export function standingByRate(
  byRate: readonly VatShare[],
  creditNotes: ReadonlyArray<readonly VatShare[]>,
): VatShare[] {
  return byRate.map((share) => {
    const credits = creditNotes.flat().filter((credit) => credit.vatRate === share.vatRate);
    const sum = (key: "ttcCents" | "htCents" | "vatCents") =>
      share[key] + credits.reduce((total, credit) => total + credit[key], 0);
    return {
      vatRate: share.vatRate,
      ttcCents: sum("ttcCents"),
      htCents: sum("htCents"),
      vatCents: sum("vatCents"),
    };
  });
}

/**
 * A credit note of `amountCents` over what stands of its invoice: its lines (negative, one a rate given
 * something) and its shares by rate. A rate given back all that stands there gives back all of its HT and
 * TVA too, whatever the rounding of the earlier notes, so that an invoice credited in full leaves nothing
 * in the sales journal; any other share is rounded as an invoice's.
 */
export function creditNoteOf(
  standing: readonly VatShare[],
  amountCents: number,
  label: string,
): { lines: InvoiceLineInput[]; totals: InvoiceTotals } {
  const shares = shareAcrossRates(standing, amountCents);
  // In the standing's order, its invoice's: by rate, as invoiceTotals sorts them.
  const byRate = shares.map(({ vatRate, cents }): VatShare => {
    const left = standing.find((share) => share.vatRate === vatRate);
    const htCents = left && cents === left.ttcCents ? left.htCents : htOf(cents, vatRate);
    return { vatRate, ttcCents: -cents, htCents: -htCents, vatCents: -(cents - htCents) };
  });
  return { lines: deductionLines(shares, label), totals: totalsOf(byRate) };
}

/**
 * Amounts taken off a document, a line each at its rate (a negative price): a credit note's, a discount
 * granted, a deposit invoice a final invoice deducts.
 */
export function deductionLines(
  shares: ReadonlyArray<{ vatRate: number | null; cents: number }>,
  label: string,
): InvoiceLineInput[] {
  return shares.map(({ vatRate, cents }) => ({
    label,
    quantity: 1,
    unitPriceCents: -cents,
    vatRate,
  }));
}

/** The seller as the invoice prints it, copied from the legal details when it is issued (decision 0176). */
export type InvoiceSeller = {
  companyName: string;
  legalForm: string;
  address: string;
  registration: string;
  siret: string;
  siren: string;
  /** The TVA number, or null under the franchise (then `vatMention` says so). */
  vatNumber: string | null;
  vatMention: string | null;
  email: string;
  phone: string;
  mediator: { name: string; website: string };
};

/** The buyer as the invoice prints it: its own copy, kept when the booking's personal data is purged. */
export type InvoiceBuyer = { name: string; email: string; address: string | null };

/** An invoice's amount, always with its cents (« 1 234,50 € », « -30,00 € »). */
export function invoiceAmount(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const whole = String(Math.trunc(Math.abs(cents) / 100)).replace(
    /\B(?=(\d{3})+(?!\d))/g,
    "\u202f",
  );
  return `${sign}${whole},${String(Math.abs(cents) % 100).padStart(2, "0")}\u00a0€`;
}

/** A TVA rate in basis points as printed: « 20 % », « 5,5 % »; « — » for none. */
export function vatRateLabel(rate: number | null): string {
  if (rate === null) return "—";
  return `${String(rate / 100).replace(".", ",")}\u00a0%`;
}
