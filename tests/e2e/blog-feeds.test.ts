import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogFixtures } from "../support/blog-fixtures";
import { useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();
const fixtures = blogFixtures();
const { token } = fixtures;

beforeAll(async () => {
  await fixtures.createCategory();
  await fixtures.createArticles([
    {
      slug: `flux-${token}`,
      title: `Flux & « guillemets » <${token}>`,
      excerpt: "Un extrait avec des caractères à échapper : & < >",
      inCategory: true,
      publishedAt: new Date(),
    },
    { slug: `flux-brouillon-${token}`, title: `Brouillon ${token}`, published: false },
  ]);
});

afterAll(() => fixtures.cleanup());

/** Parses XML with the browser's own parser; returns the parse error, if any, and selected texts. */
async function parseXml(xml: string, selector: string) {
  const page = await openPage("/");
  return page.evaluate(
    ([source, query]) => {
      const document = new DOMParser().parseFromString(source, "application/xml");
      const error = document.querySelector("parsererror")?.textContent ?? null;
      return {
        error,
        root: document.documentElement.nodeName,
        texts: [...document.querySelectorAll(query)].map((node) => node.textContent ?? ""),
      };
    },
    [xml, selector] as const,
  );
}

describe("discovery files", () => {
  it("robots.txt keeps crawlers out of the admin and announces the sitemap", async () => {
    const response = await fetch(`${baseUrl}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/admin$/m);
    expect(text).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
  });

  it("sitemap.xml is valid XML listing public pages, published articles and categories with lastmod", async () => {
    const response = await fetch(`${baseUrl}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    expect(response.headers.get("cache-control")).toContain("s-maxage=60");
    const xml = await response.text();
    const parsed = await parseXml(xml, "url > loc");
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe("urlset");
    for (const path of [
      "/",
      "/tarifs",
      "/blog",
      `/blog/flux-${token}`,
      `/blog/categorie/${fixtures.categorySlug}`,
    ]) {
      expect(parsed.texts).toContain(`${baseUrl}${path}`);
    }
    expect(parsed.texts).not.toContain(`${baseUrl}/blog/flux-brouillon-${token}`);
    expect(parsed.texts.some((loc) => loc.includes("/admin"))).toBe(false);
    const lastmods = await parseXml(xml, "url > lastmod");
    expect(lastmods.texts).toHaveLength(parsed.texts.length);
    for (const date of lastmods.texts) expect(Number.isNaN(Date.parse(date))).toBe(false);
  });

  it("the RSS 2.0 feed is valid XML with the latest published articles", async () => {
    const response = await fetch(`${baseUrl}/blog/rss.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await response.text();
    const titles = await parseXml(xml, "channel > item > title");
    expect(titles.error).toBeNull();
    expect(titles.root).toBe("rss");
    expect(titles.texts).toContain(`Flux & « guillemets » <${token}>`);
    expect(titles.texts).not.toContain(`Brouillon ${token}`);
    expect(titles.texts.length).toBeLessThanOrEqual(20);
    const links = await parseXml(xml, "channel > item > link");
    expect(links.texts).toContain(`${baseUrl}/blog/flux-${token}`);
    const dates = await parseXml(xml, "channel > item > pubDate");
    for (const date of dates.texts) expect(Number.isNaN(Date.parse(date))).toBe(false);
  });
});
