import { describe, expect, it } from "vitest";
import { formatDayHours, parseDayHours, parseWeekHours } from "./hours-input";

describe("parseDayHours", () => {
  it.each([
    [
      "9h–12h, 14h–18h",
      [
        { opens: "09:00", closes: "12:00" },
        { opens: "14:00", closes: "18:00" },
      ],
    ],
    ["9h30-18h", [{ opens: "09:30", closes: "18:00" }]],
    ["9 h – 12 h 30", [{ opens: "09:00", closes: "12:30" }]],
    [
      "09:00 - 12:00 ; 14:00 — 19:00",
      [
        { opens: "09:00", closes: "12:00" },
        { opens: "14:00", closes: "19:00" },
      ],
    ],
    ["10h à 17h", [{ opens: "10:00", closes: "17:00" }]],
    [
      "14h-18h, 9h-12h",
      [
        { opens: "09:00", closes: "12:00" },
        { opens: "14:00", closes: "18:00" },
      ],
    ],
  ])("reads « %s »", (input, ranges) => {
    expect(parseDayHours("Monday", input)).toEqual({ ok: true, ranges });
  });

  it("reads a note per range in parentheses, commas inside included", () => {
    expect(
      parseDayHours("Tuesday", "9h–12h (sans rendez-vous), 14h–18h (sur rendez-vous, uniquement)"),
    ).toEqual({
      ok: true,
      ranges: [
        { opens: "09:00", closes: "12:00", note: "sans rendez-vous" },
        { opens: "14:00", closes: "18:00", note: "sur rendez-vous, uniquement" },
      ],
    });
  });

  it.each(["", "   ", "fermé", "Fermé", "FERMÉ", "fermée"])("reads « %s » as closed", (input) => {
    expect(parseDayHours("Sunday", input)).toEqual({ ok: true, ranges: [] });
  });

  it.each([
    ["18h–9h", "Samedi : l'heure de fermeture doit suivre l'heure d'ouverture"],
    ["12h–12h", "Samedi : l'heure de fermeture doit suivre l'heure d'ouverture"],
    ["9h–12h, 11h–18h", "Samedi : deux plages horaires se chevauchent"],
    ["9h–25h", "Samedi : « 25h » n'est pas une heure : 25h n'existe pas"],
    ["9h75–12h", "Samedi : « 9h75 » n'est pas une heure : 75 minutes, c'est trop"],
    ["matin", "Samedi : « matin » n'est pas une plage horaire (exemple : 9h–12h, 14h–18h)"],
    ["9h–midi", "Samedi : « midi » n'est pas une heure (exemple : 9h30)"],
    ["9h–12h (sans rendez-vous", "Samedi : une parenthèse n'est pas fermée"],
    ["8h-9h, 10h-11h, 12h-13h, 14h-15h, 16h-17h", "Samedi : 4 plages horaires au plus"],
  ])("refuses « %s » with a French message naming the day", (input, error) => {
    expect(parseDayHours("Saturday", input)).toEqual({ ok: false, error });
  });
});

describe("formatDayHours", () => {
  it("writes stored ranges in the notation the parser reads", () => {
    const ranges = [
      { opens: "09:00", closes: "12:00", note: "sans rendez-vous" },
      { opens: "14:00", closes: "18:30" },
    ];
    const text = formatDayHours(ranges);
    expect(text).toBe("9h–12h (sans rendez-vous), 14h–18h30");
    expect(parseDayHours("Friday", text)).toEqual({ ok: true, ranges });
  });

  it("writes a closed day as an empty line", () => {
    expect(formatDayHours(undefined)).toBe("");
    expect(formatDayHours([])).toBe("");
  });
});

describe("parseWeekHours", () => {
  it("keeps the open days only, and reports each wrong day", () => {
    expect(parseWeekHours({ Monday: "fermé", Saturday: "9h–13h" })).toEqual({
      ok: true,
      hours: { Saturday: [{ opens: "09:00", closes: "13:00" }] },
    });
    expect(parseWeekHours({ Monday: "12h–9h", Friday: "9h-18h", Sunday: "x-y" })).toEqual({
      ok: false,
      errors: {
        Monday: "Lundi : l'heure de fermeture doit suivre l'heure d'ouverture",
        Sunday: "Dimanche : « x » n'est pas une heure (exemple : 9h30)",
      },
    });
  });
});
