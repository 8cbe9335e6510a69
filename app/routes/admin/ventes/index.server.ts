import type { Route } from "./+types/index";
import { ORDER_KINDS, ORDER_STATUSES, PAYMENT_METHODS } from "~/lib/payments/model";
import { requireAdmin } from "~/server/admin/guard.server";
import { pagePosition, searchParam } from "~/server/db/keyset.server";
import { ORDER_LIST_ORDER, orderPage } from "~/server/payments/admin-orders.server";

/** A query-string value when it is one of `choices`, else null (no filter). */
function oneOf<const T extends string>(choices: readonly T[], value: string | null): T | null {
  return choices.find((choice) => choice === value) ?? null;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filter = {
    status: oneOf(ORDER_STATUSES, params.get("statut")),
    kind: oneOf(ORDER_KINDS, params.get("type")),
    method: oneOf(PAYMENT_METHODS, params.get("moyen")),
    search: searchParam(params),
  };
  // A page of the orders, newest first (decision 0130): never every order at once.
  const page = await orderPage(filter, pagePosition(ORDER_LIST_ORDER, params));
  return {
    filter,
    matching: page.matching,
    previous: page.previous,
    next: page.next,
    orders: page.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}
