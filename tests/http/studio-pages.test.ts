import { describe, expect, it } from "vitest";
import { openingLines } from "../../app/lib/opening-hours";
import { fetchPage, metaContent, textOf } from "../support/html";
import { hrefOf, structuredData } from "../support/public-pages";
import { serverBaseUrl } from "../support/server-under-test";
import { studios, telHref } from "../support/studios";

const baseUrl = serverBaseUrl();

describe("studio pages", () => {
  describe.each(studios)("$pagePath", (studio) => {
    it("is complete in the server HTML: title, description, content and the studio's JSON-LD", async () => {
      const { status, html, document } = await fetchPage(studio.pagePath);
      expect(status).toBe(200);
      expect(textOf(document.querySelector("title"))).toBe(`${studio.name} | Studio Photo Exemple`);
      expect(metaContent(document, "description")).toMatch(/Studio./);
      expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
        `${baseUrl}${studio.pagePath}`,
      );
      expect(textOf(document.body)).toContain(studio.address.street);
      const business = structuredData(document).find(
        (item) => item["@type"] === "LocalBusiness",
      ) as { openingHoursSpecification: unknown[] } | undefined;
      expect(business).toMatchObject({
        "@id": `${baseUrl}${studio.pagePath}#studio`,
        telephone: studio.phone,
        address: { streetAddress: studio.address.street, postalCode: studio.address.postalCode },
        branchOf: { "@id": `${baseUrl}/#entreprise` },
      });
      expect(business?.openingHoursSpecification.length).toBeGreaterThan(0);
      // The hero photo is preloaded in the head (React writes `imageSrcSet` in camel case, which the
      // parser's selectors do not match: the raw HTML is read).
      expect(html).toMatch(/<link rel="preload" as="image"[^>]*imageSrcSet="[^"]*studio-/i);
    });

    it("shows address, phone, e-mail, hours and every link the spec asks for", async () => {
      const { document } = await fetchPage(studio.pagePath);
      expect([...document.querySelectorAll("h1")].map(textOf)).toEqual([studio.name]);
      const main = document.querySelector("main");
      expect(main?.textContent).toContain(
        `${studio.address.street}${studio.address.postalCode} ${studio.address.city}`,
      );
      expect(main?.querySelector(`a[href="${telHref(studio.phone)}"]`)?.textContent).toBe(
        studio.phone,
      );
      expect(main?.querySelector(`a[href="mailto:${studio.email}"]`)?.textContent).toBe(
        studio.email,
      );
      const hours = main?.querySelector("dl")?.textContent;
      for (const line of openingLines(studio.hours)) {
        expect(hours).toContain(`${line.days}${line.hours.join("")}`);
      }
      expect(hrefOf(main, "Contacter le studio")).toBe(studio.contactPath);
      expect(hrefOf(main, "Découvrir nos prestations")).toBe("/prestations");
      // The seed's booking and gift-voucher links are placeholders (*.example.com): no link to a site
      // that does not exist until the owner sets the real ones (decision 0126).
      for (const href of [studio.bookingUrl, studio.giftVoucherUrl]) {
        expect(main?.querySelector(`a[href="${href}"]`), href).toBeNull();
      }
      expect(textOf(main)).not.toContain("Offrir un bon cadeau");
    });
  });
});
