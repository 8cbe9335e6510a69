import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setStudioRetired } from "../../app/server/content/content-store.server";
import { db } from "../../app/server/db/client.server";
import { contactMessages } from "../../app/server/db/schema";
import { fetchPage, metaContent, postForm, textOf } from "../support/html";
import { structuredData } from "../support/public-pages";
import {
  formFields,
  messageToTulle,
  optionValues,
  storedMessagesToTulle,
  tulleClosure,
  useAddedStudio,
} from "../support/studio-contact";
import { studios as seeded } from "../support/studios";

/**
 * Decision 0070: a studio added in the admin (here through `saveStudio`, as the admin saves it) gets its
 * page, its contact page with its own form, a place in the menus, the footer, /contact, the home page,
 * the sitemap and the structured data; retired, it leaves all of them. Item 4: a redirect of the
 * `redirects` table is followed. What a visitor does with the new studio's pages in a browser (axe, the
 * form with JavaScript) is in tests/e2e/studios-as-data.test.ts.
 */

const { url, tulleId, caughtUp } = useAddedStudio();

/** A page of the file's server, its text as a visitor reads it (React's empty comments, escaped quotes). */
async function page(path: string) {
  const answer = await fetchPage(path);
  const text = answer.html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
  return { ...answer, text };
}

describe("a studio added in the admin", () => {
  it("has its page, with its facts, closures and LocalBusiness data, in at most 3 queries", async () => {
    const { status, headers, text, document } = await page("/studio-tulle");
    expect(status).toBe(200);
    // None when the site's content it shows is already in memory (decision 0093).
    expect(headers.get("server-timing")).toMatch(/desc="[0123] queries"/);
    expect(text).toContain("<title>Studio de Tulle | Studio Photo Exemple</title>");
    expect(text).toMatch(/<h1[^>]*>Studio de Tulle<\/h1>/);
    expect(text).toContain("3 quai de la Corrèze");
    expect(text).toContain('href="tel:+33536491004"');
    const business = structuredData(document).find((item) => item["@type"] === "LocalBusiness");
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
          validFrom: tulleClosure.from,
          validThrough: tulleClosure.to,
          opens: "00:00",
          closes: "00:00",
          description: "congés de Tulle",
        },
      ],
    });
    const closures = document.querySelector('ul[aria-label="Fermetures exceptionnelles"]');
    expect(closures?.textContent).toMatch(
      /^Fermeture exceptionnelle du \d+(er)? \S+ au \d+(er)? \S+ : congés de Tulle$/,
    );
    expect(document.querySelector("main dl")?.textContent).toContain("Le mercredi10h – 17h30");
  });

  it("is in the menus, the footer, /contact, the home page, its JSON-LD and the sitemap, after the others", async () => {
    const home = await page("/");
    expect(home.text).toContain("Quatre studios en Limousin, une même équipe");
    const business = structuredData(home.document).find(
      (item) => item["@type"] === "ProfessionalService",
    );
    expect((business?.department as Array<{ "@id": string }>).map((item) => item["@id"])).toEqual([
      ...seeded.map((studio) => `${url()}${studio.pagePath}#studio`),
      `${url()}/studio-tulle#studio`,
    ]);
    const menu = [...home.document.querySelectorAll("#menu-studios a")].map((link) =>
      link.getAttribute("href"),
    );
    expect(menu).toEqual([...seeded.map((studio) => studio.pagePath), "/studio-tulle"]);
    const footer = home.document.querySelector("footer");
    const linksNamed = (root: Element | null, name: string) =>
      [...(root?.querySelectorAll("a") ?? [])]
        .filter((link) => textOf(link) === name)
        .map((link) => link.getAttribute("href"));
    expect(linksNamed(footer, "Studio de Tulle")).toEqual(["/studio-tulle"]);
    expect(footer?.textContent).toContain("3 quai de la Corrèze19000 Tulle05 36 49 10 04");
    expect(linksNamed(home.document.querySelector("#studios"), "Studio de Tulle")).toEqual([
      "/studio-tulle",
    ]);

    const contact = await page("/contact?studio=tulle");
    expect(contact.text).toContain('href="/contact?studio=tulle"');
    expect(contact.text).toContain("Votre message sera transmis au studio de Tulle (Tulle).");
    expect(contact.text).toContain('value="portrait-canin"');

    const sitemap = await page("/sitemap.xml");
    expect(sitemap.text).toContain(`<loc>${url()}/studio-tulle</loc>`);
    expect(sitemap.text).toContain(`<loc>${url()}/contact-studio-tulle</loc>`);
  });

  it("is in the home page's title and description, and the home page names each studio one way, by its name", async () => {
    const { document, text } = await page("/");
    const names = "Studio d'Ussel, Studio de Brive, Studio de Limoges et Studio de Tulle";
    expect(textOf(document.querySelector("title"))).toBe(`Studio Photo Exemple | ${names}`);
    expect(metaContent(document, "description")).toBe(
      `Quatre studios photo en Limousin (${names}) : naissance, grossesse, famille, mariage et portraits professionnels. Portraitiste de France, plus de 15 ans d'expérience.`,
    );
    // The phone list and the online booking links said « Ambazac » for the card's « Studio de Limoges ».
    const card = (title: string) =>
      [...document.querySelectorAll("main li")].find(
        (item) => textOf(item.querySelector("h3")) === title,
      );
    const phones = [...(card("Par téléphone")?.querySelectorAll("li") ?? [])].map(textOf);
    expect(phones).toEqual([
      "Studio d'Ussel : 05 36 49 10 01",
      "Studio de Brive : 05 36 49 10 02",
      "Studio de Limoges : 05 36 49 10 03",
      "Studio de Tulle : 05 36 49 10 04",
    ]);
    const booking = [...(card("En ligne")?.querySelectorAll("a") ?? [])].map((link) =>
      textOf(link).replace(" – réserver en ligne (nouvel onglet)", ""),
    );
    expect(booking).toEqual([
      "Studio d'Ussel",
      "Studio de Brive",
      "Studio de Limoges",
      "Studio de Tulle",
    ]);
    expect(text).not.toMatch(/>Ambazac</);
  });

  it("has its own contact form, with its settings: an optional phone, a required source, its own options", async () => {
    const { status, document } = await page("/contact-studio-tulle");
    expect(status).toBe(200);
    expect(textOf(document.querySelector("h1"))).toBe("Contacter le studio de Tulle");
    expect(formFields(document)).toEqual([
      ["shootingType", "Type de séance *", true],
      ["prenom", "Prénom *", true],
      ["nom", "Nom *", true],
      ["email", "Email *", true],
      ["telephone", "Téléphone", false],
      ["message", "Votre message *", true],
      ["source", "Comment nous avez-vous connus ? *", true],
    ]);
    expect(optionValues(document, "shootingType")).toEqual(["", "portrait-canin", "famille"]);
    expect(document.querySelectorAll('ul[aria-label="Fermetures exceptionnelles"]')).toHaveLength(
      1,
    );
  });

  it("refuses a message without the source it requires, and stores one that gives it", async () => {
    const refused = await postForm("/contact-studio-tulle", messageToTulle.fields);
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.querySelector("#contact-tulle-source-erreur"))).toBe(
      "Veuillez indiquer comment vous nous avez connus",
    );
    expect(
      refused.document.querySelector("form[method=post] input[name=prenom]")?.getAttribute("value"),
    ).toBe("Jeanne");

    const sent = await postForm("/contact-studio-tulle", {
      ...messageToTulle.fields,
      source: messageToTulle.source,
    });
    expect(sent.status).toBe(200);
    expect(textOf(sent.document.querySelector("form[method=post] [role=status]"))).toContain(
      "Message envoyé !",
    );
    expect(await storedMessagesToTulle()).toMatchObject([messageToTulle.stored]);
  });

  it("takes a POST only on its contact page", async () => {
    const onPage = await postForm("/studio-tulle", { prenom: "Jeanne" });
    expect(onPage.status).toBe(405);
    expect(onPage.headers.get("allow")).toBe("GET, HEAD");
    const onForm = await postForm("/contact-studio-tulle", { prenom: "Jeanne" });
    expect(onForm.status).toBe(400);
    expect(onForm.html).toContain("Le nom est requis");
  });
});

describe("the redirects table", () => {
  it("answers 301 to the new address, keeping the query string, on one segment or several", async () => {
    for (const [from, to] of [
      ["/ancien-studio-tulle", "/studio-tulle"],
      ["/anciens/tulle/", "/contact-studio-tulle"],
    ]) {
      const response = await fetchPage(`${from}?utm_source=flyer`);
      expect(response.status, from).toBe(301);
      expect(response.headers.get("location")).toBe(`${to}?utm_source=flyer`);
    }
    expect((await fetchPage("/jamais-vu-tulle")).status).toBe(404);
  });
});

describe("a retired studio", () => {
  it("leaves its pages (404), the menus, the home page, /contact and the sitemap", async () => {
    await setStudioRetired(tulleId(), true);
    await caughtUp();
    expect((await page("/studio-tulle")).status).toBe(404);
    expect((await page("/contact-studio-tulle")).status).toBe(404);
    const home = await page("/");
    expect(home.text).not.toContain("Studio de Tulle");
    expect(home.text).not.toContain("/studio-tulle");
    const contact = await page("/contact?studio=tulle");
    expect(contact.text).not.toContain("Studio de Tulle");
    expect(contact.text).toContain("Votre message sera transmis au studio d'Ussel");
    expect((await page("/sitemap.xml")).text).not.toContain("studio-tulle");
    // Its messages stay.
    const rows = await db()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.studio, "tulle"));
    expect(rows).toHaveLength(1);
  });
});
