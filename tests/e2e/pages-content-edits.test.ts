import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadDocument, saveDocument } from "../../app/server/content/content-store.server";
import { closeDatabase, connectDatabase } from "../../app/server/db/client.server";
import { axeViolations, useBrowser } from "./support/browser";
import { serverCaughtUp } from "../support/server-under-test";

// The server under test is shared with every other e2e file running meanwhile: the edits below change only
// what no other file reads (a testimonial's words, the last gallery's title and address), and each test puts
// the owner's original value back.

const { openPage, baseUrl } = useBrowser();
const owner = { id: "", name: "Test des pages" };

beforeAll(() => {
  connectDatabase(inject("databaseUrl"));
});
afterAll(async () => {
  await closeDatabase();
});

/** React escapes &, ', " in the HTML it renders. */
const decode = (html: string) =>
  html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

const html = async (path: string) => decode(await (await fetch(`${baseUrl}${path}`)).text());

describe("an edit of the content shows on the public pages at the next request", () => {
  it("a testimonial of /prestations/grossesse, then the original once restored", async () => {
    const original = await loadDocument("testimonials");
    const edited = structuredClone(original);
    const quote = "Une séance douce et lumineuse, des photos que nous regardons chaque jour.";
    edited.grossesse[0] = { quote, author: "Inès et Paul", location: "Meymac" };
    const before = original.grossesse[0]?.quote ?? "";
    expect(await html("/prestations/grossesse")).toContain(before);
    try {
      await saveDocument("testimonials", edited, owner, "Test des pages");
      await serverCaughtUp();
      const page = await html("/prestations/grossesse");
      expect(page).toContain(quote);
      expect(page).toContain("Inès et Paul");
      expect(page).not.toContain(before);

      const browserPage = await openPage("/prestations/grossesse");
      const shown = browserPage.locator("main figure", { hasText: "Inès et Paul" });
      const text = await shown.innerText();
      expect(text).toContain(`« ${quote} »`);
      expect(text).toContain("Meymac");
      expect(await axeViolations(browserPage)).toEqual([]);
    } finally {
      await saveDocument("testimonials", original, owner, "Test des pages : retour");
      await serverCaughtUp();
    }
    const restored = await html("/prestations/grossesse");
    expect(restored).toContain(before);
    expect(restored).not.toContain(quote);
  });

  it("a gallery of /galerie: its new title and address, opening in a new tab", async () => {
    const original = await loadDocument("gallery");
    const edited = structuredClone(original);
    const last = edited.items.at(-1);
    if (!last) throw new Error("la galerie de démonstration est vide");
    const before = last.title;
    last.title = "Mariage de Julie et Romain au lac de Vassivière";
    last.link = "https://galeries.example.com/mariage-julie-romain-vassiviere";
    try {
      await saveDocument("gallery", edited, owner, "Test des pages");
      await serverCaughtUp();
      const page = await openPage("/galerie");
      const link = page.locator("main li a", { hasText: "au lac de Vassivière" });
      expect(await link.getAttribute("href")).toBe(
        "https://galeries.example.com/mariage-julie-romain-vassiviere",
      );
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await page.locator("main li a").count()).toBe(original.items.length);
      expect(await html("/galerie")).not.toContain(`>${before}</span>`);
    } finally {
      await saveDocument("gallery", original, owner, "Test des pages : retour");
      await serverCaughtUp();
    }
    const restored = await html("/galerie");
    expect(restored).toContain(`>${before}</span>`);
    expect(restored).not.toContain("Vassivière");
  });
});

describe("the hero photo the owner chose is the page's preloaded LCP image", () => {
  it.each([
    "/prestations",
    "/portrait-famille",
    "/prestations/grossesse",
    "/prestations/naissances",
    "/prestations/mariages",
    "/seances-a-offrir",
    "/professionnels",
    "/gendarmerie",
    "/scolaire",
  ])("%s preloads its hero with high priority, at the size it is drawn", async (path) => {
    const page = await html(path);
    const preload = page.match(/<link rel="preload" as="image"[^>]*>/)?.[0] ?? "";
    expect(preload).toMatch(/fetchPriority="high"/i);
    const srcSet = preload.match(/imageSrcSet="([^"]+)"/i)?.[1] ?? "";
    expect(srcSet).toMatch(/\.avif 2400w$/);
    // The hero's own <source> has the same widths, and its <img> its intrinsic size (no layout shift).
    expect(page).toContain(`<source type="image/avif" srcSet="${srcSet}" sizes="100vw"/>`);
    expect(page).toMatch(/<img [^>]*width="2400" height="1600"[^>]*fetchPriority="high"/);
  });
});
