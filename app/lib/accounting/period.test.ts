import { describe, expect, it } from "vitest";
import { accountingCsv, csvAmount, csvDay } from "./csv";
import { checkPeriod, isCalendarDay, lastMonth } from "./period";

describe("the exports' period", () => {
  it("is the last whole month by default, across a year's end", () => {
    expect(lastMonth("2027-03-15")).toEqual({ from: "2027-02-01", to: "2027-02-28" });
    expect(lastMonth("2027-01-01")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(lastMonth("2028-03-31")).toEqual({ from: "2028-02-01", to: "2028-02-29" });
  });

  it("refuses in French a day that is not one, or an end before the start", () => {
    expect(isCalendarDay("2027-02-30")).toBe(false);
    expect(checkPeriod("2027-02-30", "")).toEqual({
      ok: false,
      errors: {
        du: "Indiquez le premier jour de la période (jj/mm/aaaa).",
        au: "Indiquez le dernier jour de la période (jj/mm/aaaa).",
      },
    });
    expect(checkPeriod("2027-03-01", "2027-02-01")).toEqual({
      ok: false,
      errors: { au: "Le dernier jour doit venir après le premier." },
    });
    expect(checkPeriod("2027-03-01", "2027-03-01")).toEqual({
      ok: true,
      period: { from: "2027-03-01", to: "2027-03-01" },
    });
  });

  it("takes a day typed as its message asks (jj/mm/aaaa), where a browser shows no date picker", () => {
    expect(checkPeriod(" 01/02/2027", "28/02/2027 ")).toEqual({
      ok: true,
      period: { from: "2027-02-01", to: "2027-02-28" },
    });
    expect(checkPeriod("1/2/2027", "28.02.2027")).toEqual({
      ok: true,
      period: { from: "2027-02-01", to: "2027-02-28" },
    });
    expect(checkPeriod("30/02/2027", "01/03/2027").ok).toBe(false);
    expect(checkPeriod("01/03/2027", "01/02/2027")).toEqual({
      ok: false,
      errors: { au: "Le dernier jour doit venir après le premier." },
    });
  });
});

describe("the accountant's CSV", () => {
  it("writes amounts as numbers with a decimal comma, days as dd/mm/yyyy, texts quoted and defused", () => {
    expect([csvAmount(123_450), csvAmount(-3_000), csvAmount(5), csvAmount(0)]).toEqual([
      "1234,50",
      "-30,00",
      "0,05",
      "0,00",
    ]);
    expect(csvDay("2027-01-31")).toBe("31/01/2027");
    expect(accountingCsv(["Client", "Montant"], [['=Zoé; "la"', { cents: -3_000 }]])).toBe(
      '\uFEFF"Client";"Montant"\r\n"\'=Zoé; ""la""";-30,00\r\n',
    );
  });
});
