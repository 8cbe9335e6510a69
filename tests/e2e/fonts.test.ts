import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogFixtures } from "./support/blog";
import { useBrowser } from "./support/browser";

// Decision 0091: the fonts a page preloads are fonts it draws text with, and the weights its text asks for
// are within the weight range the subsets keep (400-700), with no italic face loaded, and no face swaps in
// after text is drawn (font-display: optional, so no layout shift from fonts).

const { openPage } = useBrowser();
const fixtures = blogFixtures();
const article = `article-polices-${fixtures.token}`;

beforeAll(async () => {
  await fixtures.createArticles([
    {
      slug: article,
      title: `Préparer sa séance ${fixtures.token}`,
      content:
        "<h2>Avant la séance</h2><p>Un <strong>texte</strong> <em>riche</em> : « œuvre », 89 €.</p>" +
        "<h3>Le jour J</h3><blockquote><p>Une citation.</p></blockquote>",
    },
  ]);
});

afterAll(() => fixtures.cleanup());

const pages = [
  "/",
  "/tarifs",
  "/studio-brive",
  "/contact-studio-brive",
  "/blog",
  `/blog/${article}`,
  "/galerie",
  "/mentions-legales",
];

/** The web fonts' files by family, as fonts.css names them. */
const fileFamilies: Record<string, string> = {
  "inter-fr-wght": "Inter",
  "playfair-display-fr-wght": "Playfair Display",
};

type Drawn = { family: string; weight: number; style: string };

/** The family, weight and style of every visible piece of text of the page. */
function drawnText(page: Page): Promise<Drawn[]> {
  return page.evaluate(() => {
    const drawn = new Map<string, { family: string; weight: number; style: string }>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !(node.textContent ?? "").trim()) continue;
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      const css = getComputedStyle(element);
      const family = (css.fontFamily.split(",")[0] ?? "").trim().replace(/^"|"$/g, "");
      const entry = { family, weight: Number(css.fontWeight), style: css.fontStyle };
      drawn.set(JSON.stringify(entry), entry);
    }
    return [...drawn.values()];
  });
}

function preloadedFonts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')].map(
      (link) => new URL(link.href).pathname,
    ),
  );
}

describe("fonts", () => {
  it.each(pages)(
    "%s preloads only fonts its text uses, within the subsets' weights",
    async (path) => {
      const page = await openPage(path);
      await page.evaluate(() => document.fonts.ready);
      const drawn = await drawnText(page);
      const families = new Set(drawn.map((text) => text.family));
      expect(families.has("Inter")).toBe(true);

      for (const href of await preloadedFonts(page)) {
        const file = Object.keys(fileFamilies).find((name) => href.includes(`/${name}-`));
        expect(file, `${href} : une police du site`).toBeDefined();
        expect(families, `${href} préchargée sans texte qui l'utilise`).toContain(
          fileFamilies[file ?? ""],
        );
      }
      for (const text of drawn.filter((entry) => entry.family in reverse(fileFamilies))) {
        expect(text.weight, JSON.stringify(text)).toBeGreaterThanOrEqual(400);
        expect(text.weight, JSON.stringify(text)).toBeLessThanOrEqual(700);
      }
      // The web fonts loaded are the subsets, never another file (no italic face, no fontsource file).
      const loaded = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((entry) => new URL(entry.name).pathname)
          .filter((pathname) => pathname.endsWith(".woff2")),
      );
      expect(loaded.length).toBeGreaterThan(0);
      for (const pathname of loaded) {
        expect(Object.keys(fileFamilies).some((name) => pathname.includes(`/${name}-`))).toBe(true);
      }
      expect(
        await page.evaluate(() =>
          [...document.fonts].filter((face) => face.status === "loaded").map((face) => face.family),
        ),
      ).toEqual(expect.arrayContaining(["Inter", "Playfair Display"]));
    },
  );

  it("never swaps after text is drawn: every web font face says font-display: optional", async () => {
    const page = await openPage("/");
    const faces = await page.evaluate(() =>
      [...document.fonts]
        .filter((face) => !face.family.endsWith("fallback"))
        .map((face) => ({ family: face.family, display: face.display, weight: face.weight })),
    );
    expect(faces.map((face) => face.family).sort()).toEqual(["Inter", "Playfair Display"]);
    for (const face of faces) {
      expect(face.display).toBe("optional");
      expect(face.weight).toBe("400 700");
    }
  });
});

function reverse(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [value, key]));
}
