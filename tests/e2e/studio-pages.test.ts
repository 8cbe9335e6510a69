import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { studios, telHref } from "../support/studios";
import { openingLines } from "../../app/lib/opening-hours";

const { openPage, baseUrl } = useBrowser();

describe("studio pages", () => {
  for (const studio of studios) {
    describe(studio.pagePath, () => {
      it("is complete in the raw HTML: title, description, content and the studio's JSON-LD", async () => {
        const response = await fetch(`${baseUrl}${studio.pagePath}`);
        expect(response.status).toBe(200);
        const html = await response.text();
        expect(html).toContain(
          `<title>${studio.name.replace("'", "&#x27;")} | Studio Photo Exemple</title>`,
        );
        expect(html).toMatch(/<meta name="description" content="[^"]*Studio[^"]+"/);
        expect(html).toContain(`<link rel="canonical" href="${baseUrl}${studio.pagePath}"`);
        expect(html).toContain(studio.address.street);
        const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
        const business = blocks
          .map((block) => JSON.parse(block[1] ?? "{}"))
          .find((item) => item["@type"] === "LocalBusiness");
        expect(business).toMatchObject({
          "@id": `${baseUrl}${studio.pagePath}#studio`,
          telephone: studio.phone,
          address: { streetAddress: studio.address.street, postalCode: studio.address.postalCode },
          branchOf: { "@id": `${baseUrl}/#entreprise` },
        });
        expect(business.openingHoursSpecification.length).toBeGreaterThan(0);
        // The hero photo is preloaded in the head.
        expect(html).toMatch(/<link rel="preload" as="image"[^>]*imageSrcSet="[^"]*studio-/i);
      });

      it("shows address, phone, e-mail, hours and every link the spec asks for", async () => {
        const page = await openPage(studio.pagePath);
        await expect
          .poll(() => page.getByRole("heading", { level: 1 }).textContent())
          .toBe(studio.name);
        const main = page.locator("main");
        expect(await main.textContent()).toContain(
          `${studio.address.street}${studio.address.postalCode} ${studio.address.city}`,
        );
        expect(await main.locator(`a[href="${telHref(studio.phone)}"]`).textContent()).toBe(
          studio.phone,
        );
        expect(await main.locator(`a[href="mailto:${studio.email}"]`).textContent()).toBe(
          studio.email,
        );
        const hours = await main.locator("dl").first().textContent();
        for (const line of openingLines(studio.hours)) {
          expect(hours).toContain(`${line.days}${line.hours.join("")}`);
        }
        expect(
          await main.getByRole("link", { name: "Contacter le studio" }).getAttribute("href"),
        ).toBe(studio.contactPath);
        expect(
          await main.getByRole("link", { name: "Découvrir nos prestations" }).getAttribute("href"),
        ).toBe("/prestations");
        for (const href of [studio.bookingUrl, studio.giftVoucherUrl]) {
          const links = main.locator(`a[href="${href}"]`);
          expect(await links.count()).toBeGreaterThanOrEqual(1);
          for (const link of await links.all()) {
            expect(await link.getAttribute("target")).toBe("_blank");
            expect(await link.getAttribute("rel")).toContain("noopener");
          }
        }
      });

      it("has no accessibility violation, at 390 px too", async () => {
        const page = await openPage(studio.pagePath, { viewport: { width: 390, height: 844 } });
        expect(await axeViolations(page)).toEqual([]);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      });
    });
  }
});
