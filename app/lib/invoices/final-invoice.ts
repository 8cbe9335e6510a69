import type { DepositNature } from "~/lib/booking/deposit";
import { formatDateFr } from "~/lib/dates";
import { deductionLines, invoiceAmount, type InvoiceLineInput, type VatShare } from "./model";

/*
 * The final invoice (« facture de solde ») of a session whose deposit had its « facture d'acompte »
 * (decision 0186): French invoicing practice (CGI art. 242 nonies A; BOFiP on acomptes) has it restate the
 * session's whole price and deduct what the deposit invoice already billed, naming that invoice, so that
 * its net is the balance paid and an accountant ties the two documents together.
 */

/** The deposit invoice as the final invoice deducts it. */
export type InvoicedDeposit = {
  number: string;
  issuedAt: Date;
  /** « arrhes » or « acompte », as the client accepted them (the deposit's rules). */
  nature: DepositNature;
  /** What stands of the deposit invoice's TTC at each TVA rate once its credit notes are counted. */
  byRate: ReadonlyArray<Pick<VatShare, "vatRate" | "ttcCents">>;
};

/** « Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026 ». */
export function depositDeductionLabel(
  deposit: Pick<InvoicedDeposit, "number" | "issuedAt" | "nature">,
) {
  const words = deposit.nature === "arrhes" ? "Arrhes déjà facturées" : "Acompte déjà facturé";
  return `${words} : facture ${deposit.number} du ${formatDateFr(deposit.issuedAt)}`;
}

/**
 * The final invoice's lines and the sentence its payment terms start with. With a deposit invoice not
 * wholly credited: the session at its whole price (the balance plus the deposit still invoiced), then the
 * deposit deducted at its own invoice's rates (its TVA was due when it was paid; none under the franchise:
 * `taxed` false), so that the total stays the balance paid. The whole price is stated at the balance's
 * rate for the part of the deposit invoiced at that rate, and at the deposit's rate for a part invoiced at
 * another (the seller left or entered the franchise between the two, or the deposit held a line of its own
 * rate): each such part and its deduction cancel out at their rate, so the final invoice bears the TVA of
 * the balance alone. Without a deposit invoice, or once it was given back in full, the balance's line
 * alone and no sentence.
 */
export function finalInvoiceLines(input: {
  /** The balance's line as invoiced (its rate already dropped under the franchise). */
  balance: InvoiceLineInput;
  /** The session as the whole-price line names it: « Séance Portrait du samedi 12 décembre 2026 à 14 h ». */
  sessionLabel: string;
  deposit: InvoicedDeposit | null;
  /** The seller is subject to TVA. */
  taxed: boolean;
}): { lines: InvoiceLineInput[]; note: string | null } {
  const { balance, deposit } = input;
  const balanceCents = balance.quantity * balance.unitPriceCents;
  const standing = deposit?.byRate.filter((share) => share.ttcCents > 0) ?? [];
  const invoicedCents = standing.reduce((sum, share) => sum + share.ttcCents, 0);
  if (!deposit || invoicedCents <= 0) return { lines: [balance], note: null };
  const label = depositDeductionLabel(deposit);
  const rateOf = (vatRate: number | null) => (input.taxed ? vatRate : null);
  // What stands at each rate, exactly: no sharing, so no rounding between the two documents.
  const deductions = deductionLines(
    standing.map(({ vatRate, ttcCents }) => ({ vatRate: rateOf(vatRate), cents: ttcCents })),
    label,
  );
  const deducted = deposit.nature === "arrhes" ? "arrhes déduites" : "acompte déduit";
  const sameRateCents = standing
    .filter((share) => rateOf(share.vatRate) === balance.vatRate)
    .reduce((sum, share) => sum + share.ttcCents, 0);
  const paidAs = deposit.nature === "arrhes" ? "versée en arrhes" : "versée en acompte";
  return {
    lines: [
      {
        label: input.sessionLabel,
        quantity: 1,
        unitPriceCents: balanceCents + sameRateCents,
        vatRate: balance.vatRate,
      },
      ...standing
        .filter((share) => rateOf(share.vatRate) !== balance.vatRate)
        .map(({ vatRate, ttcCents }) => ({
          label: `${input.sessionLabel} : part ${paidAs}`,
          quantity: 1,
          unitPriceCents: ttcCents,
          vatRate: rateOf(vatRate),
        })),
      ...deductions,
    ],
    note: `Net à payer : ${invoiceAmount(balanceCents)} (${deducted}).`,
  };
}
