import { describe, expect, it } from "vitest";
import {
  closureText,
  frenchTime,
  openingHoursSpecification,
  openingLines,
  specialOpeningHoursSpecification,
  upcomingClosures,
} from "./opening-hours";
import { seedStudios } from "~/content/seed";
import { parisToday } from "./dates";

/** The seeded week of a studio of the specification. */
function hoursOf(slug: string) {
  const studio = seedStudios.find((candidate) => candidate.slug === slug);
  if (!studio) throw new Error(`no seeded studio ${slug}`);
  return studio.data.hours;
}

describe("opening hours", () => {
  it("writes times as French visitors read them", () => {
    expect(frenchTime("09:00")).toBe("9h");
    expect(frenchTime("12:30")).toBe("12h30");
    expect(frenchTime("18:00")).toBe("18h");
  });

  it("groups days in a row with the same openings, then names the closed days", () => {
    expect(openingLines(hoursOf("brive"))).toEqual([
      { days: "Du mardi au samedi", hours: ["9h – 12h", "14h – 18h"] },
      { days: "Le lundi et le dimanche", hours: ["Fermé"] },
    ]);
    expect(openingLines(hoursOf("ussel"))).toEqual([
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
    expect(openingHoursSpecification(hoursOf("ussel"))).toEqual([
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

describe("dated closures", () => {
  const holidays = { from: "2026-12-24", to: "2027-01-02", label: "congés" };
  const mayDay = { from: "2027-05-01", to: "2027-05-01", label: "fête du Travail" };
  const past = { from: "2026-08-01", to: "2026-08-15", label: "" };

  it("writes a closure as a visitor reads it", () => {
    expect(closureText(holidays)).toBe(
      "Fermeture exceptionnelle du 24 décembre au 2 janvier : congés",
    );
    expect(closureText(mayDay)).toBe("Fermeture exceptionnelle le 1er mai : fête du Travail");
    expect(closureText(past)).toBe("Fermeture exceptionnelle du 1er août au 15 août");
  });

  it("keeps the closures under way or to come, in date order", () => {
    expect(upcomingClosures([mayDay, past, holidays], "2026-12-01")).toEqual([holidays, mayDay]);
    // The last day of a closure is still a closed day.
    expect(upcomingClosures([holidays], "2027-01-02")).toEqual([holidays]);
    expect(upcomingClosures([holidays], "2027-01-03")).toEqual([]);
  });

  it("tells today's date in Paris, not in UTC", () => {
    expect(parisToday(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
    expect(parisToday(new Date("2026-07-01T21:59:00Z"))).toBe("2026-07-01");
  });

  it("gives search engines each closure as closed days", () => {
    expect(specialOpeningHoursSpecification([holidays])).toEqual([
      {
        "@type": "OpeningHoursSpecification",
        validFrom: "2026-12-24",
        validThrough: "2027-01-02",
        opens: "00:00",
        closes: "00:00",
        description: "congés",
      },
    ]);
  });
});
