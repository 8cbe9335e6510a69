import { describe, expect, it } from "vitest";
import { fetchPage } from "../support/html";
import { structuredData } from "../support/public-pages";
import { studios } from "../support/studios";

type Specification = { dayOfWeek: string[]; opens: string; closes: string; description?: string };
type Branch = { "@id": string; openingHoursSpecification: Specification[] };

const frenchDay: Record<string, string> = {
  Monday: "lundi",
  Tuesday: "mardi",
  Wednesday: "mercredi",
  Thursday: "jeudi",
  Friday: "vendredi",
  Saturday: "samedi",
  Sunday: "dimanche",
};

/** "09:00" → "9h", "12:30" → "12h30", written here again so the test does not reuse the page's code. */
const frenchTime = (time: string) => time.replace(/^0?(\d+):(\d\d)$/, "$1h$2").replace(/h00$/, "h");

/** The page's hours as the server renders them: one entry per line, days then the texts of that line. */
function shownHours(document: Document) {
  const list = document.querySelector("main dl");
  return [...(list?.children ?? [])]
    .filter((line) => line.nodeName === "DIV")
    .map((line) => ({
      days: line.querySelector("dt")?.textContent ?? "",
      hours: [...line.querySelectorAll("dd")].map((dd) => dd.textContent ?? ""),
    }));
}

describe("one source of opening hours per studio", () => {
  it.each(studios)(
    "$id: the same hours on the studio page and its contact page, the same JSON-LD on the studio page and the home page",
    async (studio) => {
      const home = structuredData((await fetchPage("/")).document).find(
        (item) => item["@type"] === "ProfessionalService",
      );
      const departments = (home?.department ?? []) as Branch[];

      const studioPage = (await fetchPage(studio.pagePath)).document;
      const onStudioPage = shownHours(studioPage);
      const onContactPage = shownHours((await fetchPage(studio.contactPath)).document);
      expect(onStudioPage.length).toBeGreaterThan(0);
      expect(onContactPage, studio.contactPath).toEqual(onStudioPage);

      const branch = structuredData(studioPage).find(
        (item) => item["@type"] === "LocalBusiness",
      ) as Branch | undefined;
      const specifications = branch?.openingHoursSpecification ?? [];
      expect(specifications.length).toBeGreaterThan(0);
      const onHomePage = departments.find((item) => item["@id"] === branch?.["@id"]);
      expect(onHomePage?.openingHoursSpecification, `${studio.id} on /`).toEqual(specifications);

      // Each opening of the structured data is a line of the page: its days and its hours.
      for (const specification of specifications) {
        const first = frenchDay[specification.dayOfWeek[0] ?? ""] ?? "?";
        const last = frenchDay[specification.dayOfWeek.at(-1) ?? ""] ?? "?";
        const range = `${frenchTime(specification.opens)} – ${frenchTime(specification.closes)}`;
        const line = onStudioPage.find(
          (candidate) =>
            candidate.days.toLowerCase().includes(first) &&
            candidate.days.toLowerCase().includes(last),
        );
        expect(line?.hours, `${studio.id} ${specification.dayOfWeek.join(",")}`).toContain(
          specification.description ? `${range} ${specification.description}` : range,
        );
      }
      // Days without an opening are said to be closed, so nobody comes on a Monday for nothing.
      const openDays = new Set(specifications.flatMap((item) => item.dayOfWeek));
      const closedLine = onStudioPage.find((line) => line.hours.includes("Fermé"));
      for (const day of Object.keys(frenchDay).filter((name) => !openDays.has(name))) {
        expect(closedLine?.days.toLowerCase()).toContain(frenchDay[day]);
      }
    },
  );
});
