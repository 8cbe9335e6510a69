import { describe, expect, it } from "vitest";
import { activeEmailList, subscribersCsv } from "./subscribers.server";

const subscriber = (email: string, active: boolean) => ({
  id: email,
  email,
  active,
  subscribedAt: new Date("2025-03-05T10:00:00Z"),
  consentSource: "blog",
});

describe("subscribers", () => {
  it("the copied list holds active addresses only, joined by ', '", () => {
    expect(
      activeEmailList([
        subscriber("a@x.fr", true),
        subscriber("b@x.fr", false),
        subscriber("c@x.fr", true),
      ]),
    ).toBe("a@x.fr, c@x.fr");
    expect(activeEmailList([subscriber("b@x.fr", false)])).toBe("");
  });

  it("the CSV quotes every cell, neutralises spreadsheet formulas and writes French dates in Paris time", () => {
    const csv = subscribersCsv([subscriber("=cmd@x.fr", false)]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toContain('"\'=cmd@x.fr";"05/03/2025 11:00";"désabonné";"blog"');
  });
});
