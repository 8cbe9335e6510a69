import type { Route } from "./+types/index";
import { sellerGaps } from "~/lib/legal/seller";
import { requireAdmin } from "~/server/admin/guard.server";
import { loadDocument } from "~/server/content/content-store.server";
import { pagePosition, searchParam } from "~/server/db/keyset.server";
import {
  INVOICE_LIST_ORDER,
  invoicePage,
  ordersWithoutInvoice,
} from "~/server/invoices/orders.server";
import { useInvoicesHeld } from "~/server/invoices/voucher-uses.server";

/**
 * /admin/factures (decision 0181): the invoices and credit notes, newest first, a page at a time, each
 * with its PDF, or those a search (`q`: a number, a buyer's name or e-mail) finds; and, while the
 * seller's identity is incomplete, how many paid orders and uses of multi-purpose vouchers (decision 0198)
 * wait for theirs.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const search = searchParam(params);
  const [page, waiting, usesWaiting, legal] = await Promise.all([
    invoicePage({ search }, pagePosition(INVOICE_LIST_ORDER, params)),
    ordersWithoutInvoice(),
    useInvoicesHeld(),
    loadDocument("legal"),
  ]);
  return {
    search,
    matching: page.matching,
    previous: page.previous,
    next: page.next,
    waiting,
    usesWaiting,
    gaps: sellerGaps(legal),
    invoices: page.rows.map((row) => ({
      id: row.id,
      number: row.number,
      creditNote: row.kind === "credit_note",
      issuedAt: row.issuedAt.toISOString(),
      buyer: row.buyer.name,
      orderId: row.orderId,
      ttcCents: row.ttcCents,
    })),
  };
}
