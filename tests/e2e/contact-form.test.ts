import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useContactMessages } from "../support/studio-contact";

// The contact forms with the light pages' script (decision 0137): sent in place, what the visitor sees while
// sending, the outcome in the form's live region, the checks as they correct, focus. The forms posted
// without JavaScript (what is stored, the page answered, the spam trap) are in
// tests/http/contact-form.test.ts.

const { openPage } = useBrowser();
const { uniqueEmail, storedMessages } = useContactMessages();

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

/** Marks the page, so that the test can tell it was never replaced by a new one (the form sent in place). */
async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  return () =>
    page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
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
  it("Ussel: sends in place with 'Envoi en cours...', confirms no sooner than 1 s later, keeps a message begun meanwhile, then sends it and empties the form", async () => {
    const page = await openPage("/contact-studio-ussel");
    const samePage = await markPage(page);
    const email = uniqueEmail();
    const form = page.locator("form[method=post]");
    const button = form.locator("button[type=submit]");
    const typed = {
      shootingType: "grossesse-naissance",
      prenom: "Camille",
      nom: "Durand",
      email,
      telephone: "06 12 34 56 78",
      message: "Bonjour,\nune séance grossesse en avril ?",
      source: "parrainage",
    };
    await fill(page, typed);
    const timing = await watchFor(page, "Message envoyé !");
    // The first answer is held until the visitor has started the second message (decision 0137: a message begun meanwhile is kept): typed
    // while the first is being sent, it must not be wiped, however slow the machine running the test.
    let answerFirst: () => void = () => undefined;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const bodies: Array<{ type?: string; body: string | null }> = [];
    await page.route(
      (url) => url.pathname.startsWith("/contact-studio-ussel"),
      async (route) => {
        if (route.request().method() === "POST") {
          bodies.push({
            type: route.request().headers()["content-type"],
            body: route.request().postData(),
          });
          await firstAnswered;
        }
        await route.continue();
      },
    );
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Envoi en cours...");
    expect(await button.isDisabled()).toBe(true);
    // The button changes as the form is sent, before its request reaches the route: wait for the request.
    await expect.poll(() => bodies.length).toBe(1);
    // The body of a plain post: every field, the spam trap included, as typed.
    expect(bodies).toEqual([
      {
        type: expect.stringContaining("application/x-www-form-urlencoded"),
        body: new URLSearchParams({
          ...typed,
          site_web: "",
        }).toString(),
      },
    ]);
    await form.locator("[name=message]").fill("Second message : et une séance famille ?");
    answerFirst();

    // Said politely in the form's block, where a plain post's answer says it too.
    const status = form.getByRole("status");
    expect(await status.getAttribute("aria-live")).toBe("polite");
    await expect.poll(() => status.textContent()).toContain("Message envoyé !");
    expect(await status.textContent()).toContain(
      "Merci pour votre message, nous reviendrons vers vous dès que possible.",
    );
    const { submittedAt, shownAt } = await timing();
    expect((shownAt ?? 0) - (submittedAt ?? Infinity)).toBeGreaterThanOrEqual(1000);
    await expect.poll(() => button.textContent()).toBe("Envoyer le message");
    expect(await form.locator("[name=message]").inputValue()).toBe(
      "Second message : et une séance famille ?",
    );
    expect(await storedMessages(email)).toMatchObject([
      {
        studio: "ussel",
        shootingType: "grossesse-naissance",
        prenom: "Camille",
        nom: "Durand",
        telephone: "06 12 34 56 78",
        message: "Bonjour,\nune séance grossesse en avril ?",
        source: "parrainage",
      },
    ]);

    // Sent as it stands, the second one is confirmed and the form emptied.
    await button.click();
    await expect.poll(() => form.locator("[name=message]").inputValue()).toBe("");
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
    expect(await form.getByRole("status").textContent()).toContain("Message envoyé !");
    expect((await storedMessages(email)).map((row) => row.message).sort()).toEqual([
      "Bonjour,\nune séance grossesse en avril ?",
      "Second message : et une séance famille ?",
    ]);
    expect(await samePage()).toBe(true);
  });

  it("refuses invalid values at the fields, with a summary and the focus on the first one, the outcome line left empty", async () => {
    // The refusal's answer is the page with its 400, as to a plain post: the browser's console notes it.
    const page = await openPage("/contact-studio-brive", { allowConsole: [/status of 400/] });
    const samePage = await markPage(page);
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

    // The field's message follows the correction: still refused by the browser's own check (the
    // address' form), it stays; accepted, it goes. The summary stays the account of the last answer.
    const emailError = page.locator("#contact-brive-email-erreur");
    await emailField.fill("encore-faux");
    expect(await emailError.textContent()).toBe("Email invalide");
    expect(await emailField.getAttribute("aria-invalid")).toBe("true");
    await emailField.fill(email);
    await expect.poll(() => emailError.count()).toBe(0);
    expect(await emailField.getAttribute("aria-invalid")).toBeNull();
    expect(await emailField.getAttribute("aria-describedby")).toBeNull();
    expect(await form.locator("[name=nom]").getAttribute("aria-invalid")).toBe("true");
    expect(await storedMessages(email)).toHaveLength(0);

    // Corrected, it goes, and the outcome line says so.
    await fill(page, {
      shootingType: "famille",
      nom: "Martin",
      telephone: "06 00 00 00 00",
      source: "google",
    });
    await page.locator("form[method=post] button[type=submit]").click();
    await expect
      .poll(() => form.getByRole("status").textContent())
      .toBe(
        "Message envoyé !Merci pour votre message, nous reviendrons vers vous dès que possible.",
      );
    expect(await summary.textContent()).toBe("");
    expect(await storedMessages(email)).toHaveLength(1);
    expect(await samePage()).toBe(true);
  });

  it("says what went wrong in place, keeping what was typed: 'Une erreur est survenue' only with no answer, 'Trop de tentatives' past the limit", async () => {
    const page = await openPage("/contact?studio=limoges", {
      allowConsole: [/ERR_FAILED|Failed to load resource/, /status of 429/],
    });
    await page.route(
      (url) => url.pathname.startsWith("/contact"),
      (route) => (route.request().method() === "POST" ? route.abort("failed") : route.continue()),
    );
    const email = uniqueEmail();
    const values = {
      shootingType: "boudoir",
      prenom: "Léa",
      nom: "Petit",
      email,
      message: "Bonjour, hors ligne ?",
      source: "bni",
    };
    await fill(page, values);
    const form = page.locator("form[method=post]");
    const button = form.locator("button[type=submit]");
    await button.click();
    await expect
      .poll(() => form.getByRole("status").textContent())
      .toBe("ErreurUne erreur est survenue. Veuillez réessayer.");
    expect(await form.getByRole("alert").textContent()).toBe("");
    expect(await currentValues(page)).toMatchObject(values);
    await expect.poll(() => button.textContent()).toBe("Envoyer le message");

    // Back online, with this address's allowance spent (Express may see the loopback as IPv4 or
    // IPv4-mapped IPv6).
    await page.unrouteAll();
    for (const key of ["contact:127.0.0.1", "contact:::ffff:127.0.0.1", "contact:::1"]) {
      await serverDatabase().execute(
        sql`insert into rate_limits (key, count, reset_at) values (${key}, 100, now() + interval '10 minutes')`,
      );
    }
    await button.click();
    await expect
      .poll(() => form.getByRole("status").textContent())
      .toBe("Trop de tentativesVeuillez réessayer dans quelques minutes.");
    expect(await currentValues(page)).toMatchObject(values);
    expect(await storedMessages(email)).toHaveLength(0);
  });
});
