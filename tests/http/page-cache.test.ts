import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { blogFixtures, patiently } from "../support/blog-fixtures";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

// The page cache of the production server (decisions 0006, 0093): public pages rendered once and served
// again, up to date once PostgreSQL has notified a change committed elsewhere (this file writes through its
// own connection, as another process would; `serverDatabase` resolves once the server has caught up),
// never shared with a signed-in person, each answer with its own CSP nonce. That a browser runs the scripts
// of a cached page is in tests/e2e/page-cache.test.ts.

const baseUrl = serverBaseUrl();
const fixtures = blogFixtures();
const { token } = fixtures;
const slug = `cache-${token}`;
const person = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36",
};

beforeAll(async () => {
  await fixtures.createCategory();
  await fixtures.createArticles([
    { slug, title: `Première version ${token}`, inCategory: true },
    { slug: `voisin-${token}`, title: `Voisin ${token}`, inCategory: true },
  ]);
});

afterAll(() => fixtures.cleanup());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const html = await response.text();
  const policyNonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "");
  return {
    response,
    html,
    cache: response.headers.get("x-page-cache"),
    policyNonce: policyNonce?.[1],
    pageNonces: new Set([...html.matchAll(/nonce="([^"]*)"/g)].map((match) => match[1])),
  };
}

/**
 * The next answer served from the cache. Other test files change blog content at the same time (each
 * change rightly makes stored pages stale), so a hit may take a few tries.
 */
async function hit(path: string, headers: Record<string, string> = {}) {
  for (let attempt = 1; attempt <= 30; attempt += 1) {
    const answer = await get(path, headers);
    if (answer.cache === "hit") return { ...answer, attempts: attempt };
  }
  throw new Error(`${path} never served from the page cache`);
}

/** The page without its nonce: what two answers of one stored render share. */
const withoutNonce = (answer: { html: string; policyNonce?: string }) =>
  answer.html.replaceAll(answer.policyNonce ?? "", "");

const viewsOf = async (article = slug) =>
  (
    await serverDatabase()
      .select({ views: blogArticles.viewCount })
      .from(blogArticles)
      .where(eq(blogArticles.slug, article))
  )[0]?.views ?? 0;

describe("page cache", () => {
  it("serves a page again with a fresh nonce that every script of the answer carries", async () => {
    // Two answers of one stored render: a change made by another file in between (a new article in the
    // lists) renders the page again, and the pair is taken again.
    let first = await hit(`/blog/${slug}`);
    let second = await hit(`/blog/${slug}`);
    for (let attempt = 1; attempt < 10 && withoutNonce(first) !== withoutNonce(second); attempt++) {
      first = second;
      second = await hit(`/blog/${slug}`);
    }
    for (const answer of [first, second]) {
      expect(answer.policyNonce).toBeTruthy();
      expect([...answer.pageNonces]).toEqual([answer.policyNonce]);
    }
    expect(first.policyNonce).not.toBe(second.policyNonce);
    expect(withoutNonce(second)).toBe(withoutNonce(first));
  });

  it("shows a change to an article or a category once PostgreSQL has notified it", async () => {
    for (const path of [
      `/blog/${slug}`,
      `/blog?q=${token}`,
      `/blog/categorie/${fixtures.categorySlug}`,
    ]) {
      await hit(path);
    }
    await serverDatabase()
      .update(blogArticles)
      .set({ title: `Deuxième version ${token}` })
      .where(eq(blogArticles.slug, slug));
    for (const path of [
      `/blog/${slug}`,
      `/blog?q=${token}`,
      `/blog/categorie/${fixtures.categorySlug}`,
    ]) {
      const answer = await get(path);
      expect(answer.html, path).toContain(`Deuxième version ${token}`);
      expect(answer.html, path).not.toContain(`Première version ${token}`);
    }
    // The related article's page lists it too.
    expect((await get(`/blog/voisin-${token}`)).html).toContain(`Deuxième version ${token}`);
  });

  it("shows a change to every page, even pages first rendered all together", async () => {
    // Many renders at once queue for the database pool: what each one read must still be known.
    const paths = Array.from({ length: 40 }, (_, index) => `/blog?q=${token}&essai=${index}`);
    await Promise.all(paths.map((path) => get(path)));
    await serverDatabase()
      .update(blogArticles)
      .set({ title: `Troisième version ${token}` })
      .where(eq(blogArticles.slug, slug));
    // Every one of them, once notified: none keeps what it read before the change.
    const answers = await Promise.all(paths.map((path) => get(path)));
    expect(
      answers.filter((answer) => answer.html.includes(`Troisième version ${token}`)).length,
    ).toBe(paths.length);
  });

  it("counts the view of each person it serves the article to, not crawlers'", async () => {
    await get(`/blog/${slug}`, person);
    await expect.poll(() => viewsOf(), patiently).toBeGreaterThan(0);
    const before = await viewsOf();
    let requests = 0;
    for (let index = 0; index < 3; index += 1)
      requests += (await hit(`/blog/${slug}`, person)).attempts;
    await expect.poll(() => viewsOf(), patiently).toBe(before + requests);
    await hit(`/blog/${slug}`, { "user-agent": "Googlebot/2.1" });
    // Views are written in batches, in the order they were counted: once a person's view of another
    // article, counted after the crawler's, is written, the crawler's would have been too.
    const neighbour = `voisin-${token}`;
    const neighbourBefore = await viewsOf(neighbour);
    await get(`/blog/${neighbour}`, person);
    await expect.poll(() => viewsOf(neighbour), patiently).toBe(neighbourBefore + 1);
    expect(await viewsOf()).toBe(before + requests);
  });

  it("never answers a visitor with cookies from the cache", async () => {
    await hit("/tarifs");
    const withCookie = await get("/tarifs", { cookie: "toast=x" });
    expect(withCookie.cache).toBeNull();
    expect(withCookie.response.status).toBe(200);
  });
});
