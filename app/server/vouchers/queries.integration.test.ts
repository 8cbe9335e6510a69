import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { journalRowsOf } from "../../../tests/support/payments";
import { ensurePdfTools, pdfText } from "../../../tests/support/pdf-tools";
import {
  placeVoucherOrder,
  voucherOrderOf,
  voucherRow,
  voucherSettings,
} from "../../../tests/support/vouchers";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { setClockForTests } from "../clock.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { markPaidOffline } from "../payments/orders.server";
import { voucherPage } from "./admin-vouchers.server";
import { voucherOrderKind } from "./order-kind.server";
import {
  cancelVoucher,
  listVouchers,
  voucherOfOrder,
  voucherPdfForOrder,
  vouchersToDeliver,
} from "./queries.server";
import { useAmountVoucher } from "./redemption.server";

// What the order's page and the admin read of vouchers, and the owner's cancellation (decision 0167).

useAppDatabase({ jobs: true });

beforeAll(() => {
  ensurePdfTools();
  provideOrderKinds([voucherOrderKind]);
});
afterEach(() => setClockForTests(null));

describe("vouchers for the order's page and the admin", () => {
  it("gives the order's page its voucher's PDF once issued, never before", async () => {
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "amount", euros: 60 }),
    );
    expect((await voucherOfOrder(orderId))?.id).toBe(voucherId);
    expect(await voucherPdfForOrder(orderId)).toBeNull();
    await markPaidOffline(orderId, "transfer");
    const code = (await voucherRow(voucherId)).code ?? "";
    const pdf = await voucherPdfForOrder(orderId);
    expect(pdf?.filename).toBe(`bon-cadeau-${formatVoucherCode(code)}.pdf`);
    expect(pdfText(pdf?.bytes ?? new Uint8Array())).toContain(formatVoucherCode(code));
  });

  it("lists vouchers newest first, a page at a time, by status", async () => {
    const placed = [];
    for (const [index, euros] of [50, 70, 90].entries()) {
      setClockForTests(new Date(Date.UTC(2027, 0, 10 + index, 10)));
      placed.push(await placeVoucherOrder(voucherOrderOf({ kind: "amount", euros })));
    }
    const ours = new Set(placed.map((order) => order.voucherId));
    const first = (await listVouchers({ limit: 2 })).filter((row) => ours.has(row.id));
    expect(first.map((row) => row.valueCents)).toEqual([9_000, 7_000]);
    const last = first.at(-1);
    const next = await listVouchers({
      limit: 2,
      after: last ? { createdAt: last.createdAt, id: last.id } : undefined,
    });
    expect(next.map((row) => row.valueCents)).toContain(5_000);
    expect((await listVouchers({ status: "active" })).every((row) => row.status === "active")).toBe(
      true,
    );
  });

  it("counts the day's deliveries, and lets the owner cancel a usable voucher with its journal row", async () => {
    setClockForTests(new Date("2027-02-01T10:00:00Z"));
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "amount", euros: 40 }, { deliveryDay: "2027-02-14" }),
    );
    await markPaidOffline(orderId, "cash");
    expect((await vouchersToDeliver("2027-02-14")).map((row) => row.id)).toContain(voucherId);
    expect((await vouchersToDeliver("2027-02-13")).map((row) => row.id)).not.toContain(voucherId);

    const cancelled = await cancelVoucher(voucherId, "Demande de l'acheteur");
    expect(cancelled.status).toBe("cancelled");
    expect((await journalRowsOf(orderId)).at(-1)).toMatchObject({
      kind: "voucher_cancellation",
      amountCents: -4_000,
    });
    await expect(cancelVoucher(voucherId, "")).rejects.toThrow(/rien à annuler/);
    const code = (await voucherRow(voucherId)).code ?? "";
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({
      reason: "cancelled",
    });
  });

  it("shows the owner a voucher past its last day as expired, before the morning's job marks it", async () => {
    // Paid on 1 March 2027 for one month: its last day 1 April 2027, included until midnight in Paris.
    setClockForTests(new Date("2027-03-01T10:00:00Z"));
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "amount", euros: 40 }),
      { settings: voucherSettings({ voucherValidityMonths: 1 }) },
    );
    await markPaidOffline(orderId, "cash");
    const code = (await voucherRow(voucherId)).code ?? "";
    const listed = async (status: "active" | "expired") =>
      (await voucherPage({ status, search: code }, null)).rows.map((row) => row.status);
    // 23:30 in Paris on its last day: still usable, listed as such.
    setClockForTests(new Date("2027-04-01T21:30:00Z"));
    expect(await listed("active")).toEqual(["active"]);
    // 00:30 the next day, the expiry job not yet run (09:30): the row still says active, the list not.
    setClockForTests(new Date("2027-04-01T22:30:00Z"));
    expect((await voucherRow(voucherId)).status).toBe("active");
    expect(await listed("active")).toEqual([]);
    expect(await listed("expired")).toEqual(["expired"]);
  });
});
