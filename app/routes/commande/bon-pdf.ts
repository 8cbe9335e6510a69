import { data } from "react-router";
import type { Route } from "./+types/bon-pdf";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { findOrderByToken } from "~/server/payments/orders.server";
import { voucherPdfForOrder } from "~/server/vouchers/queries.server";
import { pdfDownload } from "~/server/pdf/pdf-download.server";

/**
 * /commande/{jeton}/bon.pdf (decision 0167): the voucher's PDF, downloaded from its order's page; 404 for
 * an unknown order and before the voucher is issued (or once cancelled). Never cached.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const page = await findOrderByToken(params.token);
  const pdf = page ? await voucherPdfForOrder(page.order.id) : null;
  if (!pdf) throw data("Bon introuvable.", NOT_FOUND_INIT);
  return pdfDownload(pdf.bytes, pdf.filename);
}
