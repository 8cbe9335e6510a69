import { formatDateFr } from "~/lib/dates";
import { formatCents } from "~/lib/prices";
import { INVOICE_TITLES, type InvoiceKind } from "./model";

/**
 * An invoice or credit note as a client's page lists it, with its PDF's address: her order's (decision
 * 0181), her booking's for the uses of a gift voucher that paid it and for its balance's final invoice
 * (decisions 0199 and 0201). Drawn as « Facture F-2027-000123 (PDF) du 12 janvier 2027, 30 € » by
 * `InvoiceList`.
 */
export type InvoiceLink = {
  number: string;
  /** « Facture F-2027-000123 », « Facture d'acompte F-… », « Avoir A-… ». */
  title: string;
  issuedOn: string;
  amount: string;
  href: string;
};

export function invoiceLink(
  invoice: { number: string; kind: InvoiceKind; issuedAt: Date; ttcCents: number },
  href: string,
): InvoiceLink {
  return {
    number: invoice.number,
    title: `${INVOICE_TITLES[invoice.kind]} ${invoice.number}`,
    issuedOn: formatDateFr(invoice.issuedAt),
    amount: formatCents(invoice.ttcCents),
    href,
  };
}
