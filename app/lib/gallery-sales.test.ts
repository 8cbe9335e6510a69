import { describe, expect, it } from "vitest";
import { photoRights, photosDue } from "./gallery-sales";

const photos = (favourites: number, total = 10) =>
  Array.from({ length: total }, (_, index) => ({ id: `p${index}`, favourite: index < favourites }));
const terms = { includedPhotos: 3, extraPhotoPriceCents: 500, allPhotosPriceCents: 4000 };

describe("photo rights of a client gallery", () => {
  it("includes every photo when the gallery sells none (the behaviour before sales)", () => {
    const { rights, due } = photoRights({
      terms: { includedPhotos: null, extraPhotoPriceCents: null, allPhotosPriceCents: null },
      photos: photos(0),
      validated: false,
      unlocks: [],
    });
    expect([...rights.values()].every((right) => right === "included")).toBe(true);
    expect(due).toBeNull();
  });

  it("includes the first photos of the validated selection and prices the others", () => {
    const { rights, due } = photoRights({ terms, photos: photos(5), validated: true, unlocks: [] });
    expect(["p0", "p1", "p2"].map((id) => rights.get(id))).toEqual([
      "included",
      "included",
      "included",
    ]);
    expect(rights.get("p3")).toBe("to_buy");
    expect(rights.get("p9")).toBe("to_buy");
    expect(due).toEqual({
      photoIds: ["p3", "p4"],
      allPhotos: false,
      amountCents: 1000,
      creditCents: 0,
      quantity: 2,
      unitPriceCents: 500,
    });
  });

  it("includes nothing and asks nothing before the selection is validated", () => {
    const { rights, due } = photoRights({
      terms,
      photos: photos(5),
      validated: false,
      unlocks: [],
    });
    expect(rights.get("p0")).toBe("to_buy");
    expect(due).toBeNull();
  });

  it("keeps the package of the last validated selection while the owner has reopened it", () => {
    // She had chosen p0–p7 and paid p3–p7; reopened, she has dropped p1 and chosen p9 so far.
    const chosen = new Set(["p0", "p2", "p3", "p4", "p5", "p6", "p7", "p9"]);
    const { rights, due } = photoRights({
      terms,
      photos: photos(0).map((photo) => ({ ...photo, favourite: chosen.has(photo.id) })),
      validated: false,
      unlocks: ["p3", "p4", "p5", "p6", "p7"].map((photoId) => ({ photoId, source: "bought" })),
      keptIncluded: ["p0", "p1", "p2"],
    });
    expect(["p0", "p1", "p2"].map((id) => rights.get(id))).toEqual([
      "included",
      "included",
      "included",
    ]);
    expect(rights.get("p3")).toBe("bought");
    expect(["p8", "p9"].map((id) => rights.get(id))).toEqual(["to_buy", "to_buy"]);
    expect(due).toBeNull();
  });

  it("asks the price of every photo when it is cheaper than the extras", () => {
    const { due } = photoRights({ terms, photos: photos(12, 12), validated: true, unlocks: [] });
    expect(due).toMatchObject({ allPhotos: true, amountCents: 4000, quantity: 1 });
  });

  it("counts bought and offered photos outside the package", () => {
    const { rights, due } = photoRights({
      terms,
      photos: photos(6),
      validated: true,
      unlocks: [
        { photoId: "p0", source: "offered" },
        { photoId: "p4", source: "bought" },
        { photoId: "p4", source: "offered" },
      ],
    });
    expect(rights.get("p0")).toBe("offered");
    expect(rights.get("p4")).toBe("bought");
    expect(["p1", "p2", "p3"].map((id) => rights.get(id))).toEqual([
      "included",
      "included",
      "included",
    ]);
    expect(due?.photoIds).toEqual(["p5"]);
  });

  it("unlocks every photo but her package once « toutes les photos » is bought or offered", () => {
    for (const source of ["bought", "offered"] as const) {
      const { rights, due } = photoRights({
        terms,
        photos: photos(5),
        validated: true,
        unlocks: [{ photoId: null, source }],
      });
      // Her package, paid by her session, stays « Incluse ».
      expect(["p0", "p1", "p2"].map((id) => rights.get(id))).toEqual([
        "included",
        "included",
        "included",
      ]);
      expect(["p3", "p4", "p9"].map((id) => rights.get(id))).toEqual([source, source, source]);
      expect(due).toBeNull();
    }
  });

  it("never asks more in all than « toutes les photos »: its price less what she already paid", () => {
    // 25 € paid for 5 extras; reopened, she adds the last 2 photos: 10 € at the unit, 5 € left of 30 €.
    const { due } = photoRights({
      terms: { ...terms, allPhotosPriceCents: 3000 },
      photos: photos(10),
      validated: true,
      unlocks: ["p3", "p4", "p5", "p6", "p7"].map((photoId) => ({ photoId, source: "bought" })),
      paidCents: 2500,
    });
    expect(due).toEqual({
      photoIds: ["p8", "p9"],
      allPhotos: true,
      amountCents: 500,
      creditCents: 2500,
      quantity: 1,
      unitPriceCents: 500,
    });
    // Cheaper at the unit still: the unit price, nothing taken off.
    expect(photosDue({ ...terms, allPhotosPriceCents: 3000 }, ["p8"], 1000)).toMatchObject({
      allPhotos: false,
      amountCents: 500,
      creditCents: 0,
    });
  });

  it("gives every photo once she paid as much as « toutes les photos » (its price lowered since)", () => {
    const { rights, due } = photoRights({
      terms: { ...terms, allPhotosPriceCents: 2000 },
      photos: photos(10),
      validated: true,
      unlocks: ["p3", "p4", "p5", "p6", "p7"].map((photoId) => ({ photoId, source: "bought" })),
      paidCents: 2500,
    });
    expect(["p0", "p3", "p8", "p9"].map((id) => rights.get(id))).toEqual([
      "included",
      "bought",
      "bought",
      "bought",
    ]);
    expect(due).toBeNull();
  });

  it("keeps every photo paid as much as « toutes les photos » once part of it is refunded (a gesture)", () => {
    const { rights, due } = photoRights({
      terms: { ...terms, allPhotosPriceCents: 2000 },
      photos: photos(10),
      validated: true,
      unlocks: ["p3", "p4", "p5", "p6", "p7"].map((photoId) => ({ photoId, source: "bought" })),
      paidCents: 1500,
      paidBeforePartialRefundsCents: 2500,
    });
    expect(["p8", "p9"].map((id) => rights.get(id))).toEqual(["bought", "bought"]);
    expect(due).toBeNull();
  });

  it("gives every photo at the price of « toutes les photos » when the extras cost the same", () => {
    // 9 chosen, 3 included: 6 extras × 5 € = 30 € = « toutes les photos ».
    const { due } = photoRights({
      terms: { ...terms, allPhotosPriceCents: 3000 },
      photos: photos(9),
      validated: true,
      unlocks: [],
    });
    expect(due).toMatchObject({ allPhotos: true, amountCents: 3000, quantity: 1 });
  });

  it("sells no single photo without a unit price, only all of them", () => {
    expect(
      photosDue({ includedPhotos: 0, extraPhotoPriceCents: null, allPhotosPriceCents: 3000 }, [
        "a",
      ]),
    ).toMatchObject({ allPhotos: true, amountCents: 3000 });
    expect(
      photosDue({ includedPhotos: 0, extraPhotoPriceCents: null, allPhotosPriceCents: null }, [
        "a",
      ]),
    ).toBeNull();
  });
});
