// Generates the cover images of the demo articles (public/images/demo-blog, committed): soft placeholders
// that stand where the studio's own photos will go, each with the AVIF and WebP variants an uploaded cover
// gets (app/server/images/uploads.server.ts), so that the demo blog weighs what the owner's own will.
// Usage: npx node scripts/generate-demo-blog-images.ts
import path from "node:path";
import sharp from "sharp";
import { VARIANT_WIDTHS, variantUrl } from "../app/lib/image-variants.ts";
import { writePlaceholderImage } from "./lib/placeholder-image.ts";

/** Cover name (as used by app/server/blog/demo-articles.server.ts) → hue of its palette. */
const demoCoverImages: Record<string, number> = {
  naissance: 30,
  ete: 45,
  noel: 0,
  tenues: 200,
  brive: 250,
  grossesse: 330,
  mariage: 15,
  "portrait-pro": 210,
  "fete-des-meres": 340,
  scolaire: 120,
  tendances: 170,
  "fond-noir": 260,
};

const directory = path.resolve(import.meta.dirname, "../public/images/demo-blog");
const WIDTH = 1200;
const HEIGHT = 630;

for (const [name, hue] of Object.entries(demoCoverImages)) {
  const file = path.join(directory, `${name}.jpg`);
  const size = await writePlaceholderImage(file, {
    name,
    width: WIDTH,
    height: HEIGHT,
    hue,
    quality: 78,
  });
  console.log(`✓ ${path.relative(process.cwd(), file)} (${Math.round(size / 1024)} Ko)`);
  for (const width of VARIANT_WIDTHS) {
    const resized = () => sharp(file).resize({ width, withoutEnlargement: true });
    // The upload's settings, so that the demo is no lighter or heavier than the real thing.
    await resized()
      .avif({ quality: 55, effort: 2 })
      .toFile(path.join(directory, path.basename(variantUrl(file, width, "avif"))));
    await resized()
      .webp({ quality: 78 })
      .toFile(path.join(directory, path.basename(variantUrl(file, width, "webp"))));
  }
}
