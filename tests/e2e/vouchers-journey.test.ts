import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteDocuments } from "../../app/server/db/schema";
import { useDocumentsRestored } from "../support/admin-content";
import { insertSessionType, studioIds } from "../support/booking";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * A gift voucher bought by card on a phone (decisions 0163, 0166, 0167), once, end to end: the session
 * offered from its link on /bons-cadeaux, the order posted, « Payer » on the (fake) Stripe's hosted page on
 * another origin (the site's CSP `form-action` must allow it), back on the order's page the payment
 * confirmed once the webhook came, the voucher's PDF downloaded, and the order withdrawn (the card refunded); both pages without an axe-core
 * violation. The forms and refusals without JavaScript: tests/http/vouchers-order.test.ts.
 */

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51VoucherJourneyByCard00000000" });
});
afterAll(async () => {
  await fake.close();
});
const url = useOwnServer(() => ({
  STRIPE_SECRET_KEY: fake.secretKey,
  STRIPE_API_URL: fake.apiUrl,
  STRIPE_CHECKOUT_ORIGIN: fake.pageOrigin,
}));
const { openPage } = useBrowser({ baseUrl: url });
const original = useDocumentsRestored(["payments", "giftSessions"] as const);

const PHONE = {
  timezoneId: "Europe/Paris",
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
let typeId = "";

beforeAll(async () => {
  const database = serverDatabase();
  const { brive } = await studioIds(database);
  typeId = await insertSessionType([brive], { name: "Séance Iris (studio)" }, database);
  const gifts = original("giftSessions");
  const [first, ...rest] = gifts.sessions;
  if (!first) throw new Error("no gift session in the seed");
  await database
    .update(siteDocuments)
    .set({
      data: {
        sessions: [
          {
            ...first,
            title: "Séance Iris",
            price: { kind: "fixed", euros: 120 },
            sessionType: typeId,
          },
          ...rest,
        ],
      },
    })
    .where(eq(siteDocuments.key, "giftSessions"));
  await database
    .update(siteDocuments)
    .set({ data: { ...original("payments"), vouchersOnSale: true, card: true } })
    .where(eq(siteDocuments.key, "payments"));
});

describe("a gift voucher bought by card", () => {
  it("goes from /bons-cadeaux to the provider's page and back to a paid order, its PDF, then its withdrawal", async () => {
    const page = await openPage(`/bons-cadeaux?offre=${typeId}`, {
      ...PHONE,
      allowOrigins: [fake.pageOrigin],
    });
    expect(await axeViolations(page)).toEqual([]);
    await expect
      .poll(() => page.getByRole("radio", { name: /Séance Iris · 120/ }).isChecked())
      .toBe(true);
    await page.getByLabel("Nom du bénéficiaire").fill("Léa Martin");
    await page.getByLabel("Votre message (facultatif)").fill("Joyeux anniversaire !");
    await page.getByLabel("Nom et prénom").fill("Zoé Lefèvre");
    await page.getByRole("textbox", { name: "E-mail", exact: true }).fill("zoe@example.test");
    await page.getByRole("radio", { name: /Carte bancaire/ }).check();
    await page.getByRole("checkbox", { name: /J'accepte les conditions des bons cadeaux/ }).check();
    await page.getByRole("button", { name: "Commander et payer" }).click();

    await page.waitForURL((address) => address.origin === fake.pageOrigin);
    await page.getByRole("button", { name: "Payer" }).click();
    await page.waitForURL((address) => address.origin === new URL(url()).origin);
    expect(new URL(page.url()).pathname).toMatch(/^\/commande\/[A-Za-z0-9_-]{43}$/);
    expect(new URL(page.url()).searchParams.get("paiement")).toMatch(/^cs_/);

    // The webhook reached the site (whichever of it and the return applied the payment first).
    await expect
      .poll(() =>
        fake.deliveries().filter((delivery) => delivery.type === "checkout.session.completed"),
      )
      .toEqual([expect.objectContaining({ status: 200 })]);
    await page.reload();
    await expect.poll(() => page.getByText("Paiement confirmé").isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole("heading", { name: "État : Payée" }).isVisible())
      .toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Télécharger le bon (PDF)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const path = await file.path();
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(path)).subarray(0, 5).toString()).toBe("%PDF-");

    // She changes her mind within 14 days: a confirmation page, then the card refunded.
    await page.getByRole("link", { name: "Annuler ma commande" }).click();
    await page.getByRole("button", { name: "Oui, annuler la commande" }).click();
    await expect
      .poll(() => page.getByText(/le prix payé est remboursé sur votre carte/).isVisible())
      .toBe(true);
    expect(fake.refunds()).toEqual([expect.objectContaining({ amount: 12_000 })]);
    await expect.poll(() => page.getByText("Ce bon est annulé.").isVisible()).toBe(true);
  });
});
