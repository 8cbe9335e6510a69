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
