import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NextFreeTimes } from "./booking-layout";

const slot = (key: string) => ({ key, time: key.slice(11, 16) });

describe("NextFreeTimes", () => {
  it("shows the times of her own day as a day's times, with no heading", () => {
    const html = renderToStaticMarkup(
      <NextFreeTimes
        slots={[slot("2026-12-03T10:00"), slot("2026-12-03T11:00")]}
        chosenDay="2026-12-03"
        headingLevel={4}
        buttonName="creneau"
      />,
    );
    expect(html).not.toContain("<h4");
    expect(html).toContain('aria-label="jeudi 3 décembre à 10\u00A0h, disponible"');
  });

  it("puts the times of other days under their day's heading, at the level asked", () => {
    const html = renderToStaticMarkup(
      <NextFreeTimes
        slots={[slot("2026-11-30T17:00"), slot("2026-12-01T09:00"), slot("2026-12-01T10:00")]}
        chosenDay="2026-11-30"
        headingLevel={3}
        buttonName="creneau"
      />,
    );
    const headings = [...html.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((match) => match[1]);
    expect(headings).toEqual(["lundi 30 novembre 2026", "mardi 1er décembre 2026"]);
    const [, secondDay = ""] = html.split("mardi 1er décembre 2026</h3>");
    expect(secondDay.match(/<button/g)).toHaveLength(2);
    expect(secondDay).toContain('aria-label="mardi 1er décembre à 9\u00A0h, disponible"');
  });
});
