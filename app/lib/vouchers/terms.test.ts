import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  addCalendarMonths,
  DEFAULT_VOUCHER_VALIDITY_MONTHS,
  formatCalendarDayFr,
  isFrenchPublicHoliday,
  isVoucherExpired,
  isWithinWithdrawalPeriod,
  VOUCHER_WITHDRAWAL_DAYS,
  voucherCoverLine,
  voucherExpiryDay,
  voucherTerms,
  voucherTermsLine,
  voucherValidityLine,
  withdrawalLastDay,
} from "./terms";

describe("addCalendarMonths", () => {
  it("keeps the day of the month", () => {
    expect(addCalendarMonths("2026-11-29", 12)).toBe("2027-11-29");
    expect(addCalendarMonths("2026-11-29", 2)).toBe("2027-01-29");
    expect(addCalendarMonths("2026-01-15", 0)).toBe("2026-01-15");
    expect(addCalendarMonths("2026-03-31", 36)).toBe("2029-03-31");
  });

  it("takes the last day of the month when it has no such day", () => {
    expect(addCalendarMonths("2028-02-29", 12)).toBe("2029-02-28");
    expect(addCalendarMonths("2028-02-29", 48)).toBe("2032-02-29");
    expect(addCalendarMonths("2027-01-31", 1)).toBe("2027-02-28");
    expect(addCalendarMonths("2028-01-31", 1)).toBe("2028-02-29");
    expect(addCalendarMonths("2026-08-31", 1)).toBe("2026-09-30");
  });

  it("refuses what is no day or no number of months", () => {
    expect(() => addCalendarMonths("29/02/2028", 12)).toThrow(RangeError);
    expect(() => addCalendarMonths("2028-02-29", -1)).toThrow(RangeError);
    expect(() => addCalendarMonths("2028-02-29", 1.5)).toThrow(RangeError);
  });
});

describe("voucherExpiryDay", () => {
  it("is 12 months after the day of issue in Paris, by default", () => {
    expect(DEFAULT_VOUCHER_VALIDITY_MONTHS).toBe(12);
    expect(voucherExpiryDay(new Date("2026-11-29T10:00:00Z"))).toBe("2027-11-29");
    expect(voucherExpiryDay(new Date("2026-11-29T10:00:00Z"), 6)).toBe("2027-05-29");
  });

  it("counts the Paris day of issue, not UTC's", () => {
    // 00:30 on 29 February 2028 in Paris is still 28 February in UTC.
    expect(voucherExpiryDay(new Date("2028-02-28T23:30:00Z"))).toBe("2029-02-28");
    // 23:30 on 31 December 2026 in UTC is already 1 January 2027 in Paris.
    expect(voucherExpiryDay(new Date("2026-12-31T23:30:00Z"))).toBe("2028-01-01");
  });

  it("counts from the delivery day the buyer chose when it is later than the payment", () => {
    // Paid 7 December 2026, sent on 27 November 2027: 12 months from the day it reaches its recipient.
    const paid = new Date("2026-12-07T09:00:00Z");
    expect(voucherExpiryDay(paid, 12, "2027-11-27")).toBe("2028-11-27");
    // 6 months from a delivery on 3 October 2027: never expired before it is sent.
    expect(voucherExpiryDay(paid, 6, "2027-10-03")).toBe("2028-04-03");
    // A delivery day already past when paid (a late transfer) counts from the payment.
    expect(voucherExpiryDay(paid, 12, "2026-12-01")).toBe("2027-12-07");
    expect(voucherExpiryDay(paid, 12, null)).toBe("2027-12-07");
  });

  it("from 29 February is 28 February of the next year", () => {
    expect(voucherExpiryDay(new Date("2028-02-29T12:00:00Z"))).toBe("2029-02-28");
  });
});

describe("isVoucherExpired", () => {
  it("keeps a voucher usable through its last day, Paris time", () => {
    expect(isVoucherExpired("2027-11-29", new Date("2027-11-29T22:59:00Z"))).toBe(false); // 23:59 Paris
    expect(isVoucherExpired("2027-11-29", new Date("2027-11-29T23:00:00Z"))).toBe(true); // midnight Paris
    expect(isVoucherExpired("2027-07-14", new Date("2027-07-14T21:59:00Z"))).toBe(false); // 23:59 summer time
    expect(isVoucherExpired("2027-07-14", new Date("2027-07-14T22:00:00Z"))).toBe(true);
  });
});

describe("withdrawal", () => {
  it("lasts 14 days after the day of the order", () => {
    expect(VOUCHER_WITHDRAWAL_DAYS).toBe(14);
    // Ordered on Wednesday 2 December 2026: the 16th is a Wednesday.
    expect(withdrawalLastDay(new Date("2026-12-02T15:00:00Z"))).toBe("2026-12-16");
  });

  it("ends on the next working day after a week-end or a public holiday", () => {
    // Sunday 13 December 2026 → Monday 14.
    expect(withdrawalLastDay(new Date("2026-11-29T10:00:00Z"))).toBe("2026-12-14");
    // Friday 25 December 2026 (Christmas) → Saturday, Sunday → Monday 28.
    expect(withdrawalLastDay(new Date("2026-12-11T10:00:00Z"))).toBe("2026-12-28");
    // Easter Monday 2027 is 29 March: ordered on the 15th → Tuesday 30 March.
    expect(withdrawalLastDay(new Date("2027-03-15T10:00:00Z"))).toBe("2027-03-30");
  });

  it("is open through its last day in Paris", () => {
    const orderedAt = new Date("2026-12-02T15:00:00Z");
    expect(isWithinWithdrawalPeriod(orderedAt, new Date("2026-12-16T22:59:00Z"))).toBe(true);
    expect(isWithinWithdrawalPeriod(orderedAt, new Date("2026-12-16T23:00:00Z"))).toBe(false);
  });
});

describe("isFrenchPublicHoliday", () => {
  it("knows the fixed and the moving holidays", () => {
    const holidays2027 = [
      "2027-01-01",
      "2027-03-29", // Easter Monday
      "2027-05-01",
      "2027-05-06", // Ascension
      "2027-05-08",
      "2027-05-17", // Whit Monday
      "2027-07-14",
      "2027-08-15",
      "2027-11-01",
      "2027-11-11",
      "2027-12-25",
    ];
    let day = "2027-01-01";
    const found: string[] = [];
    while (day < "2028-01-01") {
      if (isFrenchPublicHoliday(day)) found.push(day);
      day = addCalendarDays(day, 1);
    }
    expect(found).toEqual(holidays2027);
    expect(isFrenchPublicHoliday("2026-04-06")).toBe(true); // Easter Monday 2026
    expect(isFrenchPublicHoliday("2028-04-17")).toBe(true); // Easter Monday 2028
  });
});

describe("the words of a voucher", () => {
  it("write its last day as French does", () => {
    expect(voucherValidityLine("2027-11-29")).toBe("Valable jusqu'au 29 novembre 2027");
    expect(formatCalendarDayFr("2028-03-01")).toBe("1er mars 2028");
    expect(formatCalendarDayFr("2027-08-15")).toBe("15 août 2027");
  });

  it("say what it gives", () => {
    expect(
      voucherCoverLine({
        kind: "session",
        sessionName: "Séance portrait en studio",
        studioName: "studio de Brive",
      }),
    ).toBe("Séance portrait en studio, studio de Brive");
    expect(
      voucherCoverLine({ kind: "session", sessionName: "Séance famille", studioName: null }),
    ).toBe("Séance famille, dans le studio de votre choix");
    expect(voucherCoverLine({ kind: "amount", cents: 15_000 })).toBe("Valable pour 150\u00a0€");
    expect(voucherCoverLine({ kind: "amount", cents: 7_550 })).toBe("Valable pour 75,50\u00a0€");
  });

  it("state every condition before ordering", () => {
    for (const kind of ["session", "amount"] as const) {
      const text = voucherTerms({ kind }).join("\n");
      expect(text).toContain(
        "valable 12 mois à partir de l'achat, ou du jour d'envoi choisi s'il est plus tard",
      );
      expect(text).toContain("prolonger");
      expect(text).toContain("transmis à une autre personne");
      expect(text).toContain("ni échangeable ni remboursable en espèces");
      expect(text).toContain("14 jours");
      expect(text).toContain("Tant que le bon n'a pas servi");
    }
    expect(voucherTerms({ kind: "amount" }).join("\n")).toContain("en une ou plusieurs fois");
    expect(voucherTerms({ kind: "session" }).join("\n")).not.toContain("plusieurs fois");
    expect(voucherTerms({ kind: "session", validityMonths: 18 }).join("\n")).toContain(
      "valable 18 mois",
    );
  });

  it("sum them up in one line for the PDF", () => {
    expect(voucherTermsLine("amount")).toContain(
      "utilisable en plusieurs fois jusqu'à épuisement du montant",
    );
    expect(voucherTermsLine("session")).not.toContain("plusieurs fois");
    for (const kind of ["session", "amount"] as const) {
      expect(voucherTermsLine(kind)).toMatch(
        /^Bon cessible, ni échangeable ni remboursable en espèces/,
      );
    }
  });
});
