import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  client,
  insertPhotographer,
  insertSessionType,
  setPhotographerActive,
  studioIds,
  type SeededStudioIds,
} from "../../../tests/support/booking";
import { SLOT_REFUSAL_MESSAGES } from "~/lib/booking/slots";
import { db } from "../db/client.server";
import { bookings } from "../db/schema";
import { findFreeSlots } from "./availability.server";
import {
  acceptRequest,
  blockPeriod,
  cancelBooking,
  createBooking,
  declineRequest,
  findBooking,
  findBookingByManageToken,
  markBookingOutcome,
  moveBooking,
  unblockPeriod,
  type NewBooking,
} from "./bookings.server";
import { listPhotographers } from "./photographers.server";
import { BookingRefusedError, SlotTakenError } from "./refusals.server";

useAppDatabase({ jobs: true });

/** Monday 4 January 2027, 09:00 in Paris. */
const NOW = new Date("2027-01-04T08:00:00Z");
const HOUR = 3_600_000;
const owner = { actor: "owner", userId: null, name: "Sophie" } as const;

let studio: SeededStudioIds = { ussel: "", brive: "", limoges: "" };
let ownerPhotographer = "";
let portrait = "";

beforeAll(async () => {
  studio = await studioIds();
  const [first] = await listPhotographers();
  ownerPhotographer = first?.id ?? "";
  portrait = await insertSessionType([studio.brive, studio.ussel]);
});

const book = (slot: string, overrides: Partial<NewBooking> = {}) =>
  createBooking({
    studioId: studio.brive,
    sessionTypeId: portrait,
    slot,
    client,
    consentAt: NOW,
    now: NOW,
    ...overrides,
  });

/** The keys of the free slots of one day. */
async function freeKeys(day: string, studioId = studio.brive, sessionTypeId = portrait, now = NOW) {
  const { days } = await findFreeSlots({ studioId, sessionTypeId, fromDay: day, toDay: day, now });
  return days.flatMap((each) => each.slots.map((slot) => slot.key));
}

async function occupancyCount(bookingId: string): Promise<number> {
  const result = await db().execute<{ count: number }>(
    sql`select count(*)::int as count from booking_occupancies where booking_id = ${bookingId}::uuid and real`,
  );
  return result.rows[0]?.count ?? 0;
}

describe("the owner's photographer", () => {
  it("is made on a new database, covering the three studios, with first travel estimates", async () => {
    const people = await listPhotographers();
    expect(people).toHaveLength(1);
    expect(people[0]?.name).toBe("Photographe");
    expect(new Set(people[0]?.studioIds)).toEqual(
      new Set([studio.ussel, studio.brive, studio.limoges]),
    );
    const travel = await db().execute<{ count: number }>(
      sql`select count(*)::int as count from travel_times`,
    );
    expect(travel.rows[0]?.count).toBe(3);
  });
});

describe("createBooking", () => {
  it("books a free slot, confirmed, its manage token returned once and stored hashed", async () => {
    const made = await book("2027-01-05T10:00");
    expect(made.state).toBe("confirmed");
    expect(made.startsAt.toISOString()).toBe("2027-01-05T09:00:00.000Z");
    expect(made.endsAt.toISOString()).toBe("2027-01-05T10:00:00.000Z");
    expect(made.photographerId).toBe(ownerPhotographer);
    expect(made.manageToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [stored] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    expect(stored?.manageTokenHash).toBe(
      createHash("sha256").update(made.manageToken).digest("hex"),
    );
    expect((await findBookingByManageToken(made.manageToken))?.id).toBe(made.id);
    // Another token of the same shape (one character changed: the last is one of 16, so never « A » again).
    const other = `${made.manageToken.slice(0, 42)}${made.manageToken.endsWith("A") ? "E" : "A"}`;
    expect(await findBookingByManageToken(other)).toBeNull();
    expect(await findBookingByManageToken("../../etc/passwd")).toBeNull();

    const keys = await freeKeys("2027-01-05");
    expect(keys).not.toContain("2027-01-05T10:00");
    expect(keys).not.toContain("2027-01-05T09:30");
    expect(keys).toContain("2027-01-05T09:00");
    expect(keys).toContain("2027-01-05T11:00");
    expect((await findBooking(made.id))?.events.map((event) => event.kind)).toEqual(["booked"]);
  });

  it.each([
    ["2027-01-02T10:00", "past"],
    ["2027-01-05T10:10", "off_step"],
    ["2027-01-05T11:30", "off_step"], // would end at 12:30, after the morning's closing
    ["2027-01-11T10:00", "closed"], // Brive is closed on Mondays
    ["2027-02-30T10:00", "invalid"],
    ["mardi 10h", "invalid"],
  ])("refuses %s in French (%s)", async (slot, code) => {
    const refusal = book(slot);
    await expect(refusal).rejects.toBeInstanceOf(BookingRefusedError);
    await expect(refusal).rejects.toMatchObject({
      code,
      status: 400,
      message: SLOT_REFUSAL_MESSAGES[code as keyof typeof SLOT_REFUSAL_MESSAGES],
    });
  });

  it("refuses too little notice, beyond the horizon, a closure and a time the spring change skips", async () => {
    const strict = await insertSessionType([studio.brive], {
      minimumNoticeHours: 48,
      horizonDays: 30,
      // Sunday nights too, to reach the clock change (the studio is closed on Sundays).
      bookableHours: { Sunday: [{ opens: "01:00", closes: "05:00" }] },
    });
    const with_ = (slot: string, now = NOW) => book(slot, { sessionTypeId: strict, now });
    await expect(with_("2027-01-05T10:00")).rejects.toMatchObject({ code: "notice" });
    await expect(with_("2027-02-09T10:00")).rejects.toMatchObject({ code: "horizon" });
    await expect(with_("2027-03-28T02:30", new Date("2027-03-20T12:00:00Z"))).rejects.toMatchObject(
      { code: "clock_gap" },
    );
    const { days } = await findFreeSlots({
      studioId: studio.brive,
      sessionTypeId: strict,
      fromDay: "2027-03-28",
      toDay: "2027-03-28",
      now: new Date("2027-03-20T12:00:00Z"),
    });
    expect(days[0]?.slots.map((slot) => slot.time)).toEqual([
      "01:00",
      "01:30",
      "03:00",
      "03:30",
      "04:00",
    ]);
  });

  it("refuses forged studios and session types with a 404", async () => {
    await expect(book("2027-01-06T10:00", { studioId: "brive" })).rejects.toMatchObject({
      code: "unknown_studio",
      status: 404,
    });
    await expect(
      book("2027-01-06T10:00", { studioId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "unknown_studio" });
    await expect(
      book("2027-01-06T10:00", { sessionTypeId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "unknown_session_type", status: 404 });
    // Offered at Brive and Ussel, not at Limoges.
    await expect(book("2027-01-06T10:00", { studioId: studio.limoges })).rejects.toMatchObject({
      code: "unknown_session_type",
    });
  });

  it("books a private session type only with its link's secret", async () => {
    const secret = "lien-prive-0123456789abcdef";
    const hidden = await insertSessionType([studio.brive], {
      visibility: "private",
      privateToken: secret,
    });
    await expect(book("2027-01-06T10:00", { sessionTypeId: hidden })).rejects.toMatchObject({
      code: "unknown_session_type",
    });
    await expect(
      book("2027-01-06T10:00", { sessionTypeId: hidden, privateToken: "lien-prive-devine" }),
    ).rejects.toMatchObject({ code: "unknown_session_type" });
    const made = await book("2027-01-06T10:00", { sessionTypeId: hidden, privateToken: secret });
    expect(made.state).toBe("confirmed");
  });

  it("names each field to correct: e-mail, consent, a required answer, a choice not offered", async () => {
    const asking = await insertSessionType([studio.brive], {
      questions: [
        { id: "enfant", kind: "text", label: "Prénom de l'enfant", required: true, options: [] },
        { id: "fond", kind: "choice", label: "Fond", required: false, options: ["Blanc", "Noir"] },
        { id: "animal", kind: "yes_no", label: "Avec un animal ?", required: false, options: [] },
      ],
    });
    const refusal = book("2027-01-06T14:00", {
      sessionTypeId: asking,
      client: { ...client, email: "pas-une-adresse" },
      consentAt: null,
      answers: { fond: "Rouge" },
    });
    await expect(refusal).rejects.toMatchObject({
      code: "invalid_details",
      status: 400,
      fieldErrors: {
        email: "Veuillez indiquer une adresse e-mail valide.",
        consent: "Veuillez accepter les conditions de réservation.",
        "answers.enfant": "Veuillez répondre à cette question.",
        "answers.fond": "Choisissez l'une des réponses proposées.",
      },
    });
    const made = await book("2027-01-06T14:00", {
      sessionTypeId: asking,
      answers: { enfant: " Jules ", fond: "Noir", animal: true, inconnue: "ignorée" },
    });
    const stored = await findBooking(made.id);
    expect(stored?.booking.answers).toEqual({ enfant: "Jules", fond: "Noir", animal: "oui" });
  });

  it("makes exactly one of 50 simultaneous bookings of one slot; the 49 others are told it was taken", async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        book("2027-01-07T15:00", { client: { ...client, email: `client${index}@example.test` } }),
      ),
    );
    const made = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === "rejected" ? [outcome.reason as unknown] : [],
    );
    expect(made).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(SlotTakenError);
      expect((reason as SlotTakenError).message).toBe("Ce créneau vient d'être réservé.");
      expect((reason as SlotTakenError).status).toBe(409);
    }
    const rows = await db().execute<{ count: number }>(
      sql`select count(*)::int as count from bookings where starts_at = '2027-01-07T14:00Z'`,
    );
    expect(rows.rows[0]?.count).toBe(1);
    // How long the race takes is the bench's (« réservations »), not a test's.
  });

  it("keeps the photographer's travel time between studios", async () => {
    // The owner's photographer at Brive on Tuesday 19 January 10:00–11:00; Ussel is 75 minutes away.
    await book("2027-01-19T10:00");
    const ussel = await freeKeys("2027-01-19", studio.ussel);
    expect(ussel.filter((key) => key < "2027-01-19T12:00")).toEqual([]);
    expect(ussel).toContain("2027-01-19T14:00");
    await expect(book("2027-01-19T11:00", { studioId: studio.ussel })).rejects.toBeInstanceOf(
      SlotTakenError,
    );
  });

  it("gives the slot to another photographer of the studio when the first is elsewhere", async () => {
    const bruno = await insertPhotographer("Bruno", [studio.ussel]);
    try {
      await book("2027-01-12T10:00");
      const atUssel = await book("2027-01-12T10:00", { studioId: studio.ussel });
      expect(atUssel.photographerId).toBe(bruno);
      // Both photographers busy at that hour: Ussel's next free start follows Bruno's session.
      expect(await freeKeys("2027-01-12", studio.ussel)).not.toContain("2027-01-12T10:30");
    } finally {
      await setPhotographerActive(bruno, false);
    }
  });

  it("lets the owner book outside the hours by phone, never over another booking", async () => {
    const evening = await book("2027-01-05T19:30", { by: owner, consentAt: null });
    expect(evening.state).toBe("confirmed");
    await expect(book("2027-01-05T10:30", { by: owner, consentAt: null })).rejects.toBeInstanceOf(
      SlotTakenError,
    );
  });

  it("refuses a name its invoices could not print, the owner's phone bookings too", async () => {
    const before = await db().select({ id: bookings.id }).from(bookings);
    for (const by of [undefined, owner]) {
      const refusal = book("2027-01-06T16:00", {
        client: { ...client, name: "Léa 李" },
        ...(by ? { by, consentAt: null } : {}),
      });
      await expect(refusal).rejects.toBeInstanceOf(BookingRefusedError);
      await expect(refusal).rejects.toMatchObject({
        code: "invalid_details",
        fieldErrors: {
          name: "Ces caractères ne peuvent pas être imprimés sur la facture : 李. Retirez-les ou remplacez-les.",
        },
      });
    }
    expect(await db().select({ id: bookings.id }).from(bookings)).toHaveLength(before.length);
  });
});

describe("requests", () => {
  let asked = "";
  beforeAll(async () => {
    asked = await insertSessionType([studio.brive], { mode: "request", responseDeadlineHours: 24 });
  });
  const request = (slot: string, now = NOW) => book(slot, { sessionTypeId: asked, now });
  const later = new Date(NOW.getTime() + 25 * HOUR);

  it("never has its answer deadline in the night: asked at 22 h, answered by 8 h two mornings later (decision 0125)", async () => {
    // Monday 4 January 2027 at 22 h in Paris: 24 h later is Tuesday 22 h, moved to Wednesday 8 h.
    const made = await request("2027-02-16T10:00", new Date("2027-01-04T21:00:00Z"));
    expect(made.respondBy?.toISOString()).toBe("2027-01-06T07:00:00.000Z");
  });

  it("holds its slot until the owner answers, then is confirmed", async () => {
    const made = await request("2027-02-02T10:00");
    expect(made.state).toBe("pending");
    expect(made.respondBy?.toISOString()).toBe("2027-01-05T08:00:00.000Z");
    await expect(request("2027-02-02T10:30")).rejects.toBeInstanceOf(SlotTakenError);
    await acceptRequest(made.id, owner, NOW);
    const stored = await findBooking(made.id);
    expect(stored?.booking.state).toBe("confirmed");
    expect(stored?.events.map((event) => [event.kind, event.actor])).toEqual([
      ["requested", "client"],
      ["accepted", "owner"],
    ]);
    await expect(acceptRequest(made.id, owner, NOW)).rejects.toMatchObject({ code: "not_pending" });
  });

  it("frees its slot when declined", async () => {
    const made = await request("2027-02-03T10:00");
    await declineRequest(made.id, owner, { message: "Je suis en mariage ce jour-là.", now: NOW });
    expect(await occupancyCount(made.id)).toBe(0);
    const stored = await findBooking(made.id);
    expect(stored?.booking.state).toBe("declined");
    expect(stored?.events.at(-1)?.detail).toEqual({ message: "Je suis en mariage ce jour-là." });
    expect((await book("2027-02-03T10:00")).state).toBe("confirmed");
  });

  it("of two overlapping requests (the first past its deadline), only one can be accepted", async () => {
    const first = await request("2027-02-04T10:00");
    // A day later the first request has let its slot go: a second visitor asks for 10:30.
    expect(await freeKeys("2027-02-04", studio.brive, asked, later)).toContain("2027-02-04T10:30");
    const second = await request("2027-02-04T10:30", later);
    await expect(acceptRequest(first.id, owner, later)).rejects.toBeInstanceOf(SlotTakenError);
    expect((await findBooking(first.id))?.booking.state).toBe("pending");
    await acceptRequest(second.id, owner, later);
    expect((await findBooking(second.id))?.booking.state).toBe("confirmed");
  });

  it("cannot be accepted over a booking the owner took by phone after its deadline", async () => {
    const asking = await request("2027-02-05T14:00");
    await book("2027-02-05T14:00", { by: owner, consentAt: null, now: later });
    await expect(acceptRequest(asking.id, owner, later)).rejects.toBeInstanceOf(SlotTakenError);
  });

  it("takes its time back when accepted late if nobody took it", async () => {
    const late = await request("2027-02-06T10:00");
    await acceptRequest(late.id, owner, later);
    expect(await occupancyCount(late.id)).toBe(1);
    expect(await freeKeys("2027-02-06", studio.brive, asked, later)).not.toContain(
      "2027-02-06T10:00",
    );
  });
});

describe("moves, cancellations and outcomes", () => {
  it("moves a booking to an overlapping time: the same booking, SEQUENCE + 1, its time replaced", async () => {
    const made = await book("2027-01-26T10:00");
    const moved = await moveBooking(
      made.id,
      { slot: "2027-01-26T10:30" },
      { actor: "client" },
      NOW,
    );
    expect(moved.icsSequence).toBe(1);
    expect(moved.startsAt.toISOString()).toBe("2027-01-26T09:30:00.000Z");
    expect(await occupancyCount(made.id)).toBe(1);
    const keys = await freeKeys("2027-01-26");
    expect(keys).toContain("2027-01-26T09:00");
    expect(keys).not.toContain("2027-01-26T10:00");
    const event = (await findBooking(made.id))?.events.at(-1);
    expect(event?.kind).toBe("moved");
    expect(event?.detail).toEqual({
      from: "2027-01-26T09:00:00.000Z",
      to: "2027-01-26T09:30:00.000Z",
    });
  });

  it("leaves a booking untouched when its new time is taken", async () => {
    const mine = await book("2027-01-27T10:00");
    await book("2027-01-27T14:00");
    await expect(
      moveBooking(mine.id, { slot: "2027-01-27T14:30" }, { actor: "client" }, NOW),
    ).rejects.toBeInstanceOf(SlotTakenError);
    await expect(
      moveBooking(mine.id, { slot: "2027-01-27T14:30" }, owner, NOW),
    ).rejects.toBeInstanceOf(SlotTakenError);
    const stored = await findBooking(mine.id);
    expect(stored?.booking.startsAt.toISOString()).toBe("2027-01-27T09:00:00.000Z");
    expect(stored?.booking.icsSequence).toBe(0);
    expect(await occupancyCount(mine.id)).toBe(1);
  });

  it("lets the client cancel until the cut-off, the owner after it; the slot is free again", async () => {
    const made = await book("2027-01-28T10:00");
    const tooLate = new Date(made.startsAt.getTime() - 10 * HOUR);
    await expect(
      cancelBooking(made.id, { actor: "client" }, { now: tooLate }),
    ).rejects.toMatchObject({ code: "cutoff", status: 400 });
    await expect(
      moveBooking(made.id, { slot: "2027-01-28T11:00" }, { actor: "client" }, tooLate),
    ).rejects.toMatchObject({ code: "cutoff" });
    const { icsSequence } = await cancelBooking(made.id, owner, {
      message: "Le studio est fermé pour travaux.",
      now: tooLate,
    });
    expect(icsSequence).toBe(1);
    expect(await occupancyCount(made.id)).toBe(0);
    expect((await book("2027-01-28T10:00")).state).toBe("confirmed");
    await expect(cancelBooking(made.id, owner)).rejects.toMatchObject({
      code: "not_active",
      status: 409,
    });
  });

  it("marks a session done or the client absent, keeping its time", async () => {
    const made = await book("2027-01-29T10:00");
    await markBookingOutcome(made.id, "no_show", owner, NOW);
    expect((await findBooking(made.id))?.booking.state).toBe("no_show");
    expect(await occupancyCount(made.id)).toBe(1);
    await expect(cancelBooking("not-an-id", owner)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("blocked periods", () => {
  it("takes a photographer's days off out of every studio she covers, until given back", async () => {
    const holiday = await blockPeriod({
      studioId: null,
      photographerId: ownerPhotographer,
      start: new Date("2027-02-09T23:00:00Z"),
      end: new Date("2027-02-10T23:00:00Z"),
      label: "Congés",
    });
    expect(await freeKeys("2027-02-10")).toEqual([]);
    expect(await freeKeys("2027-02-10", studio.ussel)).toEqual([]);
    expect(await unblockPeriod(holiday)).toBe(true);
    expect((await freeKeys("2027-02-10")).length).toBeGreaterThan(0);
  });

  it("closes one studio only, and refuses time a booking already holds", async () => {
    await blockPeriod({
      studioId: studio.brive,
      photographerId: null,
      start: new Date("2027-02-11T08:00:00Z"),
      end: new Date("2027-02-11T17:00:00Z"),
      label: "Travaux",
    });
    expect(await freeKeys("2027-02-11")).toEqual([]);
    expect((await freeKeys("2027-02-11", studio.ussel)).length).toBeGreaterThan(0);
    await book("2027-02-12T10:00");
    await expect(
      blockPeriod({
        studioId: null,
        photographerId: ownerPhotographer,
        start: new Date("2027-02-12T08:00:00Z"),
        end: new Date("2027-02-12T12:00:00Z"),
        label: "Séance en extérieur",
      }),
    ).rejects.toMatchObject({ code: "period_taken", status: 409 });
    await expect(
      blockPeriod({
        studioId: studio.brive,
        photographerId: null,
        start: new Date("2027-02-13T12:00:00Z"),
        end: new Date("2027-02-13T08:00:00Z"),
        label: "À l'envers",
      }),
    ).rejects.toMatchObject({ code: "invalid_period" });
  });
});
