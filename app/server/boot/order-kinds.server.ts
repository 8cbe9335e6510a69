import { photoSalesOrderKind } from "../galleries/photo-sales.server";
import { balanceOrderKind, depositOrderKind } from "../booking/deposits.server";
import { voucherOrderKind } from "../vouchers/order-kind.server";
import { provideOrderKinds, type OrderKindDefinition } from "../payments/order-kinds.server";

/**
 * Every kind of order the site sells (decision 0162): each is defined by its feature (defineOrderKind) and
 * listed here, so that the payments core runs its effects when an order is paid, released or refunded. A
 * new kind: its feature's module and one line here (the test beside this file checks the list against the
 * sources). Gift vouchers' kind is its feature's (server/vouchers/).
 */
export const ORDER_KIND_DEFINITIONS: readonly OrderKindDefinition[] = [
  voucherOrderKind,
  photoSalesOrderKind,
  depositOrderKind,
  balanceOrderKind,
];

/** Gives the payments core the list (prepareDatabase: the server, the command line, the tests). */
export function provideSiteOrderKinds(): void {
  provideOrderKinds(ORDER_KIND_DEFINITIONS);
}
