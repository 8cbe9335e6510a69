import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteDocuments } from "../../app/server/db/schema";
import { useDocumentsRestored } from "../support/admin-content";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * A voucher paid by card, JavaScript off (decisions 0163, 0168): the order answers a 303 to the provider's
 * page; back from it before the payment is known the order's page says so and refreshes itself by a
 * <meta>; a checkout the provider could not open leads to the order's page, which offers « Payer par
 * carte » again. The whole walk in a browser: tests/e2e/vouchers-journey.test.ts.
 */

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51VoucherCardWithoutScript0000" });
});
afterAll(async () => {
  await fake.close();
});
useOwnServer(() => ({
  STRIPE_SECRET_KEY: fake.secretKey,
  STRIPE_API_URL: fake.apiUrl,
  STRIPE_CHECKOUT_ORIGIN: fake.pageOrigin,
}));
const original = useDocumentsRestored(["payments"] as const);
beforeAll(async () => {
  await serverDatabase()
    .update(siteDocuments)
    .set({ data: { ...original("payments"), vouchersOnSale: true, card: true } })
    .where(eq(siteDocuments.key, "payments"));
});

const PAGE = "/bons-cadeaux";

async function orderByCard(): Promise<FetchedPage> {
  const form = await fetchPage(PAGE);
  return postForm(PAGE, {
    offre: "montant",
    montant: "100",
    studio: "tous",
    beneficiaire: "Léa Martin",
    message: "",
    envoi: "maintenant",
    destinataire: "acheteur",
    acheteurNom: "Zoé Lefèvre",
    acheteurEmail: "zoe@example.test",
    paiement: "card",
    conditions: "on",
    cle: form.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "",
  });
}

const refreshOf = (page: FetchedPage) =>
  page.document.querySelector('meta[http-equiv="refresh"]')?.getAttribute("content") ?? null;

describe("a voucher paid by card, without JavaScript", () => {
  it("goes to the provider's page; back before the payment is known, the page checks and refreshes itself", async () => {
    const placed = await orderByCard();
    expect(placed.status).toBe(303);
    const checkout = new URL(placed.headers.get("location") ?? "");
    expect(checkout.origin).toBe(fake.pageOrigin);
    const sessionId = checkout.pathname.split("/").at(-1) ?? "";
    const session = fake.session(sessionId);
    expect(session?.amount_total).toBe(10_000);

    const back = new URL(String(session?.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId));
    const waiting = await fetchPage(`${back.pathname}${back.search}`);
    expect(waiting.status).toBe(200);
    expect(textOf(waiting.document.body)).toContain("Paiement en cours de vérification");
    expect(refreshOf(waiting)).toBe("5");

    // Left with « Retour » on the provider's page (its cancel address): « Payer par carte » goes back to
    // the same checkout.
    const left = await fetchPage(back.pathname);
    expect(textOf(left.document.body)).toContain("Paiement à faire");
    expect(refreshOf(left)).toBeNull();
    const again = await postForm(back.pathname, { intent: "payer" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(checkout.href);

    fake.holdEvents();
    await fake.pay(sessionId);
    const paid = await fetchPage(`${back.pathname}${back.search}`);
    expect(textOf(paid.document.body)).toContain("Paiement confirmé");
    expect(textOf(paid.document.body)).toContain("État : Payée");
    expect(refreshOf(paid)).toBeNull();
    fake.releaseEvents();
  });

  it("offers « Payer par carte » again when the provider could not open the checkout", async () => {
    fake.failNext({ status: 500, times: 3 });
    const placed = await orderByCard();
    expect(placed.status).toBe(303);
    const location = placed.headers.get("location") ?? "";
    expect(location).toMatch(/^\/commande\/[A-Za-z0-9_-]{43}$/);
    const page = await fetchPage(location);
    expect(textOf(page.document.body)).toContain("Le paiement n'a pas abouti");

    const again = await postForm(location, { intent: "payer" });
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get("location") ?? "").origin).toBe(fake.pageOrigin);
  });
});
