import { describe, expect, it } from "vitest";
import { demoPhotos } from "./demo-photos";
import { demoPhotoFacts } from "../../scripts/lib/photo-colour";

describe("demo photos", () => {
  it("has the size and dominant colour of every demo photo as it is now (else: node scripts/demo-photos.ts)", async () => {
    const actual = await demoPhotoFacts();
    expect(Object.keys(actual).length).toBeGreaterThan(60);
    expect(demoPhotos).toEqual(actual);
  });
});
