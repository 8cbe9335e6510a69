import { describe, expect, it } from "vitest";
import { erasedSentences } from "./backups";

describe("what a restore erases, in the owner's words", () => {
  it("counts what was made since the backup, singular for one, nothing said of none", () => {
    expect(
      erasedSentences({ bookings: 3, galleries: 1, messages: 0, subscribers: 2, clients: [] }),
    ).toEqual([
      "3 réservations faites depuis disparaîtront",
      "1 galerie client créée depuis disparaîtra",
      "2 abonnés inscrits depuis disparaîtront",
    ]);
    expect(
      erasedSentences({ bookings: 0, galleries: 0, messages: 0, subscribers: 0, clients: [] }),
    ).toEqual([]);
  });
});
