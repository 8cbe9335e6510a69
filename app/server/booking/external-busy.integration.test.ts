import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { bookingExternalBusy, bookingExternalCalendars } from "../db/schema";
import {
  checkCalendarUrl,
  externalBusyOf,
  importExternalCalendars,
  setExternalCalendar,
  withExternalBusy,
} from "./external-busy.server";
import { insertSessionType, studioIds } from "../../../tests/support/booking";
import { findFreeSlots } from "./availability.server";
import { listPhotographers } from "./photographers.server";

// This file's calendar server is on loopback, which an import refuses unless allowed (decision 0123).
process.env.BOOKING_CALENDAR_ALLOW_PRIVATE = "1";

useAppDatabase();

/** Tuesday 5 January 2027, 09:00 in Paris. */
const NOW = new Date("2027-01-05T08:00:00Z");

/** The owner's own calendar: a meeting, a weekly class, a day off, a cancelled and a « free » event. */
const CALENDAR = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//test//FR",
  "BEGIN:VEVENT",
  "UID:rdv@test",
  "DTSTAMP:20270101T000000Z",
  "DTSTART;TZID=Europe/Paris:20270106T100000",
  "DTEND;TZID=Europe/Paris:20270106T113000",
  "SUMMARY:Dentiste",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:cours@test",
  "DTSTAMP:20270101T000000Z",
  "DTSTART:20270107T170000Z",
  "DTEND:20270107T180000Z",
  "RRULE:FREQ=WEEKLY;COUNT=3",
  "SUMMARY:Cours",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:conges@test",
  "DTSTAMP:20270101T000000Z",
  "DTSTART;VALUE=DATE:20270201",
  "DTEND;VALUE=DATE:20270203",
  "SUMMARY:Congés",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:annule@test",
  "DTSTAMP:20270101T000000Z",
  "DTSTART:20270108T100000Z",
  "DTEND:20270108T110000Z",
  "STATUS:CANCELLED",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:libre@test",
  "DTSTAMP:20270101T000000Z",
  "DTSTART:20270109T100000Z",
  "DTEND:20270109T110000Z",
  "TRANSP:TRANSPARENT",
  "END:VEVENT",
  "END:VCALENDAR",
].join("\r\n");

let server: Server;
let base = "";
let answer = { status: 200, body: CALENDAR };

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(answer.status, { "Content-Type": "text/calendar" });
    if (request.url !== "/sans-fin.ics") {
      response.end(answer.body);
      return;
    }
    // An answer that never ends: 64 KiB at a time for as long as it is read.
    const piece = Buffer.alloc(64 * 1024, "X");
    const more = () => {
      while (response.write(piece));
    };
    response.on("drain", more);
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("the photographers' own calendars", () => {
  it("imports when she is busy, from a server on loopback, and replaces it at each import", async () => {
    const [photographer] = await listPhotographers();
    const id = photographer?.id ?? "";
    await setExternalCalendar(id, `${base}/agenda.ics`);
    expect(await importExternalCalendars({ now: NOW })).toBe(1);

    const busy = await externalBusyOf([id], NOW, new Date("2027-03-01T00:00:00Z"));
    const iso = (busy.get(id) ?? []).map((interval) => [
      new Date(interval.start).toISOString(),
      new Date(interval.end).toISOString(),
    ]);
    expect(iso).toEqual([
      ["2027-01-06T09:00:00.000Z", "2027-01-06T10:30:00.000Z"],
      ["2027-01-07T17:00:00.000Z", "2027-01-07T18:00:00.000Z"],
      ["2027-01-14T17:00:00.000Z", "2027-01-14T18:00:00.000Z"],
      ["2027-01-21T17:00:00.000Z", "2027-01-21T18:00:00.000Z"],
      // Two whole Paris days: 1 and 2 February.
      ["2027-01-31T23:00:00.000Z", "2027-02-02T23:00:00.000Z"],
    ]);

    // What the slot computation gets: her busy times added to those of her bookings.
    const availability = await withExternalBusy(
      { studioBusy: [], photographers: [{ id, busy: [{ start: 0, end: 1 }] }] },
      NOW,
      new Date("2027-01-07T00:00:00Z"),
    );
    expect(availability.photographers[0]?.busy).toHaveLength(2);

    answer = {
      status: 200,
      body: CALENDAR.replace(/BEGIN:VEVENT\r\nUID:cours[\s\S]*?END:VEVENT\r\n/, ""),
    };
    await importExternalCalendars({ now: NOW });
    expect(
      (await externalBusyOf([id], NOW, new Date("2027-03-01T00:00:00Z"))).get(id),
    ).toHaveLength(2);

    // A failure keeps what was imported and says why.
    answer = { status: 404, body: "" };
    await importExternalCalendars({ now: NOW });
    const [calendar] = await db()
      .select()
      .from(bookingExternalCalendars)
      .where(eq(bookingExternalCalendars.photographerId, id));
    expect(calendar?.lastError).toBe("L'agenda a répondu 404.");
    expect(await db().select().from(bookingExternalBusy)).toHaveLength(2);

    await setExternalCalendar(id, null);
    expect(await db().select().from(bookingExternalBusy)).toHaveLength(0);
  });

  it("keeps visitors off the times she is busy elsewhere", async () => {
    answer = { status: 200, body: CALENDAR };
    const [photographer] = await listPhotographers();
    const id = photographer?.id ?? "";
    const { ussel } = await studioIds();
    const sessionTypeId = await insertSessionType([ussel], {
      bookableHours: { Wednesday: [{ opens: "09:00", closes: "13:00" }] },
    });
    const times = async () => {
      const { days } = await findFreeSlots({
        studioId: ussel,
        sessionTypeId,
        fromDay: "2027-01-06",
        toDay: "2027-01-06",
        now: NOW,
      });
      return days.flatMap((day) => day.slots.map((slot) => slot.time));
    };
    expect(await times()).toEqual(["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00"]);
    await setExternalCalendar(id, `${base}/agenda.ics`);
    await importExternalCalendars({ now: NOW });
    // The dentist, 10:00 to 11:30: an hour's session fits before it or after it only.
    expect(await times()).toEqual(["09:00", "11:30", "12:00"]);
    await setExternalCalendar(id, null);
  });

  it("cuts an answer that never ends at 5 MB", async () => {
    answer = { status: 200, body: CALENDAR };
    const [photographer] = await listPhotographers();
    const id = photographer?.id ?? "";
    await setExternalCalendar(id, `${base}/sans-fin.ics`);
    expect(await importExternalCalendars({ now: NOW })).toBe(0);
    const [calendar] = await db()
      .select()
      .from(bookingExternalCalendars)
      .where(eq(bookingExternalCalendars.photographerId, id));
    expect(calendar?.lastError).toBe("L'agenda est trop volumineux (5\u00a0Mo au plus).");
    await setExternalCalendar(id, null);
  });

  it("refuses an address of this machine or a private network unless allowed", async () => {
    answer = { status: 200, body: CALENDAR };
    const [photographer] = await listPhotographers();
    const id = photographer?.id ?? "";
    for (const address of [
      `${base}/agenda.ics`,
      "http://10.1.2.3/agenda.ics",
      "http://[::1]/a.ics",
    ]) {
      await setExternalCalendar(id, address);
      expect(await importExternalCalendars({ now: NOW, allowPrivate: false }), address).toBe(0);
      const [calendar] = await db()
        .select()
        .from(bookingExternalCalendars)
        .where(eq(bookingExternalCalendars.photographerId, id));
      expect(calendar?.lastError, address).toBe(
        "Cette adresse mène à un réseau privé : donnez l'adresse publique de l'agenda.",
      );
    }
    await setExternalCalendar(id, null);
  });

  it("accepts an http(s) or webcal address only", () => {
    expect(checkCalendarUrl("webcal://p01-caldav.icloud.com/published/2/abc")).toEqual({
      ok: true,
      url: "https://p01-caldav.icloud.com/published/2/abc",
    });
    expect(checkCalendarUrl("file:///etc/passwd").ok).toBe(false);
    expect(checkCalendarUrl("mon agenda").ok).toBe(false);
  });
});
