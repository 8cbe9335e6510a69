// The placeholder pictures that stand where the studio's own photos will go: a soft gradient with blurred
// light spots, deterministic for a given name, so regenerating gives the same image.
import { createHash } from "node:crypto";
import sharp from "sharp";

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

/** Writes the placeholder for `name` as a JPEG and returns its size in bytes. */
export async function writePlaceholderImage(
  file: string,
  {
    name,
    width,
    height,
    hue,
    quality = 80,
  }: { name: string; width: number; height: number; hue: number; quality?: number },
): Promise<number> {
  const info = await sharp(Buffer.from(svg(name, width, height, hue)))
    .jpeg({ quality, mozjpeg: true })
    .toFile(file);
  return info.size;
}
