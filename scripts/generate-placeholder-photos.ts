// Generates the placeholder photos in app/assets/photos (committed). The business has no photos yet: each
// file stands where a real photo will go, and the owner replaces it by saving a photo under the same name.
// Usage: npm run photos:placeholders -- [name ...]   (no name: every missing photo of the list below)
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const directory = path.resolve(import.meta.dirname, "../app/assets/photos");

/** name → [width, height, palette hue (0-360)] */
export const photos: Record<string, [number, number, number]> = {
  "accueil-hero": [2400, 1600, 28],
  "studio-ussel": [1600, 1067, 20],
  "studio-brive": [1600, 1067, 200],
  "studio-limoges": [1600, 1067, 330],
};

function random(seed: string) {
  let state = createHash("sha256").update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function svg(name: string, width: number, height: number, hue: number): string {
  const next = random(name);
  const circles = Array.from({ length: 18 }, () => {
    const r = (0.03 + next() * 0.12) * width;
    return `<circle cx="${next() * width}" cy="${next() * height}" r="${r}" fill="hsl(${
      hue + next() * 40 - 20
    } 70% ${60 + next() * 30}%)" fill-opacity="${0.12 + next() * 0.3}"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 35% 32%)"/>
      <stop offset="0.55" stop-color="hsl(${hue + 25} 40% 55%)"/>
      <stop offset="1" stop-color="hsl(${hue + 50} 45% 78%)"/>
    </linearGradient>
    <radialGradient id="v" cx="0.5" cy="0.45" r="0.75">
      <stop offset="0.55" stop-color="#000" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.45"/>
    </radialGradient>
    <filter id="b"><feGaussianBlur stdDeviation="${width / 90}"/></filter>
  </defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <g filter="url(#b)">${circles}</g>
  <rect width="100%" height="100%" fill="url(#v)"/>
</svg>`;
}

const requested = process.argv.slice(2);
for (const [name, [width, height, hue]] of Object.entries(photos)) {
  const file = path.join(directory, `${name}.jpg`);
  if (requested.length ? !requested.includes(name) : existsSync(file)) continue;
  await sharp(Buffer.from(svg(name, width, height, hue)))
    .jpeg({ quality: 80, mozjpeg: true })
    .toFile(file);
  console.log(`✓ ${path.relative(process.cwd(), file)}`);
}
