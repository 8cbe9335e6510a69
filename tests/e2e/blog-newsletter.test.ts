import { randomBytes } from "node:crypto";
import { like, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { blogNewsletterSubscribers } from "../../app/server/db/schema";
import { NEWSLETTER_CONSENT_TEXT, newsletterPendingStatus } from "../../app/lib/newsletter";
import { patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage } = useBrowser();
const token = randomBytes(4).toString("hex");
const address = (name: string) => `${name}-${token}@example.com`;

async function clearNewsletterRateLimits() {
  await serverDatabase().execute(sql`delete from rate_limits where key like 'newsletter:%'`);
}

beforeEach(clearNewsletterRateLimits);
afterEach(clearNewsletterRateLimits);
afterAll(async () => {
  await serverDatabase()
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, `%-${token}@example.com`));
});

// The toasts' 400/429 answers show in the console as failed requests; nothing else may.
const expectedConsole = [/status of (400|429)/];

async function signUp(page: Page, email: string) {
  const form = page.getByRole("region", { name: "Restez inspiré·e" });
  const field = form.getByRole("textbox", { name: "Votre adresse email" });
  await field.fill(email);
  await form.getByRole("button", { name: "S'inscrire" }).click();
  return field;
}

async function expectToast(page: Page, title: string, description: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).last();
  await expect.poll(() => toast.isVisible(), patiently).toBe(true);
  expect(await toast.textContent()).toContain(description);
}

describe("newsletter sign-up", () => {
  it("subscribes, shows '...' while sending, then 'Inscription réussie !' and empties the field", async () => {
    const page = await openPage("/blog");
    // Hold the request a moment to see the sending state.
    await page.route(
      (url) => url.pathname.startsWith("/blog"),
      async (route) => {
        if (route.request().method() === "POST")
          await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue();
      },
    );
    const field = await signUp(page, `  ${address("nouvelle")}  `);
    const busy = page.getByRole("button", { name: "..." });
    await expect.poll(() => busy.isDisabled(), patiently).toBe(true);
    await expectToast(
      page,
      "Inscription réussie !",
      "Vous recevrez nos prochains articles par email.",
    );
    await expect.poll(() => field.inputValue(), patiently).toBe("");
    // The block says it too, politely (issue 10, item 7), with the step left: confirming the address
    // from the e-mail (double opt-in, decision record 0081).
    const block = page.getByRole("region", { name: "Restez inspiré·e" });
    expect(await block.getByRole("status").textContent()).toBe(
      "Vérifiez votre boîte mail. Pour terminer votre inscription, ouvrez l'email que nous vous avons envoyé et cliquez sur «\u00a0Confirmer mon inscription\u00a0». Sans confirmation, vous ne recevrez rien.",
    );
    expect(await block.getByRole("status").getAttribute("aria-live")).toBe("polite");
    expect(await axeViolations(page)).toEqual([]);
    const rows = await serverDatabase()
      .select()
      .from(blogNewsletterSubscribers)
      .where(like(blogNewsletterSubscribers.email, address("nouvelle")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "pending",
      consentSource: "blog",
      consentPage: "/blog",
      consentText: NEWSLETTER_CONSENT_TEXT,
    });
    // The sentence stored is the one the block shows.
    expect(await block.textContent()).toContain(NEWSLETTER_CONSENT_TEXT);
  });

  it("says 'Déjà inscrit·e' for an address already subscribed, whatever its case", async () => {
    await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values({ email: address("deja"), consentSource: "blog", status: "active" });
    const page = await openPage("/blog?q=zzz");
    await signUp(page, address("DEJA").replace(token, token.toUpperCase()));
    await expectToast(
      page,
      "Déjà inscrit·e",
      "Cette adresse email est déjà abonnée à la newsletter.",
    );
  });

  it("says 'Erreur' / 'Email invalide' for a malformed address, in the browser and from the server", async () => {
    const page = await openPage("/blog", { allowConsole: expectedConsole });
    const field = await signUp(page, "pas-une-adresse");
    await expectToast(page, "Erreur", "Email invalide");
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await field.inputValue()).toBe("pas-une-adresse");
    // Said at the field too, which has the focus; no bubble of the browser's own.
    expect(
      await field
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`[id="${id}"]`).textContent()),
    ).toBe("Email invalide");
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await field.evaluate((element) => element.closest("form")?.noValidate)).toBe(true);
    expect(await field.getAttribute("required")).not.toBeNull();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("says 'Trop de tentatives' past the limit for one address", async () => {
    const page = await openPage("/blog", { allowConsole: expectedConsole });
    for (let attempt = 0; attempt < 5; attempt++) {
      const field = await signUp(page, address(`essai${attempt}`));
      // Each success empties the field.
      await expect.poll(() => field.inputValue(), patiently).toBe("");
    }
    await signUp(page, address("de-trop"));
    await expectToast(page, "Trop de tentatives", "Veuillez réessayer dans quelques minutes.");
  });

  it("works without JavaScript: the outcome is written under the field", async () => {
    const page = await openPage("/blog", {
      javaScriptEnabled: false,
      allowConsole: expectedConsole,
    });
    await signUp(page, address("sans-js"));
    await page.waitForLoadState();
    expect(
      await page
        .getByRole("status")
        .filter({ hasText: newsletterPendingStatus.description })
        .isVisible(),
    ).toBe(true);

    await signUp(page, "invalide");
    await page.waitForLoadState();
    // The refusal is written at the field (issue 10, item 2), which keeps what was typed.
    const field = page.getByRole("textbox", { name: "Votre adresse email" });
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(
      await field
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`[id="${id}"]`).textContent()),
    ).toBe("Email invalide");
    expect(await field.inputValue()).toBe("invalide");
  });
});
