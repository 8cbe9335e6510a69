import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogFixtures } from "../support/blog-fixtures";
import { fetchPage } from "../support/html";

// Decision 0090: the marketing pages are complete server HTML with no framework JavaScript, only a small
// inline script (app/light-script.ts) for the header, its menus, the price tabs and the video (and, like every
// page, the fonts' switch in <head>, decision 0095); the blog's pages too (decision 0137: its search and
// newsletter forms are plain forms), and the contact pages (its form a plain post, sent in place by the
// script); the error pages stay hydrated. What the browser
// then does with them: tests/e2e/light-pages.test.ts.

const fixtures = blogFixtures();
const article = `article-leger-${fixtures.token}`;

beforeAll(async () => {
  await fixtures.createCategory();
  await fixtures.createArticles([{ slug: article, inCategory: true }]);
});

afterAll(() => fixtures.cleanup());

const lightPages = [
  "/",
  "/prestations",
  "/prestations/grossesse",
  "/prestations/naissances",
  "/prestations/mariages",
  "/portrait-famille",
  "/boudoir",
  "/professionnels",
  "/gendarmerie",
  "/scolaire",
  "/seances-a-offrir",
  "/studio-ussel",
  "/studio-brive",
  "/studio-limoges",
  "/tarifs",
  "/galerie",
  "/mentions-legales",
  "/donnees-personnelles",
  "/politique-cookies",
  "/blog",
  "/blog?q=portrait&page=1",
  `/blog/${article}`,
  `/blog/categorie/${fixtures.categorySlug}`,
  "/contact",
  "/contact?studio=limoges",
  "/contact-studio-brive",
];
const hydratedPages = [
  // An unknown studio's contact page is routes/page's 404.
  "/contact-studio-inconnu",
  "/newsletter/confirmation",
  // An unknown article is an error page (a 404).
  `/blog/inconnu-${fixtures.token}`,
];

describe("light pages", () => {
  it.each(lightPages)(
    "%s is served without React Router's scripts, module preloads or hand-off, with two small nonced scripts",
    async (path) => {
      const { status, headers, html, document } = await fetchPage(path);
      expect(status).toBe(200);
      expect(html).not.toMatch(/rel="modulepreload"|type="module"|rr-scripts/);
      expect(html).not.toContain("__reactRouterContext");
      const scripts = [...document.querySelectorAll("script")].filter(
        (script) => script.getAttribute("type") !== "application/ld+json",
      );
      // The page's own script, and the fonts' switch in <head> (decision 0095): together within 5 KB.
      expect(scripts).toHaveLength(2);
      const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(
        headers.get("content-security-policy") ?? "",
      )?.[1];
      expect(nonce).toBeTruthy();
      for (const script of scripts) expect(script.getAttribute("nonce")).toBe(nonce);
      const bytes = scripts.reduce(
        (sum, script) => sum + Buffer.byteLength(script.textContent ?? ""),
        0,
      );
      expect(bytes).toBeLessThan(5 * 1024);
    },
  );

  it.each(hydratedPages)("%s stays hydrated: its module scripts are in the HTML", async (path) => {
    const { html } = await fetchPage(path);
    expect(html).toMatch(/<noscript id="rr-scripts">[\s\S]*type="module"/);
  });
});
