import { describe, expect, it } from "vitest";
import { activeEmailList, subscribersCsv, type AdminSubscriber } from "./subscribers.server";

const subscriber = (
  email: string,
  status: AdminSubscriber["status"],
  dates: Partial<Pick<AdminSubscriber, "confirmedAt" | "unsubscribedAt">> = {},
): AdminSubscriber => ({
  id: email,
  email,
  status,
  active: status === "active",
  subscribedAt: new Date("2025-03-05T10:00:00Z"),
  consentSource: "blog",
  confirmedAt: null,
  unsubscribedAt: null,
  ...dates,
});

describe("subscribers", () => {
  it("the copied list holds active addresses only, joined by ', '", () => {
    expect(
      activeEmailList([
        subscriber("a@x.fr", "active"),
        subscriber("b@x.fr", "unsubscribed"),
        subscriber("p@x.fr", "pending"),
        subscriber("c@x.fr", "active"),
      ]),
    ).toBe("a@x.fr, c@x.fr");
    expect(activeEmailList([subscriber("b@x.fr", "unsubscribed")])).toBe("");
  });

  it("the CSV quotes every cell, neutralises spreadsheet formulas and writes French dates in Paris time", () => {
    const csv = subscribersCsv([subscriber("=cmd@x.fr", "unsubscribed")]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toContain('"\'=cmd@x.fr";"05/03/2025 11:00";"désabonné";"blog"');
  });

  it("the CSV writes each state in French with its confirmation and unsubscription dates", () => {
    const lines = subscribersCsv([
      subscriber("actif@x.fr", "active", { confirmedAt: new Date("2025-03-06T08:30:00Z") }),
      subscriber("attente@x.fr", "pending"),
      subscriber("parti@x.fr", "unsubscribed", {
        confirmedAt: new Date("2025-03-06T08:30:00Z"),
        unsubscribedAt: new Date("2025-07-01T16:00:00Z"),
      }),
    ])
      .slice(1)
      .split("\r\n");
    expect(lines[0]).toBe(
      '"email";"date_inscription";"statut";"origine";"date_confirmation";"date_desabonnement"',
    );
    expect(lines[1]).toBe('"actif@x.fr";"05/03/2025 11:00";"actif";"blog";"06/03/2025 09:30";""');
    expect(lines[2]).toBe('"attente@x.fr";"05/03/2025 11:00";"en attente";"blog";"";""');
    expect(lines[3]).toBe(
      '"parti@x.fr";"05/03/2025 11:00";"désabonné";"blog";"06/03/2025 09:30";"01/07/2025 18:00"',
    );
  });
});
