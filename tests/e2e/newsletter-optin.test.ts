import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import { blogNewsletterSubscribers, rateLimits } from "../../app/server/db/schema";
import { RESUBSCRIBE_CONSENT_TEXT } from "../../app/lib/newsletter-links";
import {
  activeSubscriber,
  confirmationLinks,
  deleteSubscribers,
  linksThatLeadNowhere,
  linkUrl,
  subscriber,
} from "../support/blog-and-newsletter";
import { mailsTo } from "../support/smtp-capture";
import { patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

/*
 * The e-mailed links' pages as a subscriber uses them (decision 0081): their buttons reached
 * and pressed with the keyboard, the focus on the new state's heading, no accessibility violation. What the
 * server answers (the sign-up, the e-mail, the pages and buttons without JavaScript, one-click
 * unsubscribes, forged and expired links, the rate limits) is checked over HTTP in
 * tests/http/newsletter-optin.test.ts.
 */

const { openPage } = useBrowser();
const mailboxUrl = inject("mailboxUrl");

const marker = randomBytes(4).toString("hex");
const address = (name: string) => `optin-${name}-${marker}@example.com`;

afterAll(async () => {
  await deleteSubscribers(`optin-%-${marker}@example.com`);
  // The browser's presses count for 127.0.0.1, which other files' browsers share: give them back.
  await serverDatabase().delete(rateLimits).where(eq(rateLimits.key, "newsletter-lien:127.0.0.1"));
});

// Pages answering 400 or 404 show in the console as failed loads; nothing else may.
const failedLoads = [/status of 40[04]/];

/** Moves the focus with Tab, as a keyboard user would, until it is on the button called `name`. */
async function tabTo(page: Page, name: string) {
  for (let step = 0; step < 60; step++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      return element?.tagName === "BUTTON" ? element.textContent : null;
    });
    if (focused === name) return;
  }
  throw new Error(`Le bouton « ${name} » n'est pas atteignable au clavier`);
}

async function heading(page: Page) {
  const title = page.getByRole("heading", { level: 1 });
  await title.waitFor();
  return title.textContent();
}

async function headingAfter(page: Page, text: string) {
  await expect
    .poll(() => page.getByRole("heading", { level: 1 }).textContent(), patiently)
    .toBe(text);
}

describe("double opt-in", () => {
  it("confirms with the keyboard on the e-mailed link's page, which then reads out its new state", async () => {
    const [row] = await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values({ email: address("inscrite"), consentSource: "blog", status: "pending" })
      .returning();
    const page = await openPage(
      linkUrl("newsletter-confirm", row?.id ?? "", { lifetimeSeconds: 600 }),
    );
    expect(await heading(page)).toBe("Confirmez votre inscription");
    expect(await page.getByText(address("inscrite")).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await tabTo(page, "Confirmer mon inscription");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Inscription confirmée");
    expect(
      await page.evaluate(() => document.activeElement?.tagName === "H1"),
      "la page annonce son nouvel état",
    ).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect((await subscriber(address("inscrite"))).status).toBe("active");
  });
});

describe("unsubscribe", () => {
  it("unsubscribes with the page's button, then « Me réinscrire » records the consent and waits for the e-mailed confirmation", async () => {
    const row = await activeSubscriber(address("bouton"));
    const page = await openPage(linkUrl("newsletter-unsubscribe", row.id));
    expect(await heading(page)).toBe("Se désabonner de la newsletter");
    expect(await axeViolations(page)).toEqual([]);
    expect((await subscriber(row.email)).status).toBe("active");

    await tabTo(page, "Me désabonner");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Vous êtes désabonné·e");
    expect(await page.getByText("C'est fait.").isVisible()).toBe(true);
    expect(await page.getByText(RESUBSCRIBE_CONSENT_TEXT).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    const left = await subscriber(row.email);
    expect(left.status).toBe("unsubscribed");
    expect(left.unsubscribedAt).toBeInstanceOf(Date);

    const before = Date.now();
    await tabTo(page, "Me réinscrire");
    await page.keyboard.press("Enter");
    // Pending until the address confirms, even just after leaving (decision 0081, amended 2026-11-29).
    await headingAfter(page, "Confirmez votre réinscription");
    expect(await axeViolations(page)).toEqual([]);
    const back = await subscriber(row.email);
    expect(back).toMatchObject({
      status: "pending",
      consentSource: "reinscription",
      consentPage: "/newsletter/desabonnement",
      consentText: RESUBSCRIBE_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });
    expect(back.subscribedAt.getTime()).toBeGreaterThan(before - 60_000);
  });

  it("asks an address that left days ago to confirm « Me réinscrire » by e-mail, then confirms it", async () => {
    const row = await activeSubscriber(address("ancienne"));
    await serverDatabase()
      .update(blogNewsletterSubscribers)
      .set({
        status: "unsubscribed",
        unsubscribedAt: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000),
      })
      .where(eq(blogNewsletterSubscribers.id, row.id));
    // An old newsletter's link, forwarded or archived: it proves the address no more.
    const page = await openPage(linkUrl("newsletter-unsubscribe", row.id));
    expect(await heading(page)).toBe("Vous êtes désabonné·e");
    await tabTo(page, "Me réinscrire");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Confirmez votre réinscription");
    expect(await page.getByText(/nous avons envoyé un email de confirmation/).isVisible()).toBe(
      true,
    );
    expect(await axeViolations(page)).toEqual([]);
    const pending = await subscriber(row.email);
    expect(pending).toMatchObject({
      status: "pending",
      consentSource: "reinscription",
      consentPage: "/newsletter/desabonnement",
      consentText: RESUBSCRIBE_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });

    await expect.poll(async () => (await mailsTo(mailboxUrl, row.email)).length, patiently).toBe(1);
    const [mail] = await mailsTo(mailboxUrl, row.email);
    const { inText } = confirmationLinks(mail ?? { text: "", html: "" });
    if (!inText) throw new Error("pas de lien de confirmation");
    const link = new URL(inText);
    const confirm = await openPage(`${link.pathname}${link.search}`);
    await confirm.getByRole("button", { name: "Confirmer mon inscription" }).click();
    await headingAfter(confirm, "Inscription confirmée");
    expect((await subscriber(row.email)).status).toBe("active");
  });
});

describe("links that lead nowhere", () => {
  it("shows each kind of page in French, with no accessibility violation", async () => {
    const row = await activeSubscriber(address("cible"));
    // Each kind of page once: one link per page and heading.
    const kinds = new Map(
      linksThatLeadNowhere(row.id).map(([path, , title]) => [
        `${path.split("?")[0]} ${title}`,
        { path, title },
      ]),
    );
    for (const { path, title } of kinds.values()) {
      const page = await openPage(path, { allowConsole: failedLoads });
      expect(await heading(page)).toBe(title);
      expect(await axeViolations(page)).toEqual([]);
    }
  });
});
