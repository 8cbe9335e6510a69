import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders, refunds } from "../../app/server/db/schema";
import { useCardVoucherShop } from "../support/card-voucher-shop";
import { fetchPage, postForm, textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";
import { voucherOrderFields } from "../support/voucher-form";

/*
 * A card refund that Stripe first answers `pending`, then fails (the buyer's card closed meanwhile,
 * decision 0171): the buyer's page says it could not be made and that the studio will be in touch, never
 * « en cours » for ever, and the owner is e-mailed which order, how much, why and what to do.
 */

const { stripe, received } = useCardVoucherShop("sk_test_51VoucherRefundFailedLater00");

const PAGE = "/bons-cadeaux";

describe("a card refund that fails after Stripe answered pending", () => {
  it("shows the buyer it was not made and e-mails the owner what to do", async () => {
    const buyer = `refus-${Date.now()}@example.test`;
    const form = await fetchPage(PAGE);
    const placed = await postForm(
      PAGE,
      voucherOrderFields({
        acheteurEmail: buyer,
        cle: form.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "",
      }),
    );
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    const session = stripe().session(sessionId);
    const path = new URL(String(session?.success_url)).pathname;
    await stripe().pay(sessionId);
    const [order] = await serverDatabase()
      .select()
      .from(orders)
      .where(eq(orders.buyerEmail, buyer));
    if (!order) throw new Error("no order");
    await expect
      .poll(async () => (await fetchPage(path)).document.body.textContent ?? "")
      .toContain("Payée");

    // The buyer withdraws; Stripe takes the refund, then fails it.
    stripe().refundOutcome = "pending";
    const withdrawn = await postForm(path, { intent: "retracter" });
    expect(withdrawn.status).toBe(303);
    const [refund] = await serverDatabase()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    expect(refund).toMatchObject({ status: "pending" });
    await stripe().settleRefund(String(refund?.providerReference), "failed", {
      failureReason: "expired_or_canceled_card",
    });
    await expect
      .poll(
        async () =>
          (await serverDatabase().select().from(refunds).where(eq(refunds.orderId, order.id)))[0]
            ?.status,
      )
      .toBe("failed");

    const page = textOf((await fetchPage(path)).document.body);
    expect(page).toContain(
      "n'a pas pu être effectué : le studio vous recontacte pour vous rendre cet argent.",
    );
    expect(page).not.toMatch(/Remboursement.*en cours/s);

    await expect
      .poll(async () =>
        (
          await serverDatabase().execute<{ event: string }>(sql`
            select data->>'event' as event from pgboss.job
            where name = 'mail' and data->>'kind' = 'payment-owner'
            and data->>'orderId' = ${order.id}`)
        ).rows.map((row) => row.event),
      )
      .toEqual(["refund_failed"]);
    await expect
      .poll(() => received().filter((mail) => mail.subject.startsWith("Remboursement échoué")))
      .toHaveLength(1);
    const [told] = received().filter((mail) => mail.subject.startsWith("Remboursement échoué"));
    expect(told?.text.replace(/\s+/g, " ")).toContain(
      "Raison : La carte du client a expiré ou a été annulée.",
    );
    stripe().refundOutcome = "succeeded";
  });
});
