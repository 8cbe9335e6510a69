import { randomBytes } from "node:crypto";
import { like, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { blogNewsletterSubscribers } from "../../app/server/db/schema";
import { NEWSLETTER_CONSENT_TEXT } from "../../app/lib/newsletter";
import { deleteSubscribers } from "../support/blog-and-newsletter";
import { patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage } = useBrowser();
const token = randomBytes(4).toString("hex");
const address = (name: string) => `${name}-${token}@example.com`;

// The browser signs up from 127.0.0.1, as other files' browsers do: each test starts with that client's
// sign-ups uncounted.
async function clearNewsletterRateLimits() {
  await serverDatabase().execute(sql`delete from rate_limits where key = 'newsletter:127.0.0.1'`);
}

beforeEach(clearNewsletterRateLimits);
afterEach(clearNewsletterRateLimits);
afterAll(async () => {
  await deleteSubscribers(`%-${token}@example.com`);
});

// A refusal's 400 answer shows in the console as a failed request; nothing else may.
const expectedConsole = [/status of 400/];

async function signUp(page: Page, email: string) {
  const form = page.getByRole("region", { name: "Restez inspiré·e" });
  const field = form.getByRole("textbox", { name: "Votre adresse email" });
  await field.fill(email);
  await form.getByRole("button", { name: "S'inscrire" }).click();
  return field;
}

/** What a sign-up says, toast and block alike: the step left (double opt-in, decision records 0081, 0112). */
const confirmFromEmail = [
  "Vérifiez votre boîte mail.",
  "Pour terminer votre inscription, ouvrez l'email que nous vous avons envoyé et cliquez sur «\u00a0Confirmer mon inscription\u00a0». Sans confirmation, vous ne recevrez rien.",
] as const;

async function expectToast(page: Page, title: string, description: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).last();
  await expect.poll(() => toast.isVisible(), patiently).toBe(true);
  expect(await toast.textContent()).toContain(description);
}

// The outcomes the server writes in the block (already subscribed, too many attempts, without JavaScript)
// are checked over HTTP in tests/http/blog-newsletter.test.ts.

describe("newsletter sign-up", () => {
  it("subscribes, shows '...' while sending, then asks to confirm from the e-mail and empties the field", async () => {
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
    // The toast says the step left (double opt-in, decision records 0081 and 0112), never that articles
    // will come.
    await expectToast(page, ...confirmFromEmail);
    expect(await page.locator("[data-sonner-toast]").count()).toBe(1);
    await expect.poll(() => field.inputValue(), patiently).toBe("");
    // The block says the same, politely (issue 10, item 7).
    const block = page.getByRole("region", { name: "Restez inspiré·e" });
    expect(await block.getByRole("status").textContent()).toBe(confirmFromEmail.join(" "));
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

  it("takes an earlier refusal's toast away when the sign-up then goes through", async () => {
    const page = await openPage("/blog");
    await signUp(page, "pas-une-adresse");
    await expectToast(page, "Erreur", "Email invalide");
    await signUp(page, address("apres-erreur"));
    await expectToast(page, ...confirmFromEmail);
    // One toast left, the sign-up's: no red 'Erreur' under it contradicting it (issue 24, item 9).
    const toasts = page.locator("[data-sonner-toast]");
    expect(await toasts.filter({ hasText: "Erreur" }).count()).toBe(0);
    expect(await toasts.count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });
});
