import type { Route } from "./+types/index";
import { ACCOUNTING_FILES, accountingFilePath } from "~/lib/accounting/files";
import { checkPeriod, lastMonth } from "~/lib/accounting/period";
import { parisToday } from "~/lib/dates";
import { formatCents } from "~/lib/prices";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  paymentsReceived,
  receiptsBook,
  salesJournal,
  vouchersOutstanding,
} from "~/server/accounting/exports.server";
import { now } from "~/server/clock.server";

/**
 * /admin/comptabilite (decision 0182): a period (the last whole month by default), what each of the
 * accountant's files holds for it (rows and total), and their downloads.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  const fallback = lastMonth(parisToday(now()));
  const typed = {
    from: search.get("du") ?? fallback.from,
    to: search.get("au") ?? fallback.to,
  };
  const checked = checkPeriod(typed.from, typed.to);
  if (!checked.ok) return { typed, errors: checked.errors, files: [] };
  const { period } = checked;
  const made = await Promise.all([
    receiptsBook(period),
    salesJournal(period),
    paymentsReceived(period),
    vouchersOutstanding(period.to),
  ]);
  return {
    typed,
    errors: {},
    files: ACCOUNTING_FILES.map((file, index) => ({
      ...file,
      href: accountingFilePath(file.file, period.from, period.to),
      rows: made[index]?.rows ?? 0,
      total: formatCents(made[index]?.totalCents ?? 0),
    })),
  };
}
