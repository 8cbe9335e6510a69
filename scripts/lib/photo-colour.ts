import sharp from "sharp";

/** The dominant colour of a photo as #rrggbb (sharp's histogram estimate), shown while the photo loads. */
export async function dominantColour(file: string): Promise<string> {
  const { dominant } = await sharp(file).stats();
  return `#${[dominant.r, dominant.g, dominant.b].map((value) => value.toString(16).padStart(2, "0")).join("")}`;
}
