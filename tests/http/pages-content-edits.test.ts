import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadDocument, saveDocument } from "../../app/server/content/content-store.server";
import { closeDatabase, connectDatabase } from "../../app/server/db/client.server";
import { fetchPage, textOf } from "../support/html";
import { serverCaughtUp } from "../support/server-under-test";

// The server under test is shared with every other http file running meanwhile: the edits below change only
// what no other file reads (a testimonial's words, the last gallery's title and address), and each test puts
// the owner's original value back.

const owner = { id: "", name: "Test des pages" };

beforeAll(() => {
  connectDatabase(inject("databaseUrl"));
});
afterAll(async () => {
  await closeDatabase();
});

/** The page's `<main>` as the server renders it now. */
async function mainOf(path: string) {
  const { status, document } = await fetchPage(path);
  expect(status, path).toBe(200);
  return document.querySelector("main");
}

/** The titles (and category labels) of the galleries of /galerie. */
const galleryTexts = async () =>
  [...((await mainOf("/galerie"))?.querySelectorAll("li span") ?? [])].map(textOf);

describe("an edit of the content shows on the public pages at the next request", () => {
  it("a testimonial of /prestations/grossesse, then the original once restored", async () => {
    const original = await loadDocument("testimonials");
    const edited = structuredClone(original);
    const quote = "Une séance douce et lumineuse, des photos que nous regardons chaque jour.";
    edited.grossesse[0] = { quote, author: "Inès et Paul", location: "Meymac" };
    const before = original.grossesse[0]?.quote ?? "";
    expect(textOf(await mainOf("/prestations/grossesse"))).toContain(before);
    try {
      await saveDocument("testimonials", edited, owner, "Test des pages");
      await serverCaughtUp();
      const main = await mainOf("/prestations/grossesse");
      expect(textOf(main)).toContain(quote);
      expect(textOf(main)).not.toContain(before);
      const shown = [...(main?.querySelectorAll("figure") ?? [])].filter((figure) =>
        textOf(figure).includes("Inès et Paul"),
      );
      expect(shown).toHaveLength(1);
      expect(textOf(shown[0])).toContain(`« ${quote} »`);
      expect(textOf(shown[0])).toContain("Meymac");
    } finally {
      await saveDocument("testimonials", original, owner, "Test des pages : retour");
      await serverCaughtUp();
    }
    const restored = textOf(await mainOf("/prestations/grossesse"));
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
    last.link = "https://galeries.atelier-lumiere.fr/mariage-julie-romain-vassiviere";
    try {
      await saveDocument("gallery", edited, owner, "Test des pages");
      await serverCaughtUp();
      const links = [...((await mainOf("/galerie"))?.querySelectorAll("li a") ?? [])];
      // The seed's other addresses are placeholders, shown without a link (decision 0126).
      expect(links).toHaveLength(1);
      const link = links.filter((item) => textOf(item).includes("au lac de Vassivière"));
      expect(link).toHaveLength(1);
      expect(link[0]?.getAttribute("href")).toBe(
        "https://galeries.atelier-lumiere.fr/mariage-julie-romain-vassiviere",
      );
      expect(link[0]?.getAttribute("target")).toBe("_blank");
      expect(await galleryTexts()).not.toContain(before);
    } finally {
      await saveDocument("gallery", original, owner, "Test des pages : retour");
      await serverCaughtUp();
    }
    const restored = await galleryTexts();
    expect(restored).toContain(before);
    expect(restored.join(" ")).not.toContain("Vassivière");
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
    // React writes these attributes in camel case (`imageSrcSet`, `fetchPriority`), which the HTML parser
    // used here does not match in selectors: the raw HTML is read.
    const { html } = await fetchPage(path);
    const preload = html.match(/<link rel="preload" as="image"[^>]*>/)?.[0] ?? "";
    expect(preload).toMatch(/fetchPriority="high"/i);
    const srcSet = preload.match(/imageSrcSet="([^"]+)"/i)?.[1] ?? "";
    expect(srcSet).toMatch(/\.avif 2400w$/);
    // The hero's own <source> has the same widths, and its <img> its intrinsic size (no layout shift).
    expect(html).toContain(`<source type="image/avif" srcSet="${srcSet}" sizes="100vw"/>`);
    expect(html).toMatch(/<img [^>]*width="2400" height="1600"[^>]*fetchPriority="high"/);
  });
});
