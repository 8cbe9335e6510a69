import { randomBytes } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { closeServerDatabase, serverDatabase } from "../support/server-under-test";
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

/** Records the text of every toast the page shows, in order, from now on. */
async function recordToasts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof Element) {
            const toasts = node.matches("[data-sonner-toast]")
              ? [node]
              : [...node.querySelectorAll("[data-sonner-toast]")];
            for (const toast of toasts) seen.push(toast.textContent ?? "");
          }
        }
      }
    }).observe(document.body, { subtree: true, childList: true });
  });
  return () => page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen);
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

  it("refuses invalid values at the fields, with a summary and the focus on the first one, never with a toast", async () => {
    const page = await openPage("/contact-studio-brive");
    const toasts = await recordToasts(page);
    const email = uniqueEmail();
    await fill(page, { prenom: "Lucas", email: "pas-un-email", message: "Bonjour" });
    await page.locator("form[method=post] button[type=submit]").click();
    const form = page.locator("form[method=post]");
    const summary = form.getByRole("alert");
    await expect.poll(() => summary.textContent()).toContain("5 champs sont à corriger");
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
    // Each summary line leads to its field.
    expect(
      await summary.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))),
    ).toEqual([
      "#contact-brive-shootingType",
      "#contact-brive-nom",
      "#contact-brive-email",
      "#contact-brive-telephone",
      "#contact-brive-source",
    ]);
    const emailField = form.locator("[name=email]");
    expect(await emailField.getAttribute("aria-invalid")).toBe("true");
    expect(
      await emailField
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`#${id}`).textContent()),
    ).toBe("Email invalide");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      "shootingType",
    );
    expect(await currentValues(page)).toMatchObject({
      prenom: "Lucas",
      email: "pas-un-email",
      message: "Bonjour",
    });
    expect(await form.getByRole("status").textContent()).toBe("");
    expect(await axeViolations(page)).toEqual([]);

    // The message follows the correction.
    await emailField.fill(email);
    await expect.poll(() => form.textContent()).not.toContain("Email invalide");
    expect(await storedMessages(email)).toHaveLength(0);

    // Corrected, it goes; the only toast the visitor saw is the confirmation (a toast raised by the refusal
    // would have come first: toasts are shown in the order they are asked for).
    await fill(page, {
      shootingType: "famille",
      nom: "Martin",
      telephone: "06 00 00 00 00",
      source: "google",
    });
    await page.locator("form[method=post] button[type=submit]").click();
    await page.locator("[data-sonner-toast]", { hasText: "Message envoyé !" }).waitFor();
    expect(await toasts()).toEqual([
      "Message envoyé !Merci pour votre message, nous reviendrons vers vous dès que possible.",
    ]);
    expect(await summary.textContent()).toBe("");
    expect(await storedMessages(email)).toHaveLength(1);
  });

  it("says 'Une erreur est survenue' only for a real failure (no answer), keeping what was typed", async () => {
    const page = await openPage("/contact?studio=limoges", {
      allowConsole: [/ERR_FAILED|Failed to load resource/],
    });
    await page.route(
      (url) => url.pathname.startsWith("/contact"),
      (route) => (route.request().method() === "POST" ? route.abort("failed") : route.continue()),
    );
    const values = {
      shootingType: "boudoir",
      prenom: "Léa",
      nom: "Petit",
      email: uniqueEmail(),
      message: "Bonjour, hors ligne ?",
    };
    await fill(page, values);
    await page.locator("form[method=post] button[type=submit]").click();
    const toast = page.locator("[data-sonner-toast]", { hasText: "Erreur" });
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Une erreur est survenue. Veuillez réessayer.");
    const form = page.locator("form[method=post]");
    expect(await form.getByRole("status").textContent()).toBe(
      "ErreurUne erreur est survenue. Veuillez réessayer.",
    );
    expect(await form.getByRole("alert").textContent()).toBe("");
    expect(await currentValues(page)).toMatchObject(values);
    await expect
      .poll(() => form.locator("button[type=submit]").textContent())
      .toBe("Envoyer le message");
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

  it("keeps the honeypot out of reach; a message that fills it is kept, marked as suspected spam", async () => {
    const page = await openPage("/contact-studio-ussel");
    const trap = page.locator("input[name=site_web]");
    expect(await trap.getAttribute("tabindex")).toBe("-1");
    expect(await trap.getAttribute("autocomplete")).toBe("off");
    expect(await trap.evaluate((element) => element.closest("[aria-hidden=true]") !== null)).toBe(
      true,
    );
    const box = await trap.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);

    // A bot, or a browser's autofill: the answer says « envoyé », so the message must exist.
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
    expect(await storedMessages(email)).toMatchObject([
      { message: "Buy now", suspectedSpam: true },
    ]);
  });

  it("stores two different messages sent one after the other from the same page (issue 10, item 8)", async () => {
    const page = await openPage("/contact-studio-ussel");
    const email = uniqueEmail();
    const form = page.locator("form[method=post]");
    const button = form.locator("button[type=submit]");
    const person = {
      shootingType: "mariage",
      prenom: "Anne",
      nom: "Roux",
      email,
      telephone: "06 12 34 56 78",
    };
    await fill(page, { ...person, message: "Premier message : un mariage en juin." });
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Envoi en cours...");
    // The visitor starts the second message while the first is being sent: nothing typed is wiped.
    await form.locator("[name=message]").fill("Second message : et une séance famille ?");
    await page.locator("[data-sonner-toast]", { hasText: "Message envoyé !" }).waitFor();
    await expect.poll(() => button.textContent()).toBe("Envoyer le message");
    expect(await form.locator("[name=message]").inputValue()).toBe(
      "Second message : et une séance famille ?",
    );
    await button.click();
    await expect
      .poll(async () => (await storedMessages(email)).map((row) => row.message).sort())
      .toEqual([
        "Premier message : un mariage en juin.",
        "Second message : et une séance famille ?",
      ]);
    // The second one is confirmed and the form emptied, as after the first.
    await expect.poll(() => form.locator("[name=message]").inputValue()).toBe("");
    expect(await form.getByRole("status").textContent()).toContain("Message envoyé !");
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
    // A refusal is not a failure: the summary says what to correct, the generic message is not shown.
    expect(await form.locator("[role=status]").textContent()).toBe("");
    const summary = await form.getByRole("alert").textContent();
    expect(summary).toContain("3 champs sont à corriger");
    expect(summary).toContain("Nom : Le nom est requis");
    expect(await form.locator("[name=nom]").getAttribute("aria-invalid")).toBe("true");
    expect(
      await form
        .locator("[name=nom]")
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`#${id}`).textContent()),
    ).toBe("Le nom est requis");
  });
});
