import type { Route } from "./+types/facture-pdf";
import { invoiceNumberOfFile } from "~/lib/invoices/model";
import { findBookingByManageToken } from "~/server/booking/bookings.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { invoicePdf } from "~/server/invoices/orders.server";
import { clientInvoicesOfBooking } from "~/server/invoices/voucher-uses.server";
import { pdfDownload } from "~/server/pdf/pdf-download.server";

/**
 * /reservation/{jeton}/facture/{numéro}.pdf: an invoice or credit note of this booking's client that no order
 * page of hers serves (clientInvoicesOfBooking): a gift voucher's use that paid its deposit or balance
 * (decisions 0199 and 0201), the final invoice of its balance paid at the studio (0201, amended); 404 for
 * an unknown token and for any other number (another booking's, an order's), a French page (decision
 * 0202). As the order's invoices (`/commande/{jeton}/facture/…`): never cached.
 */
export const loader = fileRoute(async ({ params }: Route.LoaderArgs) => {
  const number = invoiceNumberOfFile(params.file);
  const booking = number ? await findBookingByManageToken(params.token) : null;
  const invoice = booking
    ? (await clientInvoicesOfBooking(booking.id)).find((each) => each.number === number)
    : undefined;
  if (!invoice) throw refuse(404);
  const pdf = await invoicePdf(invoice);
  return pdfDownload(pdf.bytes, pdf.filename);
});
