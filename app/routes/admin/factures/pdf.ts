import type { Route } from "./+types/pdf";
import { invoiceNumberOfFile } from "~/lib/invoices/model";
import { requireAdmin } from "~/server/admin/guard.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { invoiceByNumber, invoicePdf } from "~/server/invoices/orders.server";
import { pdfDownload } from "~/server/pdf/pdf-download.server";

/**
 * /admin/factures/{numéro}.pdf (decision 0181): any invoice or credit note, for the owner; refused (signed
 * out, unknown number) with a French page (decision 0202).
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  await requireAdmin(request, { resource: true });
  const number = invoiceNumberOfFile(params.file);
  const invoice = number ? await invoiceByNumber(number) : null;
  if (!invoice) throw refuse(404);
  const pdf = await invoicePdf(invoice);
  return pdfDownload(pdf.bytes, pdf.filename);
});
