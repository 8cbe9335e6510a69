import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstFreeTime } from "../support/booking";
import { confirmationWithInvoice, prepareDepositSite } from "../support/booking-deposits";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { useOwnServerWithMail } from "../support/own-server";
import { ensurePdfTools } from "../support/pdf-tools";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * A booking's deposit on a phone (decision 0186), once, end to end: arrhes by card through the (fake)
 * Stripe's hosted page, back on the order's page, the booking confirmed and its e-mail linking the
 * « facture d'acompte », whose PDF is read as text. The same booking by transfer with JavaScript off, the
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

beforeAll(() => prepareDepositSite(TYPE_SLUG));

describe("a booking with a deposit", () => {
  it("arrhes by card on a phone: the provider's page, the booking confirmed, the invoice in the e-mail", async () => {
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
  });
});
