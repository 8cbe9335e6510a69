import { formatCents } from "~/lib/prices";

/*
 * What « Rembourser » on a voucher's order does to its voucher, told on the refund form before the owner
 * confirms (decision 0167): an amount's balance lowered by what is refunded, a session voucher left whole
 * by a partial refund, a voucher that served left as it is.
 */

export type RefundedVoucher = {
  kind: "session" | "amount";
  status: string;
  balanceCents: number;
};

/**
 * The sentence for the voucher of the order being refunded; null when a refund no longer changes it.
 * `beyondPriceCents`: what is still paid beyond the order's price (a second payment of it), given back
 * first without touching its voucher.
 */
export function voucherRefundNote(voucher: RefundedVoucher, beyondPriceCents = 0): string | null {
  if (voucher.status !== "active" && voucher.status !== "expired" && voucher.status !== "used") {
    return null;
  }
  if (voucher.kind === "amount") {
    if (voucher.status === "used" || voucher.balanceCents === 0) {
      return "Ce bon est entièrement utilisé : un remboursement est un geste commercial, il ne change plus le bon.";
    }
    const left = formatCents(voucher.balanceCents);
    if (beyondPriceCents > 0) {
      return `Les ${formatCents(beyondPriceCents)} payés en trop se remboursent d'abord sans toucher au bon ; au-delà, son solde (${left}) baisse de ce que vous remboursez ; à partir de ${formatCents(beyondPriceCents + voucher.balanceCents)} remboursés, le bon est annulé.`;
    }
    return `Le solde du bon (${left}) baisse de ce que vous remboursez ; à partir de ${left} remboursés, le bon est annulé.`;
  }
  if (voucher.status === "used") {
    return "Ce bon a déjà servi : le rembourser ne change pas la séance réservée avec lui. Remboursé en entier, il ne redeviendra pas utilisable si cette séance est annulée.";
  }
  return "Un bon de séance ne se divise pas : un remboursement partiel est un geste commercial qui laisse le bon entier (il offre toujours sa séance). Rembourser tout ce qui reste payé l'annule.";
}
