import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  invoices,
  moneyJournal,
  orders,
  providerEvents,
  refunds,
  vouchers,
} from "../../app/server/db/schema";
import { useCardVoucherShop } from "../support/card-voucher-shop";
import { fetchPage, postForm, textOf } from "../support/html";
import { completeLegal } from "../support/seller";
import { serverDatabase } from "../support/server-under-test";
import { voucherOrderFields } from "../support/voucher-form";

/*
 * A refund the owner makes in Stripe's dashboard instead of the order's page (decision 0194): Stripe's
 * `charge.refunded` reaches the site, which records it as its own: the refund on the order, its journal row
 * and credit note, the order refunded and its voucher cancelled when nothing paid is left, the buyer's
 * e-mail, and the owner told what the site did. The same event delivered again records nothing more.
 */

const { stripe, received } = useCardVoucherShop("sk_test_51VoucherDashboardRefund000", {
  legal: completeLegal,
});

const PAGE = "/bons-cadeaux";

/** A session voucher bought and paid by card: its order, its page and Stripe's payment intent. */
async function voucherPaidByCard(buyer: string) {
  const form = await fetchPage(PAGE);
  const placed = await postForm(
    PAGE,
    voucherOrderFields({
      acheteurEmail: buyer,
      cle: form.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "",
    }),
  );
  const sessionId = new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
  const path = new URL(String(stripe().session(sessionId)?.success_url)).pathname;
  const paid = await stripe().pay(sessionId);
  const [order] = await serverDatabase().select().from(orders).where(eq(orders.buyerEmail, buyer));
  if (!order) throw new Error("no order");
  await expect
    .poll(
      async () =>
        (await serverDatabase().select().from(vouchers).where(eq(vouchers.orderId, order.id)))[0]
          ?.status,
    )
    .toBe("active");
  return { order, path, paymentIntent: String(paid.payment_intent) };
}

const refundsOf = (orderId: string) =>
  serverDatabase().select().from(refunds).where(eq(refunds.orderId, orderId));

const ownerMailsAbout = async (orderId: string) =>
  (
    await serverDatabase().execute<{ event: string }>(sql`
      select data->>'event' as event from pgboss.job
      where name = 'mail' and data->>'kind' = 'payment-owner' and data->>'orderId' = ${orderId}`)
  ).rows.map((row) => row.event);

describe("a refund made in Stripe's dashboard", () => {
  it("is recorded as the site's own: journal, credit note, order refunded, voucher cancelled, both told", async () => {
    const { order, path, paymentIntent } = await voucherPaidByCard(
      `tableau-${Date.now()}@example.test`,
    );

    const made = await stripe().refundFromDashboard(paymentIntent);
    await expect.poll(async () => (await refundsOf(order.id))[0]?.status).toBe("succeeded");
    const [refund] = await refundsOf(order.id);
    expect(refund).toMatchObject({
      amountCents: order.amountCents,
      providerReference: made.id,
      reason: "Remboursement fait depuis le tableau de bord Stripe",
    });
    await expect
      .poll(
        async () =>
          (await serverDatabase().select().from(orders).where(eq(orders.id, order.id)))[0]?.status,
      )
      .toBe("refunded");
    const [voucher] = await serverDatabase()
      .select()
      .from(vouchers)
      .where(eq(vouchers.orderId, order.id));
    expect(voucher?.status).toBe("cancelled");
    const journal = await serverDatabase()
      .select({ amountCents: moneyJournal.amountCents })
      .from(moneyJournal)
      .where(and(eq(moneyJournal.orderId, order.id), eq(moneyJournal.kind, "refund")));
    expect(journal).toEqual([{ amountCents: -order.amountCents }]);
    const creditNotes = await serverDatabase()
      .select({ refundId: invoices.refundId })
      .from(invoices)
      .where(and(eq(invoices.orderId, order.id), eq(invoices.kind, "credit_note")));
    expect(creditNotes).toEqual([{ refundId: refund?.id }]);
    expect(textOf((await fetchPage(path)).document.body)).toContain("Remboursée");

    await expect
      .poll(() =>
        received().filter((mail) =>
          mail.subject.startsWith("Remboursement fait dans Stripe enregistré"),
        ),
      )
      .toHaveLength(1);
    const [told] = received().filter((mail) =>
      mail.subject.startsWith("Remboursement fait dans Stripe"),
    );
    expect(told?.text.replace(/\s+/g, " ")).toContain("L'avoir a été émis et envoyé au client");
    expect(await ownerMailsAbout(order.id)).toEqual(["refund_outside"]);

    // Stripe sends the event again (a retry): nothing more is recorded.
    const [event] = stripe()
      .events("charge.refunded")
      .filter((sent) => JSON.stringify(sent).includes(paymentIntent));
    if (!event) throw new Error("no charge.refunded");
    await stripe().deliver(event.id);
    const [stored] = await serverDatabase()
      .select({ outcome: providerEvents.outcome })
      .from(providerEvents)
      .where(eq(providerEvents.eventId, event.id));
    expect(stored?.outcome).toBe("recorded_outside");
    expect(await refundsOf(order.id)).toHaveLength(1);
  });

  it("records one Stripe settles later, and a part of the payment as a part", async () => {
    const { order, paymentIntent } = await voucherPaidByCard(
      `tableau-partiel-${Date.now()}@example.test`,
    );
    stripe().refundOutcome = "pending";
    try {
      const made = await stripe().refundFromDashboard(paymentIntent, 2_000);
      // Nothing names it yet but its own events: Stripe's `refund.updated` once it settles.
      await stripe().settleRefund(made.id, "succeeded");
      await expect.poll(async () => (await refundsOf(order.id))[0]?.status).toBe("succeeded");
      expect(await refundsOf(order.id)).toMatchObject([
        { amountCents: 2_000, providerReference: made.id },
      ]);
      const [now] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
      expect(now?.status).toBe("paid");
      // A session voucher is not divisible: a part refunded leaves it whole (decision 0167).
      const [voucher] = await serverDatabase()
        .select()
        .from(vouchers)
        .where(eq(vouchers.orderId, order.id));
      expect(voucher?.status).toBe("active");
    } finally {
      stripe().refundOutcome = "succeeded";
    }
  });
});
