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
  /** Paid by an amount voucher sold for less than its value: the part its invoice did not bill. */
  voucherDiscount?: VoucherDiscount | null;
};

/**
 * The part of an amount voucher's use that its buyer never paid (a held payment the owner accepted short,
 * decisions 0172 and 0203): its use's invoice bills the rest, and states this as a discount.
 */
export type VoucherDiscount = { code: string; cents: number };

/** « Remise accordée à l'achat du bon cadeau ABCD-EFGH-JKLM ». */
export const voucherDiscountLabel = (code: string) =>
  `Remise accordée à l'achat du bon cadeau ${code}`;

/** « Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026 ». */
export function depositDeductionLabel(
  deposit: Pick<InvoicedDeposit, "number" | "issuedAt" | "nature">,
) {
  const words = deposit.nature === "arrhes" ? "Arrhes déjà facturées" : "Acompte déjà facturé";
  return `${words} : facture ${deposit.number} du ${formatDateFr(deposit.issuedAt)}`;
}

/** The invoice of an amount voucher's use that paid part of the balance at the studio (decision 0201). */
export type InvoicedVoucherUse = {
  number: string;
  issuedAt: Date;
  /** The voucher's code as printed: « ABCD-EFGH-JKLM ». */
  code: string;
  /** What stands of the use invoice's TTC at each TVA rate once its credit notes are counted. */
  byRate: ReadonlyArray<Pick<VatShare, "vatRate" | "ttcCents">>;
  /** Its voucher sold for less than its value: the part of the use its invoice did not bill. */
  voucherDiscount?: VoucherDiscount | null;
};

/** « Réglé par le bon cadeau ABCD-EFGH-JKLM : facture F-2026-000014 du 3 février 2027 ». */
export function voucherUseDeductionLabel(
  use: Pick<InvoicedVoucherUse, "number" | "issuedAt" | "code">,
) {
  return `Réglé par le bon cadeau ${use.code} : facture ${use.number} du ${formatDateFr(use.issuedAt)}`;
}

/**
 * The final invoice's lines and the sentence its payment terms start with. With earlier invoices of the
 * session not wholly credited (the deposit's; the uses of amount vouchers that paid part of the balance at
 * the studio, decision 0201): the session at its whole price (the balance plus what they still invoice),
 * then each deducted at its own invoice's rates (its TVA was due when it was paid; none under the
 * franchise: `taxed` false), so that the total stays the balance paid. The whole price is stated at the
 * balance's rate for the part invoiced earlier at that rate, and at the earlier invoice's rate for a part
 * invoiced at another (the seller left or entered the franchise between the two, or the deposit held a
 * line of its own rate): each such part and its deduction cancel out at their rate, so the final invoice
 * bears the TVA of the balance alone. Without an earlier invoice, or once they were given back in full, the
 * balance's line alone and no sentence.
 */
export function finalInvoiceLines(input: {
  /** The balance's line as invoiced (its rate already dropped under the franchise). */
  balance: InvoiceLineInput;
  /** The session as the whole-price line names it: « Séance Portrait du samedi 12 décembre 2026 à 14 h ». */
  sessionLabel: string;
  deposit: InvoicedDeposit | null;
  /** The voucher uses that paid part of the balance, each invoiced at its use. */
  voucherUses?: ReadonlyArray<InvoicedVoucherUse>;
  /** The seller is subject to TVA. */
  taxed: boolean;
}): { lines: InvoiceLineInput[]; note: string | null } {
  const { balance, deposit } = input;
  const balanceCents = balance.quantity * balance.unitPriceCents;
  const rateOf = (vatRate: number | null) => (input.taxed ? vatRate : null);
  const earlier = [
    ...(deposit
      ? [
          {
            label: depositDeductionLabel(deposit),
            paidAs: deposit.nature === "arrhes" ? "versée en arrhes" : "versée en acompte",
            deducted: deposit.nature === "arrhes" ? "arrhes déduites" : "acompte déduit",
            byRate: deposit.byRate,
            discount: deposit.voucherDiscount ?? null,
          },
        ]
      : []),
    ...(input.voucherUses ?? []).map((use) => ({
      label: voucherUseDeductionLabel(use),
      paidAs: `réglée par le bon cadeau ${use.code}`,
      deducted: "bon cadeau déduit",
      byRate: use.byRate,
      discount: use.voucherDiscount ?? null,
    })),
  ]
    .map((invoice) => ({
      ...invoice,
      standing: invoice.byRate.filter((share) => share.ttcCents > 0),
    }))
    .filter((invoice) => invoice.standing.length > 0);
  if (earlier.length === 0) return { lines: [balance], note: null };
  // What stands at each rate, exactly: no sharing, so no rounding between the documents.
  const sameRateCents = earlier
    .flatMap((invoice) => invoice.standing)
    .filter((share) => rateOf(share.vatRate) === balance.vatRate)
    .reduce((sum, share) => sum + share.ttcCents, 0);
  // A use of a voucher sold for less than its value billed only what was paid (decision 0203): the session's
  // whole price is restated, and the part never paid is a discount at the balance's rate, which cancels out.
  const discounts = earlier.flatMap((invoice) =>
    invoice.discount && invoice.discount.cents > 0 ? [invoice.discount] : [],
  );
  const discountCents = discounts.reduce((sum, discount) => sum + discount.cents, 0);
  const deducted = [...new Set(earlier.map((invoice) => invoice.deducted))].join(", ");
  return {
    lines: [
      {
        label: input.sessionLabel,
        quantity: 1,
        unitPriceCents: balanceCents + sameRateCents + discountCents,
        vatRate: balance.vatRate,
      },
      ...earlier.flatMap((invoice) =>
        invoice.standing
          .filter((share) => rateOf(share.vatRate) !== balance.vatRate)
          .map(({ vatRate, ttcCents }) => ({
            label: `${input.sessionLabel} : part ${invoice.paidAs}`,
            quantity: 1,
            unitPriceCents: ttcCents,
            vatRate: rateOf(vatRate),
          })),
      ),
      ...earlier.flatMap((invoice) => [
        ...deductionLines(
          invoice.standing.map(({ vatRate, ttcCents }) => ({
            vatRate: rateOf(vatRate),
            cents: ttcCents,
          })),
          invoice.label,
        ),
        ...(invoice.discount && invoice.discount.cents > 0
          ? deductionLines(
              [{ vatRate: balance.vatRate, cents: invoice.discount.cents }],
              voucherDiscountLabel(invoice.discount.code),
            )
          : []),
      ]),
    ],
    note: `Net à payer : ${invoiceAmount(balanceCents)} (${deducted}).`,
  };
}
