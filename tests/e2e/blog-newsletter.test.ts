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

/** The element that has the focus, as the id of the block's field or the text of what it says. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element instanceof HTMLInputElement ? element.name : (element?.textContent ?? "");
  });
}

// The outcomes the server writes in the block (already subscribed, too many attempts) are checked over
// HTTP in tests/http/blog-newsletter.test.ts. The blog's pages are light (decision 0137): the form is a
// plain post, and the answer is the page again, the focus on the outcome or on the refused field.

describe("newsletter sign-up", () => {
  it("subscribes, shows '...' while sending, then says to confirm from the e-mail, in view and focused", async () => {
    const page = await openPage("/blog");
    // What the button says once the form is submitted, read by a listener that runs after the light
    // script's (the page is being replaced then: the browser test cannot ask it any more).
    const sending: string[] = [];
    await page.exposeFunction("reportSending", (state: string) => void sending.push(state));
    await page.evaluate(() =>
      document.addEventListener("submit", (event) => {
        const button = (event.target as HTMLFormElement).querySelector("button");
        const report = (window as unknown as { reportSending: (state: string) => void })
          .reportSending;
        report(`${button?.textContent} ${button?.disabled ? "disabled" : "enabled"}`);
      }),
    );
    const block = page.getByRole("region", { name: "Restez inspiré·e" });
    const field = await signUp(page, `  ${address("nouvelle")}  `);
    await expect.poll(() => sending, patiently).toEqual(["... disabled"]);
    const said = confirmFromEmail.join(" ");
    await expect.poll(() => block.getByRole("status").textContent(), patiently).toBe(said);
    // The step left (double opt-in, decision records 0081 and 0112), never that articles will come; a
    // screen reader reads it (it has the focus), a sighted visitor sees it (in view, not the page's top).
    await expect.poll(() => focused(page), patiently).toBe(said);
    const inView = () =>
      block.getByRole("status").evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      });
    await expect.poll(inView, patiently).toBe(true);
    expect(await field.inputValue()).toBe("");
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

  it("says 'Email invalide' at the field for a malformed address, keeps it and focuses the field", async () => {
    const page = await openPage("/blog", { allowConsole: expectedConsole });
    const field = await signUp(page, "pas-une-adresse");
    await expect.poll(() => field.getAttribute("aria-invalid"), patiently).toBe("true");
    expect(await field.inputValue()).toBe("pas-une-adresse");
    // Said at the field, which has the focus; no bubble of the browser's own.
    expect(
      await field
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`[id="${id}"]`).textContent()),
    ).toBe("Email invalide");
    await expect.poll(() => focused(page), patiently).toBe("email");
    expect(await field.evaluate((element) => element.closest("form")?.noValidate)).toBe(true);
    expect(await field.getAttribute("required")).not.toBeNull();
    expect(await axeViolations(page)).toEqual([]);

    // Corrected, it goes through: the refusal is gone.
    await signUp(page, address("apres-erreur"));
    const block = page.getByRole("region", { name: "Restez inspiré·e" });
    await expect
      .poll(() => block.getByRole("status").textContent(), patiently)
      .toBe(confirmFromEmail.join(" "));
    expect(await field.getAttribute("aria-invalid")).toBeNull();
    expect(await page.getByText("Email invalide").count()).toBe(0);
  });
});
