import { describe, expect, it } from "vitest";
import { frenchTime, openingHoursSpecification, openingLines } from "./opening-hours";
import { studioById } from "~/content/studios";

describe("opening hours", () => {
  it("writes times as French visitors read them", () => {
    expect(frenchTime("09:00")).toBe("9h");
    expect(frenchTime("12:30")).toBe("12h30");
    expect(frenchTime("18:00")).toBe("18h");
  });

  it("groups days in a row with the same openings, then names the closed days", () => {
    expect(openingLines(studioById("brive").hours)).toEqual([
      { days: "Du mardi au samedi", hours: ["9h – 12h", "14h – 18h"] },
      { days: "Le lundi et le dimanche", hours: ["Fermé"] },
    ]);
    expect(openingLines(studioById("ussel").hours)).toEqual([
      {
        days: "Du mardi au vendredi",
        hours: ["9h – 12h sans rendez-vous", "14h – 18h sur rendez-vous uniquement"],
      },
      { days: "Le samedi", hours: ["9h – 14h sur rendez-vous uniquement"] },
      { days: "Le lundi et le dimanche", hours: ["Fermé"] },
    ]);
  });

  it("does not join days separated by a closed day", () => {
    const range = { opens: "10:00", closes: "12:00" };
    expect(openingLines({ Monday: [range], Wednesday: [range], Thursday: [range] })).toEqual([
      { days: "Le lundi", hours: ["10h – 12h"] },
      { days: "Le mercredi et le jeudi", hours: ["10h – 12h"] },
      { days: "Le mardi, le vendredi, le samedi et le dimanche", hours: ["Fermé"] },
    ]);
  });

  it("gives search engines the same week, one entry per opening, notes as descriptions", () => {
    expect(openingHoursSpecification(studioById("ussel").hours)).toEqual([
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Tuesday", "Wednesday", "Thursday", "Friday"],
        opens: "09:00",
        closes: "12:00",
        description: "sans rendez-vous",
      },
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Tuesday", "Wednesday", "Thursday", "Friday"],
        opens: "14:00",
        closes: "18:00",
        description: "sur rendez-vous uniquement",
      },
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Saturday"],
        opens: "09:00",
        closes: "14:00",
        description: "sur rendez-vous uniquement",
      },
    ]);
  });
});
