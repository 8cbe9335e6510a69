import { describe, expect, it } from "vitest";
import { fetchPage, metaContent, textOf } from "../support/html";
import { hrefOf, structuredData } from "../support/public-pages";
import { serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();

describe("home page", () => {
  it("is complete in the HTML the server sends: h1, meta tags, JSON-LD with three addresses", async () => {
    const { status, document } = await fetchPage("/");
    expect(status).toBe(200);
    expect(document.documentElement.getAttribute("lang")).toBe("fr");
    expect([...document.querySelectorAll("h1")].map(textOf)).toContain("Studio Photo Exemple");
    expect(textOf(document.querySelector("title"))).not.toBe("");
    expect(metaContent(document, "description")).toBeTruthy();
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
      `${baseUrl}/`,
    );
    expect(metaContent(document, "og:image")).toMatch(/.logo-partage\.png$/);
    expect(metaContent(document, "twitter:card")).toBe("summary_large_image");

    const [business] = structuredData(document) as Array<{
      "@type": string;
      address: Array<{ postalCode: string }>;
      priceRange: string;
      openingHoursSpecification?: unknown;
      department: Array<{ "@id": string }>;
    }>;
    expect(business?.["@type"]).toBe("ProfessionalService");
    expect(business?.address.map((address) => address.postalCode)).toEqual([
      "19200",
      "19100",
      "87240",
    ]);
    expect(business?.priceRange).toBeTruthy();
    // Hours are per studio (one LocalBusiness each, as on the studio pages), not one business-wide week:
    // the old Monday–Saturday 9h–18h contradicted the studios' own hours.
    expect(business?.openingHoursSpecification).toBeUndefined();
    expect(business?.department.map((studio) => studio["@id"])).toEqual([
      `${baseUrl}/studio-ussel#studio`,
      `${baseUrl}/studio-brive#studio`,
      `${baseUrl}/studio-limoges#studio`,
    ]);
  });

  it("preloads the hero photo with high priority and lazy-loads the photos below the fold", async () => {
    // React writes these attributes in camel case (`fetchPriority`, `srcSet`), which the HTML parser used
    // here does not match in selectors: the raw HTML is read instead.
    const { html } = await fetchPage("/");
    expect(html).toMatch(/<link rel="preload" as="image"[^>]*fetchPriority="high"/);
    const heroImg = html.match(/<img[^>]*fetchPriority="high"[^>]*>/i)?.[0] ?? "";
    expect(heroImg).not.toContain('loading="lazy"');
    expect(heroImg).toMatch(/width="\d+"/);
    expect(html).toMatch(/<source type="image\/avif" srcSet="[^"]+ 640w/);
    expect(html.match(/loading="lazy"/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
  });

  it("'Découvrir nos studios' leads to the studio cards, each with its page and a tel: link", async () => {
    const { document } = await fetchPage("/");
    expect(hrefOf(document.querySelector("main"), "Découvrir nos studios")).toBe("#studios");
    const section = document.querySelector("#studios");
    for (const [name, path] of [
      ["Studio d'Ussel", "/studio-ussel"],
      ["Studio de Brive", "/studio-brive"],
      ["Studio de Limoges", "/studio-limoges"],
    ] as const) {
      expect(hrefOf(section, name)).toBe(path);
    }
    expect(section?.querySelectorAll('a[href^="tel:+33"]')).toHaveLength(3);
  });
});
