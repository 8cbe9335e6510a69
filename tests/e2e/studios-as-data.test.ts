import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { serverCaughtUp } from "../support/server-under-test";
import { studios as seeded } from "../support/studios";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import type { StudioData } from "../../app/content/schemas";
import { parisToday } from "../../app/lib/dates";
import {
  listStudios,
  saveStudio,
  setStudioRetired,
} from "../../app/server/content/content-store.server";
import { closeDatabase, connectDatabase, db } from "../../app/server/db/client.server";
import { contactMessages, redirects } from "../../app/server/db/schema";

/**
 * Issue 11, item 2: a studio added in the admin (here through `saveStudio`, as the admin saves it) gets its
 * page, its contact page with its own form, a place in the menus, the footer, /contact, the home page,
 * the sitemap and the structured data; retired, it leaves all of them. Item 4: a redirect of the
 * `redirects` table is followed. This file runs its own server and database: a fourth studio on the
 * suite's shared server would show in the menus and JSON-LD other files compare exactly.
 */

let server: ServerProcess | undefined;
const url = () => {
  if (!server) throw new Error("server not started");
  return server.baseUrl;
};
const { openPage } = useBrowser({ baseUrl: url });

const author = { id: "", name: "Test" };
let tulleId = "";

/** An ISO date `days` after today in Paris. */
function inDays(days: number): string {
  const date = new Date(`${parisToday()}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const closure = { from: inDays(10), to: inDays(20), label: "congés de Tulle" };

async function tulle(): Promise<StudioData> {
  const brive = (await listStudios()).find((studio) => studio.slug === "brive");
  if (!brive) throw new Error("brive not seeded");
  return {
    ...brive.data,
    name: "Studio de Tulle",
    city: "Tulle",
    description: "Au cœur de Tulle, un studio pour les portraits et les familles.",
    address: { street: "3 quai de la Corrèze", postalCode: "19000", city: "Tulle" },
    phone: "05 36 49 10 04",
    email: "tulle@example.com",
    bookingUrl: "https://reservation.example.com/studio-tulle",
    hours: { Wednesday: [{ opens: "10:00", closes: "17:30" }] },
    closures: [{ from: inDays(-30), to: inDays(-20), label: "passée" }, closure],
    geo: { latitude: 45.2658, longitude: 1.7722 },
    contactForm: {
      shootingTypes: [
        { value: "portrait-canin", label: "Portrait canin" },
        { value: "famille", label: "Famille" },
      ],
      sources: [{ value: "radio", label: "Radio locale" }],
      telephone: "optional",
      sourceRequired: true,
    },
  };
}

beforeAll(async () => {
  server = await startServerProcess(inject("adminDatabaseUrl"));
  connectDatabase(server.databaseUrl);
  tulleId = await saveStudio(null, "tulle", await tulle(), author);
  await db()
    .insert(redirects)
    .values([
      { fromPath: "/ancien-studio-tulle", toPath: "/studio-tulle" },
      { fromPath: "/anciens/tulle", toPath: "/contact-studio-tulle" },
    ]);
  // Written through this file's own connection: the server learns of it by notification (decision 0093).
  await serverCaughtUp({ baseUrl: url(), database: db().$client });
});

afterAll(async () => {
  await closeDatabase();
  await server?.stop();
});

const html = async (path: string) => {
  const response = await fetch(`${url()}${path}`);
  // React separates adjacent texts with empty comments; read the text as a visitor would.
  const text = (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
  return { status: response.status, response, text };
};

function jsonLd(text: string): Array<Record<string, unknown>> {
  return [...text.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((block) =>
    JSON.parse(block[1] ?? "{}"),
  );
}

async function formFields(page: Page) {
  return page.locator("form[method=post] :is(input, select, textarea)").evaluateAll((elements) =>
    elements
      .filter((element) => !element.closest("[aria-hidden=true]"))
      .map((element) => {
        const control = element as HTMLInputElement;
        const label = document.querySelector(`label[for="${control.id}"]`)?.textContent ?? "";
        return [control.name, label.trim(), control.required] as const;
      }),
  );
}

describe("a studio added in the admin", () => {
  it("has its page, with its facts, closures and LocalBusiness data, in at most 3 queries", async () => {
    const { status, response, text } = await html("/studio-tulle");
    expect(status).toBe(200);
    // None when the site's content it shows is already in memory (decision 0093).
    expect(response.headers.get("server-timing")).toMatch(/desc="[0123] queries"/);
    expect(text).toContain("<title>Studio de Tulle | Studio Photo Exemple</title>");
    expect(text).toMatch(/<h1[^>]*>Studio de Tulle<\/h1>/);
    expect(text).toContain("3 quai de la Corrèze");
    expect(text).toContain('href="tel:+33536491004"');
    const business = jsonLd(text).find((item) => item["@type"] === "LocalBusiness");
    expect(business).toMatchObject({
      "@id": `${url()}/studio-tulle#studio`,
      telephone: "05 36 49 10 04",
      email: "tulle@example.com",
      address: { streetAddress: "3 quai de la Corrèze", postalCode: "19000" },
      geo: { "@type": "GeoCoordinates", latitude: 45.2658, longitude: 1.7722 },
      openingHoursSpecification: [{ dayOfWeek: ["Wednesday"], opens: "10:00", closes: "17:30" }],
      // Only the closure to come: the past one says nothing any more.
      specialOpeningHoursSpecification: [
        {
          validFrom: closure.from,
          validThrough: closure.to,
          opens: "00:00",
          closes: "00:00",
          description: "congés de Tulle",
        },
      ],
    });

    const page = await openPage("/studio-tulle");
    const closures = page.getByRole("list", { name: "Fermetures exceptionnelles" });
    expect(await closures.textContent()).toMatch(
      /^Fermeture exceptionnelle du \d+(er)? \S+ au \d+(er)? \S+ : congés de Tulle$/,
    );
    expect(await page.locator("main dl").first().textContent()).toContain("Le mercredi10h – 17h30");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("is in the menus, the footer, /contact, the home page, its JSON-LD and the sitemap, after the others", async () => {
    const home = await html("/");
    expect(home.text).toContain("Quatre studios en Limousin, une même équipe");
    const business = jsonLd(home.text).find((item) => item["@type"] === "ProfessionalService");
    expect((business?.department as Array<{ "@id": string }>).map((item) => item["@id"])).toEqual([
      ...seeded.map((studio) => `${url()}${studio.pagePath}#studio`),
      `${url()}/studio-tulle#studio`,
    ]);

    const page = await openPage("/", { viewport: { width: 1280, height: 800 } });
    const menu = await page
      .locator("#menu-studios a")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(menu).toEqual([...seeded.map((studio) => studio.pagePath), "/studio-tulle"]);
    const footer = page.locator("footer");
    expect(await footer.getByRole("link", { name: "Studio de Tulle" }).getAttribute("href")).toBe(
      "/studio-tulle",
    );
    expect(await footer.textContent()).toContain("3 quai de la Corrèze19000 Tulle05 36 49 10 04");
    const cards = page.locator("#studios");
    expect(
      await cards.getByRole("link", { name: "Studio de Tulle", exact: true }).getAttribute("href"),
    ).toBe("/studio-tulle");

    const contact = await html("/contact?studio=tulle");
    expect(contact.text).toContain('href="/contact?studio=tulle"');
    expect(contact.text).toContain("Votre message sera transmis au studio de Tulle (Tulle).");
    expect(contact.text).toContain('value="portrait-canin"');

    const sitemap = await html("/sitemap.xml");
    expect(sitemap.text).toContain(`<loc>${url()}/studio-tulle</loc>`);
    expect(sitemap.text).toContain(`<loc>${url()}/contact-studio-tulle</loc>`);
  });

  it("has its own contact form, which stores a message for it", async () => {
    const page = await openPage("/contact-studio-tulle");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Contacter le studio de Tulle",
    );
    // Its settings: an optional phone, a required source, its own option lists.
    expect(await formFields(page)).toEqual([
      ["shootingType", "Type de séance *", true],
      ["prenom", "Prénom *", true],
      ["nom", "Nom *", true],
      ["email", "Email *", true],
      ["telephone", "Téléphone", false],
      ["message", "Votre message *", true],
      ["source", "Comment nous avez-vous connus ? *", true],
    ]);
    expect(
      await page
        .locator("select[name=shootingType] option")
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)),
    ).toEqual(["", "portrait-canin", "famille"]);
    expect(await page.getByRole("list", { name: "Fermetures exceptionnelles" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // The source is required for this studio: refused at its field, what was typed kept.
    await page.locator("select[name=shootingType]").selectOption("portrait-canin");
    await page.locator("input[name=prenom]").fill("Jeanne");
    await page.locator("input[name=nom]").fill("Tulliste");
    await page.locator("input[name=email]").fill("jeanne.tulliste@example.org");
    await page.locator("textarea[name=message]").fill("Une séance avec notre chien ?");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await page.getByText("Veuillez indiquer comment vous nous avez connus").first().waitFor();
    expect(await page.locator("input[name=prenom]").inputValue()).toBe("Jeanne");

    await page.locator("select[name=source]").selectOption("radio");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await page.locator("[data-sonner-toast]", { hasText: "Message envoyé !" }).waitFor();
    const rows = await db()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, "jeanne.tulliste@example.org"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      studio: "tulle",
      shootingType: "portrait-canin",
      source: "radio",
      telephone: null,
    });
  });

  it("takes a POST only on its contact page", async () => {
    const post = (path: string) =>
      fetch(`${url()}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url() },
        body: "prenom=Jeanne",
        redirect: "manual",
      });
    const onPage = await post("/studio-tulle");
    expect(onPage.status).toBe(405);
    expect(onPage.headers.get("allow")).toBe("GET, HEAD");
    const onForm = await post("/contact-studio-tulle");
    expect(onForm.status).toBe(400);
    expect(await onForm.text()).toContain("Le nom est requis");
  });
});

describe("the redirects table", () => {
  it("answers 301 to the new address, keeping the query string, on one segment or several", async () => {
    for (const [from, to] of [
      ["/ancien-studio-tulle", "/studio-tulle"],
      ["/anciens/tulle/", "/contact-studio-tulle"],
    ]) {
      const response = await fetch(`${url()}${from}?utm_source=flyer`, { redirect: "manual" });
      expect(response.status, from).toBe(301);
      expect(response.headers.get("location")).toBe(`${to}?utm_source=flyer`);
    }
    expect((await fetch(`${url()}/jamais-vu-tulle`, { redirect: "manual" })).status).toBe(404);
  });
});

describe("a retired studio", () => {
  it("leaves its pages (404), the menus, the home page, /contact and the sitemap", async () => {
    await setStudioRetired(tulleId, true);
    await serverCaughtUp({ baseUrl: url(), database: db().$client });
    expect((await html("/studio-tulle")).status).toBe(404);
    expect((await html("/contact-studio-tulle")).status).toBe(404);
    const home = await html("/");
    expect(home.text).not.toContain("Studio de Tulle");
    expect(home.text).not.toContain("/studio-tulle");
    const contact = await html("/contact?studio=tulle");
    expect(contact.text).not.toContain("Studio de Tulle");
    expect(contact.text).toContain("Votre message sera transmis au studio d'Ussel");
    expect((await html("/sitemap.xml")).text).not.toContain("studio-tulle");
    // Its messages stay.
    const rows = await db()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.studio, "tulle"));
    expect(rows).toHaveLength(1);
  });
});
