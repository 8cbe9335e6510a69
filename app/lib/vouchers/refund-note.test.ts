import { describe, expect, it } from "vitest";
import { voucherRefundNote } from "./refund-note";

describe("voucherRefundNote", () => {
  it("tells that an amount's balance goes down by the refund, and from when it is cancelled", () => {
    expect(voucherRefundNote({ kind: "amount", status: "active", balanceCents: 7_000 })).toBe(
      "Le solde du bon (70\u00a0€) baisse de ce que vous remboursez ; à partir de 70\u00a0€ remboursés, le bon est annulé.",
    );
    // Paid twice: the second payment goes back first, the voucher untouched.
    expect(
      voucherRefundNote({ kind: "amount", status: "active", balanceCents: 7_000 }, 10_000),
    ).toBe(
      "Les 100\u00a0€ payés en trop se remboursent d'abord sans toucher au bon ; au-delà, son solde (70\u00a0€) baisse de ce que vous remboursez ; à partir de 170\u00a0€ remboursés, le bon est annulé.",
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

  it("says nothing of a voucher cancelled or not yet paid", () => {
    expect(voucherRefundNote({ kind: "amount", status: "cancelled", balanceCents: 0 })).toBeNull();
    expect(
      voucherRefundNote({ kind: "session", status: "awaiting_payment", balanceCents: 15_000 }),
    ).toBeNull();
  });
});
