import { describe, expect, it } from "vitest";
import { refundOnItsWayNote, voucherRefundNote } from "./refund-note";

const WHEN =
  " Dès votre demande, ce montant ne peut plus servir ; le solde affiché baisse une fois le remboursement fait.";

describe("voucherRefundNote", () => {
  it("tells that an amount's balance goes down by the refund, and from when it is cancelled", () => {
    expect(voucherRefundNote({ kind: "amount", status: "active", balanceCents: 7_000 })).toBe(
      `Le solde du bon (70\u00a0€) baisse de ce que vous remboursez ; à partir de 70\u00a0€ remboursés, le bon est annulé.${WHEN}`,
    );
    // Paid twice: the second payment goes back first, the voucher untouched.
    expect(
      voucherRefundNote({ kind: "amount", status: "active", balanceCents: 7_000 }, 10_000),
    ).toBe(
      `Les 100\u00a0€ payés en trop se remboursent d'abord sans toucher au bon ; au-delà, son solde (70\u00a0€) baisse de ce que vous remboursez ; à partir de 170\u00a0€ remboursés, le bon est annulé.${WHEN}`,
    );
    expect(voucherRefundNote({ kind: "amount", status: "used", balanceCents: 0 })).toMatch(
      /^Ce bon est entièrement utilisé : un remboursement est un geste commercial/,
    );
  });

  it("tells that a partial refund leaves a session voucher whole, and what a used one keeps", () => {
    expect(voucherRefundNote({ kind: "session", status: "active", balanceCents: 15_000 })).toMatch(
      /^Un bon de séance ne se divise pas : un remboursement partiel est un geste commercial qui laisse le bon entier/,
    );
    expect(voucherRefundNote({ kind: "session", status: "used", balanceCents: 0 })).toMatch(
      /ne redeviendra pas utilisable si cette séance est annulée\.$/,
    );
  });

  it("counts what the refunds already on their way will take, and never promises a voucher they cancel", () => {
    const active = { kind: "amount", status: "active", balanceCents: 10_000 } as const;
    expect(
      voucherRefundNote(active, 0, { onTheirWayCents: 8_000, cancels: false, heldCents: 8_000 }),
    ).toBe(
      `Le solde du bon (20\u00a0€, une fois faits les remboursements en cours) baisse de ce que vous remboursez ; à partir de 20\u00a0€ remboursés, le bon est annulé.${WHEN}`,
    );
    expect(
      voucherRefundNote({ kind: "session", status: "active", balanceCents: 15_000 }, 0, {
        onTheirWayCents: 15_000,
        cancels: true,
        heldCents: 15_000,
      }),
    ).toMatch(
      /^Un remboursement en cours rend déjà tout ce qui a été payé : ce bon ne peut plus servir/,
    );
    expect(voucherRefundNote({ kind: "session", status: "active", balanceCents: 15_000 })).toMatch(
      /Rembourser tout ce qui reste payé l'annule : il ne peut plus servir dès votre demande/,
    );
  });

  it("tells the owner's list why a voucher no longer serves in full: « remboursement en cours »", () => {
    const amount = { kind: "amount", status: "active", balanceCents: 10_000 } as const;
    const session = { kind: "session", status: "active", balanceCents: 15_000 } as const;
    expect(refundOnItsWayNote(amount, null)).toBeNull();
    expect(
      refundOnItsWayNote(amount, { onTheirWayCents: 8_000, cancels: false, heldCents: 8_000 }),
    ).toBe(
      "Remboursement en cours (80\u00a0€) : 80\u00a0€ du solde partent avec lui, il reste 20\u00a0€ utilisables.",
    );
    expect(
      refundOnItsWayNote(session, { onTheirWayCents: 15_000, cancels: true, heldCents: 15_000 }),
    ).toBe(
      "Remboursement en cours (150\u00a0€) de tout ce qui a été payé : ce bon ne peut plus servir, il sera annulé une fois le remboursement fait.",
    );
    expect(
      refundOnItsWayNote(session, { onTheirWayCents: 2_000, cancels: false, heldCents: 0 }),
    ).toMatch(/^Remboursement en cours \(20\u00a0€\) d'une partie de la commande/);
  });

  it("says nothing of a voucher cancelled or not yet paid", () => {
    expect(voucherRefundNote({ kind: "amount", status: "cancelled", balanceCents: 0 })).toBeNull();
    expect(
      voucherRefundNote({ kind: "session", status: "awaiting_payment", balanceCents: 15_000 }),
    ).toBeNull();
  });
});
