import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isoDayInParis } from "~/lib/dates";
import { useAppDatabase } from "../../../tests/support/database";
import { placeOrder, usePaymentsInMemory } from "../../../tests/support/payments";
import { db } from "../db/client.server";
import { paymentAttempts } from "../db/schema";
import { salesOfDay } from "./admin-orders.server";
import { markPaidOffline, requestRefund } from "./orders.server";

// The dashboard's « Ventes du jour » on a real PostgreSQL: the orders paid that Paris day and still paid,
// with the money they keep.

useAppDatabase({ jobs: true });
usePaymentsInMemory();

describe("the sales of the day", () => {
  it("counts the orders paid that day with what they keep: none refunded in full, a duplicate given back", async () => {
    const today = isoDayInParis(new Date());
    const before = await salesOfDay(today);

    const kept = await placeOrder("studio", 8_000);
    await markPaidOffline(kept.orderId, "cash");
    const partly = await placeOrder("studio", 5_000);
    await markPaidOffline(partly.orderId, "cash");
    await requestRefund(partly.orderId, 1_000, "Geste commercial");
    const whole = await placeOrder("studio", 12_000);
    await markPaidOffline(whole.orderId, "cash");
    await requestRefund(whole.orderId, 12_000, "Rétractation");
    // Paid twice: its duplicate given back, its price kept.
    const twice = await placeOrder("studio", 3_000);
    await markPaidOffline(twice.orderId, "cash");
    const [duplicate] = await db()
      .insert(paymentAttempts)
      .values({
        orderId: twice.orderId,
        provider: "studio",
        providerReference: randomUUID(),
        amountCents: 3_000,
        idempotencyKey: randomUUID(),
        status: "succeeded",
        succeededAt: new Date(),
        means: "cash",
        duplicate: true,
      })
      .returning();
    await requestRefund(twice.orderId, 3_000, "Payée deux fois", { attemptId: duplicate?.id });
    // Not paid: not a sale.
    await placeOrder("studio", 9_000);

    expect(await salesOfDay(today)).toEqual({
      count: before.count + 3,
      totalCents: before.totalCents + 8_000 + 4_000 + 3_000,
    });
  });
});
