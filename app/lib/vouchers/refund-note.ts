import { formatCents } from "~/lib/prices";

/*
 * What « Rembourser » on a voucher's order does to its voucher, told on the refund form before the owner
 * confirms (decision 0167): an amount's balance lowered by what is refunded, a session voucher left whole
 * by a partial refund, a voucher that served left as it is. What a refund will take of a voucher is out of
 * its holder's reach from the moment it is asked, though the voucher changes only once it is done (by
 * transfer or in cash, when the owner marks it given back): the notes say both, and the owner's list of
 * vouchers says why a voucher no longer serves in full meanwhile (« remboursement en cours »).
 */

export type RefundedVoucher = {
  kind: "session" | "amount";
  status: string;
  balanceCents: number;
};

/**
 * What the refunds of a voucher's order still on their way will take of it when done: the whole voucher
 * (`cancels`), or `heldCents` of an amount's balance.
 */
export type VoucherRefundHold = { onTheirWayCents: number; cancels: boolean; heldCents: number };

/**
 * The sentence for the voucher of the order being refunded; null when a refund no longer changes it.
 * `beyondPriceCents`: what is still paid beyond the order's price (a second payment of it), given back
 * first without touching its voucher.
 */
export function voucherRefundNote(
  voucher: RefundedVoucher,
  beyondPriceCents = 0,
  hold: VoucherRefundHold | null = null,
): string | null {
  if (voucher.status !== "active" && voucher.status !== "expired" && voucher.status !== "used") {
    return null;
  }
  if (hold?.cancels && voucher.status !== "used") {
    return "Un remboursement en cours rend déjà tout ce qui a été payé : ce bon ne peut plus servir, et il sera annulé une fois ce remboursement fait. Un nouveau remboursement ne changerait plus le bon.";
  }
  if (voucher.kind === "amount") {
    // What the refunds already on their way will take is no longer the voucher's to lose.
    const balance = voucher.balanceCents - (hold?.heldCents ?? 0);
    if (voucher.status === "used" || balance <= 0) {
      return voucher.status === "used" || voucher.balanceCents === 0
        ? "Ce bon est entièrement utilisé : un remboursement est un geste commercial, il ne change plus le bon."
        : "Les remboursements en cours prennent déjà tout le solde du bon : un nouveau remboursement est un geste commercial, il ne change plus le bon.";
    }
    const left = formatCents(balance);
    const named = hold?.heldCents ? `${left}, une fois faits les remboursements en cours` : left;
    const when =
      "Dès votre demande, ce montant ne peut plus servir ; le solde affiché baisse une fois le remboursement fait.";
    if (beyondPriceCents > 0) {
      return `Les ${formatCents(beyondPriceCents)} payés en trop se remboursent d'abord sans toucher au bon ; au-delà, son solde (${named}) baisse de ce que vous remboursez ; à partir de ${formatCents(beyondPriceCents + balance)} remboursés, le bon est annulé. ${when}`;
    }
    return `Le solde du bon (${named}) baisse de ce que vous remboursez ; à partir de ${left} remboursés, le bon est annulé. ${when}`;
  }
  if (voucher.status === "used") {
    return "Ce bon a déjà servi : le rembourser ne change pas la séance réservée avec lui. Remboursé en entier, il ne redeviendra pas utilisable si cette séance est annulée.";
  }
  return "Un bon de séance ne se divise pas : un remboursement partiel est un geste commercial qui laisse le bon entier (il offre toujours sa séance). Rembourser tout ce qui reste payé l'annule : il ne peut plus servir dès votre demande, et il est annulé une fois le remboursement fait.";
}

/** What the owner's list of vouchers says of one whose order has a refund on its way; null: nothing to say. */
export function refundOnItsWayNote(
  voucher: RefundedVoucher,
  hold: VoucherRefundHold | null,
): string | null {
  if (!hold || hold.onTheirWayCents === 0) return null;
  if (voucher.status !== "active" && voucher.status !== "expired") return null;
  const amount = formatCents(hold.onTheirWayCents);
  if (hold.cancels) {
    return `Remboursement en cours (${amount}) de tout ce qui a été payé : ce bon ne peut plus servir, il sera annulé une fois le remboursement fait.`;
  }
  if (voucher.kind === "amount" && hold.heldCents > 0) {
    const usable = Math.max(0, voucher.balanceCents - hold.heldCents);
    return `Remboursement en cours (${amount}) : ${formatCents(hold.heldCents)} du solde partent avec lui, il reste ${formatCents(usable)} utilisables.`;
  }
  return `Remboursement en cours (${amount}) d'une partie de la commande : un geste commercial, le bon reste utilisable en entier.`;
}
