import type { Route } from "./+types/fichier";
import { ACCOUNTING_FILES } from "~/lib/accounting/files";
import { checkPeriod } from "~/lib/accounting/period";
import { requireAdmin } from "~/server/admin/guard.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import {
  paymentsReceived,
  receiptsBook,
  salesJournal,
  vouchersOutstanding,
  type AccountingExport,
  type Period,
} from "~/server/accounting/exports.server";

const BUILD: Record<string, (period: Period) => Promise<AccountingExport>> = {
  "livre-des-recettes.csv": receiptsBook,
  "journal-des-ventes.csv": salesJournal,
  "encaissements.csv": paymentsReceived,
  "bons-cadeaux-a-honorer.csv": (period) => vouchersOutstanding(period.to),
};

/**
 * /admin/comptabilite/{fichier}?du=…&au=… (decision 0182): one of the accountant's CSV files for a period;
 * 404 for another name, 400 in French for a period that is not one (the page checks it first): French
 * pages (decision 0202).
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  await requireAdmin(request, { resource: true });
  const build = ACCOUNTING_FILES.some((each) => each.file === params.file)
    ? BUILD[params.file]
    : undefined;
  if (!build) throw refuse(404);
  const search = new URL(request.url).searchParams;
  const checked = checkPeriod(search.get("du") ?? "", search.get("au") ?? "");
  if (!checked.ok) throw refuse(400, Object.values(checked.errors).join(" "));
  const made = await build(checked.period);
  return new Response(made.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${made.filename}"`,
      "Cache-Control": "no-store",
    },
  });
});
