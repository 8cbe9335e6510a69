import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { photoColours } from "./photo-colours";
import { dominantColour } from "../../scripts/lib/photo-colour";

const directory = path.resolve(import.meta.dirname, "../assets/photos");

describe("photo colours", () => {
  it("has the dominant colour of every gallery photo as it is now (else: node scripts/photo-colours.ts)", async () => {
    const names = readdirSync(directory)
      .filter((file) => /^(galerie|style)-.*\.jpg$/.test(file))
      .map((file) => file.replace(/\.jpg$/, ""));
    expect(names.length).toBeGreaterThan(0);
    const actual = Object.fromEntries(
      await Promise.all(
        names.map(async (name) => [
          name,
          await dominantColour(path.join(directory, `${name}.jpg`)),
        ]),
      ),
    );
    expect(photoColours).toEqual(actual);
  });
});
