import { describe, expect, it } from "vitest";
import { fetchPage, metaContent, textOf } from "../support/html";

// A page of the blog's list past its last one is no page: a French 404 with the way
// back, never an empty list answered 200 that search engines would index.

describe("the blog's list past its last page", () => {
  it("answers 404 in French with a link to the latest articles, kept from search engines", async () => {
    for (const path of ["/blog?page=99", "/blog?q=zzzz-introuvable&page=2"]) {
      const { status, document, headers } = await fetchPage(path);
      expect(status, path).toBe(404);
      expect(headers.get("cache-control")).toBe("no-store");
      expect(textOf(document.querySelector("h1"))).toBe("Page introuvable");
      expect(metaContent(document, "robots")).toBe("noindex");
      const back = document.querySelector('main a[href="/blog"]');
      expect(textOf(back)).toBe("Voir les derniers articles");
    }
  });

  it("still answers its first page, even when nothing matches", async () => {
    expect((await fetchPage("/blog")).status).toBe(200);
    const empty = await fetchPage("/blog?q=zzzz-introuvable");
    expect(empty.status).toBe(200);
    expect(textOf(empty.document.querySelector("main"))).toContain("Aucun article trouvé");
  });
});
