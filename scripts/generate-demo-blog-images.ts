// Generates the cover images of the demo articles (public/images/demo-blog, committed): soft placeholders
// that stand where the studio's own photos will go. Usage: npx node scripts/generate-demo-blog-images.ts
import { createHash } from "node:crypto";
import path from "node:path";
import sharp from "sharp";

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

function random(seed: string) {
  let state = createHash("sha256").update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function svg(name: string, hue: number): string {
  const next = random(name);
  const circles = Array.from({ length: 14 }, () => {
    const r = (0.04 + next() * 0.14) * WIDTH;
    return `<circle cx="${next() * WIDTH}" cy="${next() * HEIGHT}" r="${r}" fill="hsl(${
      hue + next() * 40 - 20
    } 65% ${60 + next() * 30}%)" fill-opacity="${0.15 + next() * 0.3}"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 35% 30%)"/>
      <stop offset="0.6" stop-color="hsl(${hue + 25} 40% 55%)"/>
      <stop offset="1" stop-color="hsl(${hue + 50} 45% 80%)"/>
    </linearGradient>
    <filter id="b"><feGaussianBlur stdDeviation="${WIDTH / 60}"/></filter>
  </defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <g filter="url(#b)">${circles}</g>
</svg>`;
}

for (const [name, hue] of Object.entries(demoCoverImages)) {
  const file = path.join(directory, `${name}.jpg`);
  const info = await sharp(Buffer.from(svg(name, hue)))
    .jpeg({ quality: 78, mozjpeg: true })
    .toFile(file);
  console.log(`✓ ${path.relative(process.cwd(), file)} (${Math.round(info.size / 1024)} Ko)`);
}
