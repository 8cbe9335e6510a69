import { data } from "react-router";
import type { Route } from "./+types/facture-pdf";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { invoiceNumberOfFile } from "~/lib/invoices/model";
import { invoicePdf, invoicesOfOrder } from "~/server/invoices/orders.server";
import { findOrderByToken } from "~/server/payments/orders.server";
import { pdfDownload } from "~/server/pdf/pdf-download.server";

/**
 * /commande/{jeton}/facture/{numéro}.pdf (decision 0181): an invoice or credit note of this order, for its
 * buyer; 404 for an unknown order and for any number that is not one of its own. Never cached.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const number = invoiceNumberOfFile(params.file);
  const page = number ? await findOrderByToken(params.token) : null;
  const invoice = page
    ? (await invoicesOfOrder(page.order.id)).find((each) => each.number === number)
    : undefined;
  if (!invoice) throw data("Facture introuvable.", NOT_FOUND_INIT);
  const pdf = await invoicePdf(invoice);
  return pdfDownload(pdf.bytes, pdf.filename);
}
