import { readFile } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVoucherCode } from "../../app/lib/vouchers/code";
import { orders, siteDocuments, vouchers } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { useDocumentsRestored } from "../support/admin-content";
import { activeVoucher } from "../support/admin-sales";
import { firstFreeTime, insertSessionType, studioIds } from "../support/booking";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { fetchPage, postForm } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { ensurePdfTools, pdfText } from "../support/pdf-tools";
import { serverDatabase } from "../support/server-under-test";
import { closeToasts, signedInPage } from "./support/admin";
import { axeViolations, hydrated, useBrowser } from "./support/browser";

/*
 * Gift vouchers' journey on a phone (decisions 0163, 0166, 0167, 0170), once, end to end:
 * 1. a session voucher bought by card: offered from its link on /bons-cadeaux, the order posted, « Payer »
 *    on the (fake) Stripe's hosted page on another origin (the site's CSP `form-action` must allow it), back
 *    on the order's page the payment confirmed once the webhook came, the voucher's PDF downloaded and read
 *    as text (its code, the accented names);
 * 2. the recipient books a session at Brive with that code: her confirmation says the voucher paid it, and
 *    the owner's /admin/bons-cadeaux shows the voucher used;
 * 3. a voucher of an amount ordered by transfer: the owner, on /admin/ventes, marks it paid (after its
 *    confirmation) and the voucher becomes valid;
 * 4. a third voucher, paid by card, withdrawn by its buyer: the card refunded;
 * 5. a voucher whose e-mail was refused: its buyer's correction refused, the answer in view on her phone.
 * Every new page without an axe-core violation. Where a step's own page is proven elsewhere its state is
 * prepared without the browser (the free time found over HTTP; the third voucher ordered and paid over
 * HTTP and through the fake, as in step 1). The same purchase with JavaScript off (the order posted, its
 * page, the refusals): tests/http/vouchers-order.test.ts and tests/http/vouchers-card.test.ts; the code on
 * the booking form without JavaScript: tests/http/booking-voucher.test.ts; « Marquer payé » and the vouchers'
 * page without JavaScript: tests/http/admin-sales.test.ts.
 */

let fake: FakeStripe;
beforeAll(async () => {
  ensurePdfTools();
  fake = await startFakeStripe({ secretKey: "sk_test_51VoucherJourneyByCard00000000" });
});
afterAll(async () => {
  await fake.close();
});
const url = useOwnServer(() => siteStripeEnv(fake));
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const original = useDocumentsRestored(["payments", "giftSessions"] as const);

const IN_PARIS = { timezoneId: "Europe/Paris" };
const PHONE = {
  ...IN_PARIS,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
/** The session type the gift session is booked as: offered at Brive, booked online there. */
const TYPE_SLUG = "seance-iris-bon";
const RECIPIENT = "Léa Martin";
const BUYER = "Zoé Lefèvre";
const TRANSFER_BUYER = "Mathéo Rivière";
const WITHDRAWN_RECIPIENT = "Inès Gaillard";
let typeId = "";

/** What the journey found on the way, for the steps after it. */
const seen = {
  /** The card voucher's code as printed (« 7K3Q-M2XD-9PTX »). */
  code: "",
};

beforeAll(async () => {
  const database = serverDatabase();
  const { brive } = await studioIds(database);
  typeId = await insertSessionType(
    [brive],
    { name: "Séance Iris (studio)", slug: TYPE_SLUG },
    database,
  );
  // Online booking at Brive (the owner's switch: tests/e2e/booking-journey.test.ts).
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
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
    .set({
      data: {
        ...original("payments"),
        vouchersOnSale: true,
        card: true,
        transfer: true,
        transferHolder: "Studio Lumière",
        transferIban: "FR7630006000011234567890189",
        amountPresets: [50, 100],
      },
    })
    .where(eq(siteDocuments.key, "payments"));
});

// pdftotext writes no-break spaces as they are and breaks lines where the page does: compare words.
const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

/** The `checkout.session.completed` events the site answered, as the fake delivered them. */
const completedDeliveries = () =>
  fake.deliveries().filter((delivery) => delivery.type === "checkout.session.completed");

/** The owner's page at `path`, signed in by cookie. */
const ownerPage = (path: string) => signedInPage(openPage, admin.account(), path, IN_PARIS);

/** The owner's voucher found by its code on /admin/bons-cadeaux: its card's text. */
async function voucherCard(owner: Page, code: string): Promise<string> {
  const card = owner.getByRole("listitem", { name: `Bon ${code}` });
  await card.waitFor();
  return (await card.innerText()).replace(/\s+/g, " ");
}

describe("the gift vouchers' journey", () => {
  it("a session voucher goes from /bons-cadeaux to the provider's page and back to a paid order and its PDF", async () => {
    const page = await openPage(`/bons-cadeaux?offre=${typeId}`, {
      ...PHONE,
      allowOrigins: [fake.pageOrigin],
    });
    expect(await axeViolations(page)).toEqual([]);
    await expect
      .poll(() => page.getByRole("radio", { name: /Séance Iris · 120/ }).isChecked())
      .toBe(true);
    await page.getByLabel("Nom du bénéficiaire").fill(RECIPIENT);
    await page.getByLabel("Votre message (facultatif)").fill("Joyeux anniversaire !");
    await page.getByLabel("Nom et prénom").fill(BUYER);
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
    await expect.poll(completedDeliveries).toEqual([expect.objectContaining({ status: 200 })]);
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
    const bytes = await readFile(await file.path());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    // The code as the recipient reads it on the PDF: three groups of four, with its check character.
    const text = words(pdfText(bytes));
    seen.code = /\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\b/.exec(text)?.[0] ?? "";
    expect(parseVoucherCode(seen.code)).toMatchObject({ ok: true });
    expect(text).toContain(RECIPIENT);
    expect(text).toContain(`De la part de ${BUYER}`);
    expect(text).toContain("Joyeux anniversaire !");
  });

  it("the recipient books a session at Brive with its code on her phone; the owner sees the voucher used", async () => {
    expect(seen.code).not.toBe("");
    // The days and times pages are walked in tests/e2e/booking-journey.test.ts: here, straight to the form.
    const { href } = await firstFreeTime(`/reserver/brive/${TYPE_SLUG}`);
    const visitor = await openPage(href, PHONE);
    await visitor.getByRole("heading", { level: 1, name: "Réserver ce créneau" }).waitFor();
    await visitor.getByLabel("Nom et prénom").fill(RECIPIENT);
    await visitor
      .getByRole("textbox", { name: "E-mail", exact: true })
      .fill("lea.martin@example.test");
    // Typed as a person reads it off the PDF, in lower case.
    await visitor.getByLabel("Code du bon cadeau (facultatif)").fill(seen.code.toLowerCase());
    await visitor.getByRole("checkbox", { name: /J'accepte les conditions/ }).check();
    await visitor.getByRole("button", { name: "Confirmer la réservation" }).click();
    await visitor.waitForURL((address) => /^\/reservation\/[\w-]{43}$/.test(address.pathname));
    await visitor.getByRole("status").getByText("Votre séance est réservée.").waitFor();
    await expect
      .poll(() => visitor.locator("main").innerText())
      .toContain(`Réglée par bon cadeau ${seen.code}`);
    expect(await axeViolations(visitor), "confirmation").toEqual([]);

    const owner = await ownerPage(`/admin/bons-cadeaux?q=${encodeURIComponent(seen.code)}`);
    const card = await voucherCard(owner, seen.code);
    expect(card).toContain("Utilisé");
    expect(card).toContain(`${RECIPIENT} (offert par ${BUYER})`);
    expect(card).not.toContain("Annuler le bon");
    expect(await axeViolations(owner), "/admin/bons-cadeaux").toEqual([]);
  });

  it("a voucher of an amount ordered by transfer: the owner marks it paid on /admin/ventes and it becomes valid", async () => {
    const buyer = await openPage("/bons-cadeaux", PHONE);
    await buyer.getByRole("radio", { name: /^Un montant/ }).check();
    await buyer.getByRole("radio", { name: /^100/ }).check();
    await buyer.getByLabel("Nom du bénéficiaire").fill("Chloé Dubois");
    await buyer.getByLabel("Nom et prénom").fill(TRANSFER_BUYER);
    await buyer.getByRole("textbox", { name: "E-mail", exact: true }).fill("matheo@example.test");
    await buyer.getByRole("radio", { name: /^Virement/ }).check();
    await buyer
      .getByRole("checkbox", { name: /J'accepte les conditions des bons cadeaux/ })
      .check();
    await buyer.getByRole("button", { name: "Commander et payer" }).click();
    await buyer.waitForURL(/\/commande\/[A-Za-z0-9_-]{43}$/);
    await buyer.getByText("Référence à indiquer").waitFor();
    expect(await axeViolations(buyer), "commande par virement").toEqual([]);

    const owner = await ownerPage("/admin/ventes");
    await owner.getByRole("link", { name: TRANSFER_BUYER }).click();
    await owner.getByRole("heading", { level: 2, name: "Marquer payé" }).waitFor();
    expect(await axeViolations(owner), "/admin/ventes/…").toEqual([]);
    // Paid by transfer, as the order was: the means offered first.
    await expect.poll(() => owner.getByLabel("Payée par").inputValue()).toBe("transfer");
    await owner.getByRole("button", { name: "Marquer payé…" }).click();
    const question = owner.getByRole("alert").filter({ hasText: "Confirmer le paiement de" });
    await expect
      .poll(async () => (await question.innerText()).replace(/\s+/g, " "))
      .toContain("Confirmer le paiement de 100 € (Virement reçu) ?");
    expect(await axeViolations(owner), "confirmation du paiement").toEqual([]);
    await owner.getByRole("button", { name: "Confirmer le paiement" }).click();
    await owner.getByText("Commande payée").first().waitFor();
    await closeToasts(owner);
    const voucherLine = owner.locator("dt", { hasText: "Bon cadeau" }).locator("+ dd");
    await expect.poll(() => voucherLine.innerText()).toContain("Valable");
    expect(await owner.getByRole("heading", { level: 2, name: "Marquer payé" }).count()).toBe(0);

    // Its code, now issued, leads to it on /admin/bons-cadeaux, valid for its whole amount.
    const code = (await voucherLine.getByRole("link").innerText()).trim();
    await voucherLine.getByRole("link").click();
    const card = await voucherCard(owner, code);
    expect(card).toContain("Valable");
    expect(card).toContain("Chloé Dubois");
    expect(card).toContain("100 € sur 100 €");
  });

  it("a third voucher, paid by card, is withdrawn by its buyer and the card refunded", async () => {
    // Ordered and paid as in the first step, without the browser (that walk is proven above).
    const form = await fetchPage("/bons-cadeaux");
    const placed = await postForm("/bons-cadeaux", {
      offre: "montant",
      montant: "100",
      studio: "tous",
      beneficiaire: WITHDRAWN_RECIPIENT,
      message: "",
      envoi: "maintenant",
      destinataire: "acheteur",
      acheteurNom: BUYER,
      acheteurEmail: "zoe@example.test",
      paiement: "card",
      conditions: "on",
      cle: form.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "",
    });
    expect(placed.status).toBe(303);
    const checkout = new URL(placed.headers.get("location") ?? "");
    expect(checkout.origin).toBe(fake.pageOrigin);
    const sessionId = checkout.pathname.split("/").at(-1) ?? "";
    const back = new URL(
      String(fake.session(sessionId)?.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId),
    );
    await fake.pay(sessionId);
    await expect
      .poll(completedDeliveries)
      .toEqual([
        expect.objectContaining({ status: 200 }),
        expect.objectContaining({ status: 200 }),
      ]);

    // Back from the provider's page as the buyer is (its return address checks the payment there).
    const page = await openPage(`${back.pathname}${back.search}`, PHONE);
    await page.getByRole("heading", { name: "État : Payée" }).waitFor();
    // She changes her mind within 14 days: a confirmation page, then the card refunded.
    await page.getByRole("link", { name: "Annuler ma commande" }).click();
    await page.getByRole("button", { name: "Oui, annuler la commande" }).click();
    await expect
      .poll(() => page.getByText(/le prix payé est remboursé sur votre carte/).isVisible())
      .toBe(true);
    expect(fake.refunds()).toEqual([expect.objectContaining({ amount: 10_000 })]);
    await expect.poll(() => page.getByText("Ce bon est annulé.").isVisible()).toBe(true);
    expect(await axeViolations(page), "commande annulée, remboursée").toEqual([]);
  });

  it("a voucher whose e-mail was refused: its buyer's correction, refused, answers in view on her phone", async () => {
    // Paid and sent to its recipient, whose mailbox refused it (the outbox's part: the integration test).
    const voucher = await activeVoucher("Léa Martin");
    const refused = "lea.martin@exmaple.com";
    await serverDatabase()
      .update(vouchers)
      .set({
        sendTo: "recipient",
        recipientEmail: refused,
        deliveryFailedAt: new Date(),
        deliveryFailedTo: refused,
      })
      .where(eq(vouchers.id, voucher.id));
    await serverDatabase()
      .update(orders)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(orders.id, voucher.orderId));
    const page = await openPage(`/commande/${voucher.token}`, {
      ...PHONE,
      allowConsole: [/status of 400/],
    });
    await page.getByRole("heading", { name: "Le bon n'a pas pu être envoyé" }).waitFor();
    expect(await axeViolations(page), "bon non remis").toEqual([]);

    // Sent again unchanged: refused, and the answer is where she is looking, not below the fold of a
    // page reloaded at its top.
    await page.getByRole("button", { name: "Envoyer le bon" }).click();
    const error = page.locator("#renvoi-erreur");
    await error.waitFor();
    await hydrated(page);
    expect(await error.innerText()).toContain("C'est l'adresse qui a été refusée");
    expect(
      await page
        .getByRole("textbox", { name: "Adresse e-mail de Léa Martin" })
        .getAttribute("aria-describedby"),
    ).toBe("renvoi-erreur");
    await expect
      .poll(() =>
        error.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    expect(await axeViolations(page), "bon non remis, adresse refusée").toEqual([]);
  });
});
