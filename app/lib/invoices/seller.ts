import type { Legal } from "~/content/schemas";
import { formatVatNumber, sellerGaps, sirenOf, VAT_EXEMPT_MENTION } from "~/lib/legal/seller";
import type { InvoiceSeller } from "./model";

/**
 * The seller an invoice carries, copied from the legal details (decision 0176); null while they lack
 * anything an invoice must print (`sellerGaps`): no invoice is issued then.
 */
export function invoiceSeller(legal: Legal): InvoiceSeller | null {
  if (sellerGaps(legal).length > 0) return null;
  const subject = legal.vatRegime === "assujetti";
  return {
    companyName: legal.companyName,
    legalForm: legal.legalForm,
    address: legal.address,
    registration: legal.rcs,
    siret: legal.siret,
    siren: sirenOf(legal.siret),
    vatNumber: legal.vatNumber ? formatVatNumber(legal.vatNumber) : null,
    vatMention: subject ? null : VAT_EXEMPT_MENTION,
    email: legal.email,
    phone: legal.phone,
    mediator: { name: legal.mediator.name, website: legal.mediator.website },
  };
}

/**
 * The seller a credit note carries (decision 0195): her details as they stand when it is issued, with the
 * TVA status (number, franchise's mention) of the invoice it corrects, since it gives back that invoice's
 * TVA at its rates, or none, whatever her regime has become since.
 */
export function creditNoteSeller(current: InvoiceSeller, invoiced: InvoiceSeller): InvoiceSeller {
  return { ...current, vatNumber: invoiced.vatNumber, vatMention: invoiced.vatMention };
}
