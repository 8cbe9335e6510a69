import { randomBytes } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { useBrowser } from "./support/browser";
import { closeServerDatabase, serverDatabase } from "./support/database";
import { contactMessages, rateLimits } from "../../app/server/db/schema";

const { openPage } = useBrowser();

const createdEmails: string[] = [];
/** A unique address per submission, so each test finds (and removes) its own rows. */
function uniqueEmail() {
  const email = `e2e-contact-${randomBytes(5).toString("hex")}@example.org`;
  createdEmails.push(email);
  return email;
}

async function clearContactRateLimits() {
  await serverDatabase().delete(rateLimits).where(like(rateLimits.key, "contact:%"));
}

beforeEach(clearContactRateLimits);
afterAll(async () => {
  for (const email of createdEmails) {
    await serverDatabase().delete(contactMessages).where(eq(contactMessages.email, email));
  }
  await clearContactRateLimits();
  await closeServerDatabase();
});

async function storedMessages(email: string) {
  return serverDatabase().select().from(contactMessages).where(eq(contactMessages.email, email));
}

type Values = Partial<
  Record<"shootingType" | "prenom" | "nom" | "email" | "telephone" | "message" | "source", string>
>;

async function fill(page: Page, values: Values) {
  const form = page.locator("form[method=post]");
  for (const [name, value] of Object.entries(values)) {
    const field = form.locator(`[name=${name}]`);
    if ((await field.evaluate((element) => element.tagName)) === "SELECT")
      await field.selectOption(value);
    else await field.fill(value);
  }
}

async function currentValues(page: Page) {
  return page
    .locator("form[method=post] :is(input, select, textarea):not([type=hidden])")
    .evaluateAll((elements) =>
      Object.fromEntries(
        elements.map((element) => [
          (element as HTMLInputElement).name,
          (element as HTMLInputElement).value,
        ]),
      ),
    );
}

/** Records, in the page's own clock, when the form was submitted and when `text` first appeared. */
async function watchFor(page: Page, text: string) {
  await page.evaluate((expected) => {
    const state = window as unknown as { submittedAt?: number; shownAt?: number };
    document.addEventListener("submit", () => (state.submittedAt = performance.now()), true);
    new MutationObserver(() => {
      if (state.shownAt === undefined && document.body.textContent?.includes(expected)) {
        state.shownAt = performance.now();
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, text);
  return async () =>
    page.evaluate(() => {
      const state = window as unknown as { submittedAt?: number; shownAt?: number };
      return { submittedAt: state.submittedAt, shownAt: state.shownAt };
    });
}

describe("contact forms with JavaScript", () => {
  it("Ussel: sends, shows 'Envoi en cours...', confirms no sooner than 1 s later, stores the message and resets", async () => {
    const page = await openPage("/contact-studio-ussel");
    const email = uniqueEmail();
    await fill(page, {
      shootingType: "grossesse-naissance",
      prenom: "Camille",
      nom: "Durand",
      email,
      telephone: "06 12 34 56 78",
      message: "Bonjour,\nune séance grossesse en avril ?",
      source: "parrainage",
    });
    const timing = await watchFor(page, "Message envoyé !");
    const button = page.locator("form[method=post] button[type=submit]");
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Envoi en cours...");
    expect(await button.isDisabled()).toBe(true);

    const toast = page.locator("[data-sonner-toast]", { hasText: "Message envoyé !" });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(
      "Merci pour votre message, nous reviendrons vers vous dès que possible.",
    );
    const { submittedAt, shownAt } = await timing();
    expect((shownAt ?? 0) - (submittedAt ?? Infinity)).toBeGreaterThanOrEqual(1000);

    const rows = await storedMessages(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      studio: "ussel",
      shootingType: "grossesse-naissance",
      prenom: "Camille",
      nom: "Durand",
      telephone: "06 12 34 56 78",
      message: "Bonjour,\nune séance grossesse en avril ?",
      source: "parrainage",
    });
    await expect.poll(() => button.textContent()).toBe("Envoyer le message");
    expect(await currentValues(page)).toEqual({
      shootingType: "",
      prenom: "",
      nom: "",
      email: "",
      telephone: "",
      message: "",
      source: "",
      site_web: "",
    });
  });

  it("Brive and Limoges store their own fields under their own studio", async () => {
    const briveEmail = uniqueEmail();
    const brive = await openPage("/contact-studio-brive");
    await fill(brive, {
      shootingType: "grand-bebe",
      prenom: "Lucas",
      nom: "Bernard",
      email: briveEmail,
      telephone: "+33 6 11 22 33 44",
      message: "Séance grand bébé, 1 an.",
      source: "salon",
    });
    await brive.locator("form[method=post] button[type=submit]").click();
    await brive.locator("[data-sonner-toast]", { hasText: "Message envoyé !" }).waitFor();

    const limogesEmail = uniqueEmail();
    const limoges = await openPage("/contact?studio=limoges");
    await fill(limoges, {
      shootingType: "mini-seance",
      prenom: "Inès",
      nom: "Moreau",
      email: limogesEmail,
      message: "Bonjour, une mini-séance en décembre ?",
    });
    await limoges.locator("form[method=post] button[type=submit]").click();
    await limoges.locator("[data-sonner-toast]", { hasText: "Message envoyé !" }).waitFor();

    expect(await storedMessages(briveEmail)).toMatchObject([
      {
        studio: "brive",
        shootingType: "grand-bebe",
        telephone: "+33 6 11 22 33 44",
        source: "salon",
      },
    ]);
    expect(await storedMessages(limogesEmail)).toMatchObject([
      { studio: "limoges", shootingType: "mini-seance", telephone: null, source: null },
    ]);
  });

  it("refuses invalid values at once with French messages, keeping what was typed", async () => {
    const page = await openPage("/contact-studio-brive");
    const email = uniqueEmail();
    await fill(page, { prenom: "Lucas", email: "pas-un-email", message: "Bonjour" });
    await page.locator("form[method=post] button[type=submit]").click();
    await page.locator("[data-sonner-toast]", { hasText: "Erreur" }).waitFor();
    const form = page.locator("form[method=post]");
    const text = await form.textContent();
    for (const message of [
      "Veuillez choisir un type de séance",
      "Le nom est requis",
      "Email invalide",
      "Le téléphone est requis",
      "Veuillez indiquer comment vous nous avez connus",
    ]) {
      expect(text).toContain(message);
    }
    expect(await form.locator("[name=email]").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      "shootingType",
    );
    expect(await currentValues(page)).toMatchObject({
      prenom: "Lucas",
      email: "pas-un-email",
      message: "Bonjour",
    });

    // The message follows the correction.
    await form.locator("[name=email]").fill(email);
    await expect.poll(() => form.textContent()).not.toContain("Email invalide");
    expect(await storedMessages(email)).toHaveLength(0);
  });

  it("answers 'Trop de tentatives' past the limit, keeping what was typed", async () => {
    // Spend this address's allowance (Express may see the loopback as IPv4 or IPv4-mapped IPv6).
    for (const key of ["contact:127.0.0.1", "contact:::ffff:127.0.0.1", "contact:::1"]) {
      await serverDatabase().execute(
        sql`insert into rate_limits (key, count, reset_at) values (${key}, 100, now() + interval '10 minutes')`,
      );
    }
    const page = await openPage("/contact-studio-limoges", { allowConsole: [/status of 429/] });
    const email = uniqueEmail();
    const values = {
      shootingType: "boudoir",
      prenom: "Léa",
      nom: "Petit",
      email,
      message: "Bonjour !",
      source: "bni",
    };
    await fill(page, values);
    await page.locator("form[method=post] button[type=submit]").click();
    const toast = page.locator("[data-sonner-toast]", { hasText: "Trop de tentatives" });
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Veuillez réessayer dans quelques minutes.");
    expect(await currentValues(page)).toMatchObject(values);
    expect(await storedMessages(email)).toHaveLength(0);
  });

  it("keeps the honeypot out of reach and stores nothing when a bot fills it in", async () => {
    const page = await openPage("/contact-studio-ussel");
    const trap = page.locator("input[name=site_web]");
    expect(await trap.getAttribute("tabindex")).toBe("-1");
    expect(await trap.getAttribute("autocomplete")).toBe("off");
    expect(await trap.evaluate((element) => element.closest("[aria-hidden=true]") !== null)).toBe(
      true,
    );
    const box = await trap.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);

    const email = uniqueEmail();
    await fill(page, {
      shootingType: "video",
      prenom: "Bot",
      nom: "Spam",
      email,
      telephone: "0612345678",
      message: "Buy now",
    });
    await trap.evaluate(
      (element) => ((element as HTMLInputElement).value = "https://spam.example"),
    );
    await page.locator("form[method=post] button[type=submit]").click();
    await page.locator("[data-sonner-toast]", { hasText: "Message envoyé !" }).waitFor();
    expect(await storedMessages(email)).toHaveLength(0);
  });
});

describe("contact forms without JavaScript", () => {
  it("a plain form post stores the message and the page answers with the confirmation", async () => {
    const page = await openPage("/contact-studio-ussel", { javaScriptEnabled: false });
    const email = uniqueEmail();
    await fill(page, {
      shootingType: "mariage",
      prenom: "Hugo",
      nom: "Lefebvre",
      email,
      telephone: "05 55 00 00 00",
      message: "Mariage le 12 septembre.",
    });
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST"),
      page.locator("form[method=post] button[type=submit]").click(),
    ]);
    expect(response.status()).toBe(200);
    await page.waitForLoadState();
    const status = page.locator("form[method=post] [role=status]");
    expect(await status.textContent()).toBe(
      "Message envoyé !Merci pour votre message, nous reviendrons vers vous dès que possible.",
    );
    expect(await storedMessages(email)).toMatchObject([
      { studio: "ussel", shootingType: "mariage" },
    ]);
    expect(await currentValues(page)).toMatchObject({ prenom: "", email: "", message: "" });
  });

  it("server-side refusal: 400, every value kept, each invalid field with its message", async () => {
    const page = await openPage("/contact-studio-ussel", {
      javaScriptEnabled: false,
      allowConsole: [/status of 400/],
    });
    const values = {
      shootingType: "boudoir",
      prenom: "Hugo",
      nom: "",
      email: "hugo@",
      telephone: "12",
      message: "Bonjour",
      source: "tirage",
    };
    await fill(page, values);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST"),
      page.locator("form[method=post] button[type=submit]").click(),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    const form = page.locator("form[method=post]");
    expect(await currentValues(page)).toMatchObject(values);
    const text = await form.textContent();
    expect(text).toContain("Le nom est requis");
    expect(text).toContain("Email invalide");
    expect(text).toContain("Numéro de téléphone invalide");
    expect(await form.locator("[role=status]").textContent()).toBe(
      "ErreurUne erreur est survenue. Veuillez réessayer.",
    );
    expect(await form.locator("[name=nom]").getAttribute("aria-invalid")).toBe("true");
    expect(
      await form
        .locator("[name=nom]")
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`#${id}`).textContent()),
    ).toBe("Le nom est requis");
  });
});
