// Generates the cover images of the demo articles (public/images/demo-blog, committed): soft placeholders
// that stand where the studio's own photos will go. Usage: npx node scripts/generate-demo-blog-images.ts
import path from "node:path";
import { writePlaceholderImage } from "./lib/placeholder-image.ts";

/** Cover name (as used by app/server/seed.server.ts) → hue of its palette. */
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
}
