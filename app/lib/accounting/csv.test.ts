import { describe, expect, it } from "vitest";
import { csvParisDateTime } from "./csv";

// « Encaissements »'s « Date et heure (Paris) » (decision 0182): what a French spreadsheet reads as a date
// and time, and never the same words for two instants an hour apart.

describe("csvParisDateTime", () => {
  it("writes Paris's wall clock, in winter and in summer", () => {
    expect(csvParisDateTime(new Date("2027-01-15T13:05:00Z"))).toBe("15/01/2027 14:05");
    expect(csvParisDateTime(new Date("2027-07-15T13:05:00Z"))).toBe("15/07/2027 15:05");
    // The night of the spring change: 01:59 then 03:00, nothing is repeated.
    expect(csvParisDateTime(new Date("2027-03-28T00:59:00Z"))).toBe("28/03/2027 01:59");
    expect(csvParisDateTime(new Date("2027-03-28T01:00:00Z"))).toBe("28/03/2027 03:00");
  });

  it("tells apart the two 02:30 of the autumn change's night by their offset from UTC", () => {
    const summer = csvParisDateTime(new Date("2027-10-31T00:30:00Z"));
    const winter = csvParisDateTime(new Date("2027-10-31T01:30:00Z"));
    expect(summer).toBe("31/10/2027 02:30 (UTC+2)");
    expect(winter).toBe("31/10/2027 02:30 (UTC+1)");
    // The hours around it are not repeated: no offset.
    expect(csvParisDateTime(new Date("2027-10-30T23:59:00Z"))).toBe("31/10/2027 01:59");
    expect(csvParisDateTime(new Date("2027-10-31T02:00:00Z"))).toBe("31/10/2027 03:00");
    expect(csvParisDateTime(new Date("2027-10-31T00:00:00Z"))).toBe("31/10/2027 02:00 (UTC+2)");
    expect(csvParisDateTime(new Date("2027-10-31T01:59:00Z"))).toBe("31/10/2027 02:59 (UTC+1)");
  });
});
