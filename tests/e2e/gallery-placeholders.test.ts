import { describe, expect, it } from "vitest";
import { useBrowser } from "./support/browser";
import { demoPhotos } from "../../app/content/demo-photos";
import { DEMO_PREFIX, seedDocuments } from "../../app/content/seed";

const { openPage } = useBrowser();

/** The dominant colour of a seeded demo photo (« demo:galerie-01 »), which its media row carries. */
function seedColour(photo: string): string {
  const colour = demoPhotos[photo.slice(DEMO_PREFIX.length)]?.colour;
  if (!colour) throw new Error(`Pas de couleur pour ${photo}`);
  return colour;
}

/** "#58a858" → "rgb(88, 168, 88)", as getComputedStyle writes it. */
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16)).join(", ")})`;

describe("gallery cards while their photos load", () => {
  for (const [path, colours, ratio] of [
    ["/galerie", seedDocuments.gallery.items.map((item) => seedColour(item.photo)), 3 / 4],
    [
      "/portrait-famille",
      seedDocuments.pagePhotos.galleries["portrait-famille"].map((image) =>
        seedColour(image.photo),
      ),
      4 / 3,
    ],
  ] as const) {
    it(`${path}: each card shows its photo's colour, at the photo's final size`, async () => {
      const page = await openPage(path, { viewport: { width: 390, height: 844 } });
      // Photos never arrive: what the visitor sees is the placeholder.
      await page.route(/\/assets\/.*(galerie|style)-.*\.(avif|webp|jpe?g)$/, () => undefined);
      await page.reload();
      const pictures = page.locator("main picture").filter({
        has: page.locator('img[src*="galerie-"], img[src*="style-"]'),
      });
      await expect.poll(() => pictures.count()).toBe(colours.length);
      const shown = await pictures.evaluateAll((elements) =>
        elements.map((picture) => {
          const box = picture.getBoundingClientRect();
          const image = picture.querySelector("img");
          return {
            background: getComputedStyle(picture.parentElement as Element).backgroundColor,
            ratio: box.height / box.width,
            loaded: image?.complete === true && (image?.naturalWidth ?? 0) > 0,
          };
        }),
      );
      expect(shown.map((card) => card.background)).toEqual(colours.map(rgb));
      for (const card of shown) {
        expect(card.loaded).toBe(false);
        expect(card.ratio).toBeCloseTo(ratio, 2);
      }
    });
  }
});
