import { readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

/** The dominant colour of a photo as #rrggbb (sharp's histogram estimate), shown while the photo loads. */
export async function dominantColour(file: string): Promise<string> {
  const { dominant } = await sharp(file).stats();
  return `#${[dominant.r, dominant.g, dominant.b].map((value) => value.toString(16).padStart(2, "0")).join("")}`;
}

export const DEMO_PHOTOS_DIRECTORY = path.resolve(import.meta.dirname, "../../app/assets/photos");

/** Size and dominant colour of every demo photo, by name (file name without `.jpg`), sorted by name. */
export async function demoPhotoFacts(
  directory = DEMO_PHOTOS_DIRECTORY,
): Promise<Record<string, { width: number; height: number; colour: string }>> {
  const names = readdirSync(directory)
    .filter((file) => file.endsWith(".jpg"))
    .map((file) => file.replace(/\.jpg$/, ""))
    .sort();
  const entries = await Promise.all(
    names.map(async (name) => {
      const file = path.join(directory, `${name}.jpg`);
      const { width, height } = await sharp(file).metadata();
      return [name, { width, height, colour: await dominantColour(file) }] as const;
    }),
  );
  return Object.fromEntries(entries);
}
