import { describe, expect, it } from "vitest";
import { failedRefundReplaced } from "./model";

// A failed refund stays the owner's and the buyer's concern until later refunds give back as much.

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 10, minute));
const refund = (status: string, amountCents: number, minute: number) => ({
  status,
  amountCents,
  createdAt: at(minute),
});

describe("failedRefundReplaced", () => {
  const failed = refund("failed", 5_000, 0);

  it("is true once later refunds not failed give back at least as much", () => {
    expect(failedRefundReplaced(failed, [failed, refund("succeeded", 5_000, 1)])).toBe(true);
    expect(
      failedRefundReplaced(failed, [
        failed,
        refund("pending", 3_000, 1),
        refund("to_refund_offline", 2_000, 2),
      ]),
    ).toBe(true);
  });

  it("is false after a smaller gesture, a later failure, or a refund made before it", () => {
    expect(failedRefundReplaced(failed, [failed, refund("succeeded", 1_000, 1)])).toBe(false);
    expect(failedRefundReplaced(failed, [failed, refund("failed", 5_000, 1)])).toBe(false);
    expect(failedRefundReplaced(refund("failed", 5_000, 3), [refund("succeeded", 5_000, 1)])).toBe(
      false,
    );
  });

  it("is false for a refund that did not fail", () => {
    const done = refund("succeeded", 5_000, 0);
    expect(failedRefundReplaced(done, [done, refund("succeeded", 5_000, 1)])).toBe(false);
  });
});
