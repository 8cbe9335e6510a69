import type { Route } from "./+types/facture-pdf";
import { invoiceNumberOfFile } from "~/lib/invoices/model";
import { invoicePdf, invoicesOfOrder } from "~/server/invoices/orders.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { findOrderByToken } from "~/server/payments/orders.server";
import { pdfDownload } from "~/server/pdf/pdf-download.server";

/**
 * /commande/{jeton}/facture/{numéro}.pdf (decision 0181): an invoice or credit note of this order, for its
 * buyer; 404 for an unknown order and for any number that is not one of its own, a French page (decision
 * 0202). Never cached.
 */
export const loader = fileRoute(async ({ params }: Route.LoaderArgs) => {
  const number = invoiceNumberOfFile(params.file);
  const page = number ? await findOrderByToken(params.token) : null;
  const invoice = page
    ? (await invoicesOfOrder(page.order.id)).find((each) => each.number === number)
    : undefined;
  if (!invoice) throw refuse(404);
  const pdf = await invoicePdf(invoice);
  return pdfDownload(pdf.bytes, pdf.filename);
});
