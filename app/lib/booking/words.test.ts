import { describe, expect, it } from "vitest";
import { clockFr, durationFr } from "./agenda-format";
import {
  durationLabelFr,
  instantLabelFr,
  sessionOfTypeFr,
  slotLabelFr,
  timeLabelFr,
} from "./words";

const NBSP = "\u00A0";

describe("booking's words", () => {
  it("write times as « 14 h 30 » and « 9 h », with non-breaking spaces, on the visitor's and the owner's side", () => {
    for (const write of [timeLabelFr, clockFr]) {
      expect(write("14:30")).toBe(`14${NBSP}h${NBSP}30`);
      expect(write("09:00")).toBe(`9${NBSP}h`);
      expect(write("03:54")).toBe(`3${NBSP}h${NBSP}54`);
    }
    expect(slotLabelFr("2026-12-03T10:00")).toBe(`jeudi 3 décembre à 10${NBSP}h`);
    expect(instantLabelFr(new Date("2026-12-01T13:30:00Z"))).toBe(
      `mardi 1er décembre 2026 à 14${NBSP}h${NBSP}30`,
    );
  });

  it("write durations as « 1 h », « 1 h 30 », « 45 min », with non-breaking spaces", () => {
    for (const write of [durationLabelFr, durationFr]) {
      expect(write(60)).toBe(`1${NBSP}h`);
      expect(write(90)).toBe(`1${NBSP}h${NBSP}30`);
      expect(write(45)).toBe(`45${NBSP}min`);
    }
  });

  it("name a session type once: « une séance nouveau-né », never « une séance « Séance nouveau-né » »", () => {
    expect(sessionOfTypeFr("Séance nouveau-né")).toBe("séance nouveau-né");
    expect(sessionOfTypeFr("séance  Famille")).toBe("séance Famille");
    expect(sessionOfTypeFr("Portrait en studio")).toBe("séance « Portrait en studio »");
  });
});
