import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

describe("home page", () => {
  it("is complete in the HTML the server sends: h1, meta tags, JSON-LD with three addresses", async () => {
    const response = await fetch(`${baseUrl}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toMatch(/<h1[^>]*>Studio Photo Exemple<\/h1>/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    expect(html).toContain(`<link rel="canonical" href="${baseUrl}/"`);
    expect(html).toMatch(/<meta property="og:image" content="[^"]+logo-partage\.png"/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');

    const jsonLd = html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)?.[1];
    expect(jsonLd).toBeDefined();
    const business = JSON.parse(jsonLd ?? "{}");
    expect(business["@type"]).toBe("ProfessionalService");
    expect(business.address.map((address: { postalCode: string }) => address.postalCode)).toEqual([
      "19200",
      "19100",
      "87240",
    ]);
    expect(business.priceRange).toBeTruthy();
    // Hours are per studio (one LocalBusiness each, as on the studio pages), not one business-wide week:
    // the old Monday–Saturday 9h–18h contradicted the studios' own hours (issue 10).
    expect(business.openingHoursSpecification).toBeUndefined();
    expect(business.department.map((studio: { "@id": string }) => studio["@id"])).toEqual([
      `${baseUrl}/studio-ussel#studio`,
      `${baseUrl}/studio-brive#studio`,
      `${baseUrl}/studio-limoges#studio`,
    ]);
  });

  it("preloads the hero photo with high priority and lazy-loads the photos below the fold", async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    expect(html).toMatch(
      /<link rel="preload" as="image"[^>]*fetchPriority="high"|<link[^>]*rel="preload"[^>]*as="image"[^>]*>/i,
    );
    const heroImg = html.match(/<img[^>]*fetchPriority="high"[^>]*>/i)?.[0] ?? "";
    expect(heroImg).not.toContain('loading="lazy"');
    expect(heroImg).toMatch(/width="\d+"/);
    expect(html).toMatch(/<source type="image\/avif" srcSet="[^"]+ 640w/);
    expect(html.match(/loading="lazy"/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
  });

  it("'Découvrir nos studios' leads to the studio cards, each with its page and a tel: link", async () => {
    const page = await openPage("/");
    await page.getByRole("link", { name: "Découvrir nos studios" }).click();
    await page.waitForURL(/#studios$/);
    const section = page.locator("#studios");
    await expect
      .poll(() => section.evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThan(200);
    for (const [name, path] of [
      ["Studio d'Ussel", "/studio-ussel"],
      ["Studio de Brive", "/studio-brive"],
      ["Studio de Limoges", "/studio-limoges"],
    ]) {
      await expect
        .poll(() => section.getByRole("link", { name, exact: true }).getAttribute("href"))
        .toBe(path);
    }
    expect(await section.locator('a[href^="tel:+33"]').count()).toBe(3);
  });

  it("has no accessibility violation", async () => {
    const page = await openPage("/");
    expect(await axeViolations(page)).toEqual([]);
  });
});
