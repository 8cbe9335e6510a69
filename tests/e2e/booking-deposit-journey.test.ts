import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteDocuments } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { firstFreeTime, insertSessionType, studioIds } from "../support/booking";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { fetchPage, postForm } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { ensurePdfTools, pdfText } from "../support/pdf-tools";
import { completeLegal } from "../support/seller";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * A booking's deposit on a phone (decision 0186), once, end to end: arrhes by card through the (fake)
 * Stripe's hosted page, back on the order's page, the booking confirmed and its e-mail linking the
 * « facture d'acompte », whose PDF is read as text; the same booking by transfer with JavaScript off, the
 * owner marking it paid. The refusals and the page's words without JavaScript:
 * tests/http/booking-deposit.test.ts; the hold, the window closing, a late payment, cancellations:
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
const admin = useAdmin();

const PHONE = {
  timezoneId: "Europe/Paris",
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
const TYPE_SLUG = "portrait-arrhes-parcours";
const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

beforeAll(async () => {
  const database = serverDatabase();
  const { brive } = await studioIds(database);
  await insertSessionType(
    [brive],
    {
      name: "Portrait arrhes",
      slug: TYPE_SLUG,
      deposit: {
        amount: "fixed",
        value: 4_000,
        priceCents: null,
        nature: "arrhes",
        methods: ["card", "transfer"],
        transferHours: 48,
        refundAtOnce: false,
      },
    },
    database,
  );
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  // Cards accepted by the owner (the CSP's form-action then allows the provider's page).
  const [payments] = await database
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "payments"));
  await database
    .update(siteDocuments)
    .set({ data: { ...(payments?.data as object), card: true, transfer: true } })
    .where(eq(siteDocuments.key, "payments"));
  // Invoices are issued only for a complete seller (decision 0181).
  await database
    .update(siteDocuments)
    .set({ data: completeLegal })
    .where(eq(siteDocuments.key, "legal"));
});

/** The client's confirmation, once it came, and its invoice's PDF read as text. */
async function confirmationWithInvoice(email: string) {
  await expect
    .poll(() => mailsTo(email).map((mail) => mail.subject))
    .toContainEqual(expect.stringMatching(/^Votre séance est réservée/));
  const mail = mailsTo(email).find((candidate) =>
    candidate.subject.startsWith("Votre séance est réservée"),
  );
  const link = /Facture : (\S+\.pdf)/.exec(mail?.text ?? "")?.[1] ?? "";
  expect(link).toMatch(/\/commande\/[A-Za-z0-9_-]+\/facture\/F-\d{4}-\d{6}\.pdf$/);
  const response = await fetch(new URL(new URL(link).pathname, serverBaseUrl()));
  expect(response.status).toBe(200);
  return { mail, pdf: words(pdfText(Buffer.from(await response.arrayBuffer()))) };
}

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

    const { mail, pdf } = await confirmationWithInvoice("lea.arrhes@example.test");
    expect(mail?.text).toContain("Arrhes payées : 40");
    expect(pdf).toContain("Facture d'acompte");
    expect(pdf).toContain("Arrhes : Portrait arrhes du");
    expect(pdf).toContain("Léa Fournier");
    expect(pdf).toContain("40,00 €");
  });

  it("by transfer with JavaScript off: waiting on its order's page, confirmed once the owner marks it paid", async () => {
    const { href } = await firstFreeTime(`/reserver/brive/${TYPE_SLUG}`);
    const email = "hugo.virement@example.test";
    const posted = await postForm(href, {
      name: "Hugo Lefèvre",
      email,
      phone: "",
      consent: "on",
      site_web: "",
      paymentMethod: "transfer",
    });
    expect(posted.status).toBe(303);
    const orderPage = await fetchPage(posted.headers.get("location") ?? "");
    expect(orderPage.status).toBe(200);
    expect(orderPage.html).toContain("Virement");
    const [order] = (
      await serverDatabase().execute<{ id: string; state: string }>(sql`
        select o.id, b.state from orders o join bookings b on b.deposit_order_id = o.id
        where b.client_email = ${email}`)
    ).rows;
    expect(order?.state).toBe("awaiting_payment");

    const paid = await postForm(
      `/admin/ventes/${order?.id}`,
      { intent: "mark-paid", means: "transfer" },
      { cookie: admin.cookie() },
    );
    expect(paid.status).toBe(302);
    const { pdf } = await confirmationWithInvoice(email);
    expect(pdf).toContain("Facture d'acompte");
    expect(pdf).toContain("Hugo Lefèvre");
  });
});
