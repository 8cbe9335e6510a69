// Generates the placeholder photos in app/assets/photos (committed). The business has no photos yet: each
// file stands where a real photo will go, and the owner replaces it by saving a photo under the same name.
// Usage: npm run photos:placeholders -- [name ...]   (no name: every missing photo of the list below)
import { existsSync } from "node:fs";
import path from "node:path";
import { writePlaceholderImage } from "./lib/placeholder-image.ts";

const directory = path.resolve(import.meta.dirname, "../app/assets/photos");

/** name → [width, height, palette hue (0-360)] */
export const photos: Record<string, [number, number, number]> = {
  "accueil-hero": [2400, 1600, 28],
  "studio-ussel": [1600, 1067, 20],
  "studio-brive": [1600, 1067, 200],
  "studio-limoges": [1600, 1067, 330],
  // Services, prices and gallery pages
  "prestations-hero": [2400, 1600, 10],
  "professionnels-hero": [2400, 1600, 50],
  "gendarmerie-hero": [2400, 1600, 90],
  "scolaire-hero": [2400, 1600, 130],
  "portrait-famille-hero": [2400, 1600, 170],
  "grossesse-hero": [2400, 1600, 210],
  "naissances-hero": [2400, 1600, 250],
  "mariages-hero": [2400, 1600, 290],
  "seances-a-offrir-hero": [2400, 1600, 330],
  "pro-portrait": [1200, 800, 50],
  "pro-reportage": [1200, 800, 79],
  "pro-evenement": [1200, 800, 108],
  "borne-selfie": [1200, 800, 137],
  "gendarmerie-groupe": [1200, 800, 166],
  "gendarmerie-ceremonie": [1200, 800, 195],
  "gendarmerie-gala": [1200, 800, 224],
  "gendarmerie-video": [1200, 800, 253],
  "cadeau-iris": [1200, 800, 282],
  "cadeau-fashion": [1200, 800, 311],
  "cadeau-super-heros": [1200, 800, 340],
  "cadeau-princesse": [1200, 800, 9],
  "scolaire-studio-mobile": [1200, 800, 38],
  "style-portrait-famille-1": [600, 800, 37],
  "style-portrait-famille-2": [600, 800, 74],
  "style-portrait-famille-3": [600, 800, 111],
  "style-portrait-famille-4": [600, 800, 148],
  "style-portrait-famille-5": [600, 800, 185],
  "style-portrait-famille-6": [600, 800, 222],
  "style-portrait-famille-7": [600, 800, 259],
  "style-portrait-famille-8": [600, 800, 296],
  "style-portrait-famille-9": [600, 800, 333],
  "style-grossesse-1": [600, 800, 323],
  "style-grossesse-2": [600, 800, 346],
  "style-grossesse-3": [600, 800, 9],
  "style-grossesse-4": [600, 800, 32],
  "style-grossesse-5": [600, 800, 55],
  "style-grossesse-6": [600, 800, 78],
  "style-grossesse-7": [600, 800, 101],
  "style-grossesse-8": [600, 800, 124],
  "style-naissances-1": [600, 800, 199],
  "style-naissances-2": [600, 800, 218],
  "style-naissances-3": [600, 800, 237],
  "style-naissances-4": [600, 800, 256],
  "style-naissances-5": [600, 800, 275],
  "style-naissances-6": [600, 800, 294],
  "galerie-01": [800, 600, 47],
  "galerie-02": [800, 600, 94],
  "galerie-03": [800, 600, 141],
  "galerie-04": [800, 600, 188],
  "galerie-05": [800, 600, 235],
  "galerie-06": [800, 600, 282],
  "galerie-07": [800, 600, 329],
  "galerie-08": [800, 600, 16],
  "galerie-09": [800, 600, 63],
  "galerie-10": [800, 600, 110],
  "galerie-11": [800, 600, 157],
  "galerie-12": [800, 600, 204],
  "galerie-13": [800, 600, 251],
  "galerie-14": [800, 600, 298],
  "galerie-15": [800, 600, 345],
  "galerie-16": [800, 600, 32],
  "galerie-17": [800, 600, 79],
  "galerie-18": [800, 600, 126],
  "galerie-19": [800, 600, 173],
};

const requested = process.argv.slice(2);
for (const [name, [width, height, hue]] of Object.entries(photos)) {
  const file = path.join(directory, `${name}.jpg`);
  if (requested.length ? !requested.includes(name) : existsSync(file)) continue;
  await writePlaceholderImage(file, { name, width, height, hue });
  console.log(`✓ ${path.relative(process.cwd(), file)}`);
}
