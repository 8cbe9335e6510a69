import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstFreeTime } from "../support/booking";
import {
  confirmationWithInvoice,
  prepareDepositSite,
  refundWithCreditNote,
} from "../support/booking-deposits";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { useOwnServerWithMail } from "../support/own-server";
import { ensurePdfTools } from "../support/pdf-tools";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * A booking's deposit on a phone (decision 0186), once, end to end: arrhes by card through the (fake)
 * Stripe's hosted page, left there (« Abandonner ») and resumed from the order's page, paid, the booking
 * confirmed and its e-mail linking the « facture d'acompte », whose PDF is read as text; then the client
 * cancels in time from her booking's page, told first what becomes of her arrhes, and the refund's
 * e-mail links the credit note (« avoir »), read as text too. The same booking by transfer with JavaScript off, the
 * owner marking it paid: tests/http/booking-deposit-transfer.test.ts; the refusals and the page's words
 * without JavaScript: tests/http/booking-deposit.test.ts; the hold, the window closing, a late payment, cancellations:
 * app/server/booking/deposits.integration.test.ts.
 */

let fake: FakeStripe;
beforeAll(async () => {
  ensurePdfTools();
  fake = await startFakeStripe({ secretKey: "sk_test_51DepositJourneyByCard000000000" });
});
afterAll(async () => {
  await fake.close();
});
const { url, mailsTo } = useOwnServerWithMail(() => siteStripeEnv(fake));
const { openPage } = useBrowser({ baseUrl: url });

const PHONE = {
  timezoneId: "Europe/Paris",
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
const TYPE_SLUG = "portrait-arrhes-parcours";

beforeAll(() => prepareDepositSite(TYPE_SLUG, { refundAtOnce: true }));

describe("a booking with a deposit", () => {
  it("arrhes by card on a phone: left and resumed, paid, the invoice in the e-mail; cancelled in time, refunded with its credit note", async () => {
    const { href } = await firstFreeTime(`/reserver/brive/${TYPE_SLUG}`);
    const page = await openPage(href, { ...PHONE, allowOrigins: [fake.pageOrigin] });
    await page.getByRole("heading", { level: 1, name: "Réserver ce créneau" }).waitFor();
    expect(await page.locator("form").innerText()).toContain("vous rend le double");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Nom et prénom").fill("Léa Fournier");
    await page
      .getByRole("textbox", { name: "E-mail", exact: true })
      .fill("lea.arrhes@example.test");
    await page.getByRole("radio", { name: "Carte bancaire" }).check();
    await page.getByRole("checkbox", { name: /J'accepte les conditions/ }).check();
    await page.getByRole("button", { name: "Réserver et payer" }).click();

    // Left on the provider's page, then resumed from the order's page: the same checkout.
    await page.waitForURL((address) => address.origin === fake.pageOrigin);
    await page.getByRole("button", { name: "Abandonner" }).click();
    await page.getByRole("heading", { name: "Paiement à faire" }).waitFor();
    expect(await page.getByRole("heading", { name: "État : En attente de paiement" }).count()).toBe(
      1,
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Payer par carte" }).click();
    await page.waitForURL((address) => address.origin === fake.pageOrigin);
    await page.getByRole("button", { name: "Payer" }).click();
    await page.waitForURL((address) => address.origin === new URL(url()).origin);
    expect(new URL(page.url()).pathname).toMatch(/^\/commande\/[A-Za-z0-9_-]{43}$/);
    await expect
      .poll(async () => {
        await page.reload();
        return page.getByRole("heading", { name: "État : Payée" }).isVisible();
      })
      .toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const { mail, pdf } = await confirmationWithInvoice(mailsTo, "lea.arrhes@example.test");
    expect(mail?.text).toContain("Arrhes payées : 40");
    expect(pdf).toContain("Facture d'acompte");
    expect(pdf).toContain("Arrhes : Portrait arrhes du");
    expect(pdf).toContain("Léa Fournier");
    expect(pdf).toContain("40,00 €");
    const invoiceNumber = /F-\d{4}-\d{6}/.exec(pdf)?.[0] ?? "";

    // She cancels in time from her booking's page: told first that her arrhes come back at once.
    await page.getByRole("link", { name: "Voir ma réservation" }).click();
    await page.getByRole("link", { name: "Votre paiement et sa facture" }).waitFor();
    expect(await axeViolations(page), "réservation, arrhes payées").toEqual([]);
    await page.getByRole("link", { name: "Annuler la séance" }).click();
    await page
      .getByText("Vos arrhes de 40\u00a0€ vous sont remboursées aussitôt", { exact: false })
      .waitFor();
    await page.getByRole("button", { name: "Oui, annuler ma séance" }).click();
    await page.getByRole("status").getByText("Votre séance est annulée.").waitFor();
    const refund = await refundWithCreditNote(mailsTo, "lea.arrhes@example.test");
    expect(refund.mail?.text).toContain(
      "Nous vous avons remboursé 40\u00a0€ sur la carte utilisée",
    );
    expect(refund.pdf).toContain("Avoir");
    expect(refund.pdf).toContain(`Remboursement — facture ${invoiceNumber}`);
    expect(refund.pdf).toContain("-40,00 €");
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator("main").innerText();
      })
      .toContain("Arrhes de 40\u00a0€ : remboursées.");
    expect(await axeViolations(page), "réservation annulée, arrhes remboursées").toEqual([]);
  });
});
