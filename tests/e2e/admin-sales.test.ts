import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { orders, paymentAttempts, refunds } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  activeVoucher,
  insertHeldAttempt,
  insertOrder,
  insertPaidCardAttempt,
} from "../support/admin-sales";
import { serverDatabase } from "../support/server-under-test";
import { signedInPage } from "./support/admin";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * The admin's sales and vouchers pages on a phone (decisions 0130, 0162): no accessibility violation and
 * nothing wider than the screen. What the server answers to each post is tests/http/admin-sales.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

describe("sales and vouchers on a phone", () => {
  it("/admin/ventes, an order with its actions /admin/bons-cadeaux, /admin/factures and /admin/comptabilite pass axe and fit", async () => {
    const { order } = await insertOrder({ method: "transfer", buyer: "Axe Téléphone" });
    await activeVoucher("Axe Bon");
    // A paid order: its refund form, and its French refusal beyond what was paid.
    const paid = await insertOrder({ method: "studio", buyer: "Axe Payée" });
    await serverDatabase()
      .update(paymentAttempts)
      .set({ status: "succeeded", succeededAt: new Date(), means: "cash" })
      .where(eq(paymentAttempts.orderId, paid.order.id));
    await serverDatabase()
      .update(orders)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(orders.id, paid.order.id));
    // A held payment to decide on, and a paid card order with a refund on its way and one that failed
    // (decisions 0171, 0172).
    const held = await insertOrder({ method: "card", buyer: "Axe Retenue" });
    const heldAttempt = await insertHeldAttempt(held.order, 7000);
    const refunded = await insertOrder({ method: "card", buyer: "Axe Remboursements" });
    const cardAttempt = await insertPaidCardAttempt(refunded.order);
    await serverDatabase()
      .insert(refunds)
      .values(
        (["pending", "failed"] as const).map((status, index) => ({
          orderId: refunded.order.id,
          attemptId: cardAttempt.id,
          amountCents: 2000,
          status,
          providerReference: `re_${randomUUID()}`,
          error: status === "failed" ? "La carte du client a expiré ou a été annulée." : null,
          idempotencyKey: randomUUID(),
          createdAt: new Date(Date.now() - index * 60_000),
        })),
      );
    const page = await signedInPage(openPage, admin.account(), "/admin/ventes", PHONE);
    for (const path of [
      "/admin/ventes",
      `/admin/ventes/${order.id}`,
      `/admin/ventes/${order.id}?payer=cheque`,
      `/admin/ventes/${paid.order.id}`,
      `/admin/ventes/${paid.order.id}?rembourser=1&montant=999&motif=Essai`,
      `/admin/ventes/${held.order.id}`,
      `/admin/ventes/${held.order.id}?accepter=${heldAttempt.id}`,
      `/admin/ventes/${refunded.order.id}`,
      "/admin/bons-cadeaux",
      // With the demo's incomplete seller identity: the paid orders waiting for their invoice.
      "/admin/factures",
      "/admin/comptabilite",
      "/admin/comptabilite?du=2026-02-30&au=2026-01-01",
    ]) {
      await page.goto(path);
      await page.locator("h1").first().waitFor();
      expect(await axeViolations(page), path).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).toBeLessThanOrEqual(390);
    }
  });
});
