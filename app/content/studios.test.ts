import { describe, expect, it } from "vitest";
import { studioById, studios, telHref } from "./studios";

describe("studios", () => {
  it("has the three studios of SPEC with their addresses", () => {
    expect(studios.map((studio) => studio.id)).toEqual(["ussel", "brive", "limoges"]);
    expect(studioById("ussel").address).toEqual({
      street: "19 rue du 4 Septembre",
      postalCode: "19200",
      city: "Ussel",
    });
    expect(studioById("limoges").address.city).toBe("Ambazac");
  });

  it("uses phone numbers of the range reserved for fiction until the real ones are set", () => {
    for (const studio of studios) expect(studio.phone).toMatch(/^05 36 49 \d\d \d\d$/);
  });

  it("turns a French phone number into an international tel: link", () => {
    expect(telHref("05 36 49 10 01")).toBe("tel:+33536491001");
  });
});

describe("studio hours", () => {
  it("has one week per studio: closed on Monday, ranges in order that do not overlap", () => {
    for (const studio of studios) {
      expect(studio.hours.Monday ?? []).toEqual([]);
      for (const ranges of Object.values(studio.hours)) {
        const times = ranges.flatMap((range) => [range.opens, range.closes]);
        for (const time of times) expect(time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect([...times].sort()).toEqual(times);
      }
    }
  });
});
