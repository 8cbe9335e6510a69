import { parse, validate } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogFixtures } from "../support/blog-fixtures";
import { serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();
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

/** XML's own escapes (the predefined entities and character references), as an XML reader reads them. */
const unescapeXml = (text: string) =>
  text.replace(
    /&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi,
    (_, hex?: string, decimal?: string, name?: string) =>
      hex || decimal
        ? String.fromCodePoint(parseInt(hex ?? decimal ?? "", hex ? 16 : 10))
        : { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[name as "amp"],
  );

type Element = Record<string, string | undefined>;

/**
 * Checks that `xml` is well-formed and reads it: elements as objects, texts as strings, the elements named
 * in `repeated` always as arrays.
 */
function readXml(xml: string, repeated: string[]): Record<string, unknown> {
  expect(validate(xml)).toBe(true);
  return parse(xml, {
    parseNodeValue: false,
    tagValueProcessor: unescapeXml,
    arrayMode: (tagName) => repeated.includes(tagName),
  }) as Record<string, unknown>;
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
    const sitemap = readXml(await response.text(), ["url"]);
    expect(Object.keys(sitemap)).toEqual(["urlset"]);
    const urls = (sitemap.urlset as { url: Element[] }).url;
    const locs = urls.map((url) => url.loc);
    for (const path of [
      "/",
      "/tarifs",
      "/blog",
      `/blog/flux-${token}`,
      `/blog/categorie/${fixtures.categorySlug}`,
    ]) {
      expect(locs).toContain(`${baseUrl}${path}`);
    }
    expect(locs).not.toContain(`${baseUrl}/blog/flux-brouillon-${token}`);
    expect(locs.some((loc) => loc?.includes("/admin"))).toBe(false);
    for (const { loc, lastmod } of urls) {
      expect(Number.isNaN(Date.parse(lastmod ?? "")), loc).toBe(false);
    }
  });

  it("the RSS 2.0 feed is valid XML with the latest published articles", async () => {
    const response = await fetch(`${baseUrl}/blog/rss.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/rss+xml");
    const feed = readXml(await response.text(), ["item"]);
    expect(Object.keys(feed)).toEqual(["rss"]);
    const items = (feed.rss as { channel: { item: Element[] } }).channel.item;
    const titles = items.map((item) => item.title);
    expect(titles).toContain(`Flux & « guillemets » <${token}>`);
    expect(titles).not.toContain(`Brouillon ${token}`);
    expect(items.length).toBeLessThanOrEqual(20);
    expect(items.map((item) => item.link)).toContain(`${baseUrl}/blog/flux-${token}`);
    for (const date of items.flatMap((item) => item.pubDate ?? [])) {
      expect(Number.isNaN(Date.parse(date)), date).toBe(false);
    }
  });
});
