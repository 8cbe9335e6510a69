import { StatusBadge, type StatusTone } from "~/components/admin/status-badge";
import { VOUCHER_STATUS_LABELS } from "~/lib/payments/admin-words";
import { ORDER_STATUS_LABELS, type OrderStatus } from "~/lib/payments/model";

const ORDER_TONES: Record<OrderStatus, StatusTone> = {
  awaiting_payment: "warning",
  paid: "success",
  expired: "muted",
  cancelled: "muted",
  refunded: "neutral",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <StatusBadge tone={ORDER_TONES[status]}>{ORDER_STATUS_LABELS[status]}</StatusBadge>;
}

const VOUCHER_TONES: Record<keyof typeof VOUCHER_STATUS_LABELS, StatusTone> = {
  awaiting_payment: "warning",
  active: "success",
  used: "neutral",
  expired: "muted",
  cancelled: "muted",
};

export function VoucherStatusBadge({ status }: { status: keyof typeof VOUCHER_STATUS_LABELS }) {
  return <StatusBadge tone={VOUCHER_TONES[status]}>{VOUCHER_STATUS_LABELS[status]}</StatusBadge>;
}

/**
 * What the owner must look at on an order: paid late, a total that differs (held), paid twice, a refund
 * on its way at the provider, money hers to give back by hand, or a refund that failed and was not given
 * again (decision 0171).
 */
export function OrderFlags({
  late,
  held,
  duplicate,
  refundPending = false,
  refundToMake = false,
  refundFailed = false,
}: {
  late: boolean;
  held: boolean;
  duplicate: boolean;
  refundPending?: boolean;
  refundToMake?: boolean;
  refundFailed?: boolean;
}) {
  if (!late && !held && !duplicate && !refundPending && !refundToMake && !refundFailed) return null;
  return (
    <p className="flex flex-wrap gap-1">
      {late ? <StatusBadge tone="danger">Paiement en retard</StatusBadge> : null}
      {held ? <StatusBadge tone="danger">Montant différent</StatusBadge> : null}
      {duplicate ? <StatusBadge tone="danger">Payée deux fois</StatusBadge> : null}
      {refundPending ? <StatusBadge tone="warning">Remboursement en cours</StatusBadge> : null}
      {refundToMake ? <StatusBadge tone="danger">À rembourser par vous</StatusBadge> : null}
      {refundFailed ? <StatusBadge tone="danger">Remboursement échoué</StatusBadge> : null}
    </p>
  );
}
