import type { Route } from "./+types/bon-pdf";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { findOrderByToken } from "~/server/payments/orders.server";
import { voucherPdfForOrder } from "~/server/vouchers/queries.server";
import { pdfDownload } from "~/server/pdf/pdf-download.server";

/**
 * /commande/{jeton}/bon.pdf (decision 0167): the voucher's PDF, downloaded from its order's page; 404 for
 * an unknown order and before the voucher is issued (or once cancelled), a French page (decision 0202).
 * Never cached.
 */
export const loader = fileRoute(async ({ params }: Route.LoaderArgs) => {
  const page = await findOrderByToken(params.token);
  const pdf = page ? await voucherPdfForOrder(page.order.id) : null;
  if (!pdf) throw refuse(404);
  return pdfDownload(pdf.bytes, pdf.filename);
});
