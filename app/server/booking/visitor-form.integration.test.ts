import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { EVERY_DAY, insertSessionType, studioIds } from "../../../tests/support/booking";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { db } from "../db/client.server";
import { bookings, sessionTypes, users } from "../db/schema";
import { BOOKING_RATE_LIMIT, submitBookingForm } from "./visitor-form.server";
import { offeredSessionType, type OfferedSessionType } from "./visitor.server";

// The booking form's limits (decision 0123): only bookings count against a visitor address, so typos and
// times someone else took never lock a real person out; when a limit refuses someone, the administrators
// are told, at most once an hour.

useAppDatabase({ jobs: true });

let brive = "";
let type: OfferedSessionType;
const adminEmail = `gerante-${randomBytes(3).toString("hex")}@example.test`;

beforeAll(async () => {
  ({ brive } = await studioIds());
  const id = await insertSessionType([brive], { bookableHours: EVERY_DAY, stepMinutes: 60 });
  const [row] = await db()
    .select({ slug: sessionTypes.slug })
    .from(sessionTypes)
    .where(eq(sessionTypes.id, id));
  const slug = row?.slug;
  type = await offeredSessionType(brive, slug, null);
  await db()
    .insert(users)
    .values({
      id: randomBytes(8).toString("hex"),
      name: "Gérante",
      email: adminEmail,
      role: "admin",
    });
});

/** The i-th distinct hour from the day after tomorrow: 12 a day, 08:00 to 19:00 (Paris). */
const slotNumber = (index: number) => {
  const day = addParisDays(isoDayInParis(new Date()), 2 + Math.floor(index / 12));
  return `${day}T${String(8 + (index % 12)).padStart(2, "0")}:00`;
};
let nextSlot = 0;

const post = (slot: string, clientAddress: string, fields: Record<string, string> = {}) => {
  const formData = new FormData();
  const values = {
    name: "Léa Martin",
    email: `lea-${randomBytes(4).toString("hex")}@example.test`,
    phone: "06 12 34 56 78",
    consent: "on",
    site_web: "",
    ...fields,
  };
  for (const [name, value] of Object.entries(values)) formData.set(name, value);
  return submitBookingForm({
    formData,
    studio: { id: brive },
    type,
    slot,
    privateToken: null,
    clientAddress,
  });
};
const statusOf = (answer: Awaited<ReturnType<typeof post>>) =>
  answer instanceof Response ? answer.status : answer.status;

const limitMails = async () =>
  (
    await db().execute<{ count: number }>(sql`
      select count(*)::int as count from pgboss.job
      where name = 'mail' and data->'mail'->>'subject' like '%limite%'`)
  ).rows[0]?.count ?? 0;

describe("the booking form's limits", () => {
  it("never blocks a visitor for typos and times someone else took", async () => {
    const visitor = "203.0.113.10";
    const taken = slotNumber(nextSlot++);
    expect(statusOf(await post(taken, "203.0.113.11"))).toBe(303);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      statuses.push(statusOf(await post(slotNumber(nextSlot), visitor, { email: "lea@" })));
      statuses.push(statusOf(await post(taken, visitor)));
    }
    expect(new Set(statuses)).toEqual(new Set([400, 409]));
    expect(statusOf(await post(slotNumber(nextSlot++), visitor))).toBe(303);
  });

  it("counts the bookings made from one address, and tells the administrators once", async () => {
    const office = "203.0.113.20";
    for (let booking = 0; booking < BOOKING_RATE_LIMIT.limit; booking++) {
      expect(statusOf(await post(slotNumber(nextSlot++), office)), `booking ${booking}`).toBe(303);
    }
    expect(await limitMails()).toBe(0);
    const refused = await post(slotNumber(nextSlot), office);
    expect(statusOf(refused)).toBe(429);
    expect(refused instanceof Response ? "" : refused.answer.message).toBe(
      "Trop de réservations depuis cette connexion : réessayez dans une heure.",
    );
    expect(statusOf(await post(slotNumber(nextSlot), office))).toBe(429);
    expect(await limitMails()).toBe(1);
    // Another visitor is welcome meanwhile.
    expect(statusOf(await post(slotNumber(nextSlot++), "203.0.113.21"))).toBe(303);
  });
});

describe("the bookings to come per e-mail address", () => {
  it("holds 3 under 7 posts at once with one address", async () => {
    const email = `sept-${randomBytes(4).toString("hex")}@example.test`;
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, index) =>
        post(slotNumber(nextSlot++), `203.0.113.${40 + index}`, { email }),
      ),
    );
    const statuses = answers.map(statusOf).sort();
    expect(statuses.filter((status) => status === 303)).toHaveLength(3);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const refused = answers.filter((answer) => !(answer instanceof Response));
    for (const answer of refused) {
      expect(answer instanceof Response ? "" : answer.answer.errors.email).toBe(
        "Au plus 3 réservations à venir par adresse e-mail : appelez le studio pour en prendre une autre.",
      );
    }
  });
});

// The client's name is her invoices' buyer (deposit, balance): an invoice cannot be changed once issued,
// and its fonts print Latin-script names only (decision 0164).
describe("a name the invoice cannot print", () => {
  const bookingsOf = async (email: string) =>
    (await db().select().from(bookings).where(eq(bookings.clientEmail, email))).length;

  it("is refused at its field in French, with everything typed kept and nothing booked", async () => {
    const email = `li-${randomBytes(4).toString("hex")}@example.test`;
    const refused = await post(slotNumber(nextSlot++), "203.0.113.60", { name: "李小龍", email });
    expect(statusOf(refused)).toBe(400);
    if (refused instanceof Response) throw new Error("a redirect, not a refusal");
    expect(refused.answer.errors.name).toBe(
      "Ces caractères ne peuvent pas être imprimés sur la facture : 李 小 龍. Retirez-les ou remplacez-les.",
    );
    expect(refused.answer.values).toMatchObject({
      name: "李小龍",
      email,
      phone: "06 12 34 56 78",
      consent: "on",
    });
    expect(await bookingsOf(email)).toBe(0);
  });

  it.each(["José Muñoz", "Łukasz Wałęsa", "Ștefan Țurcanu"])("books %s", async (name) => {
    const email = `latin-${randomBytes(4).toString("hex")}@example.test`;
    expect(statusOf(await post(slotNumber(nextSlot++), "203.0.113.61", { name, email }))).toBe(303);
    const [stored] = await db().select().from(bookings).where(eq(bookings.clientEmail, email));
    expect(stored?.clientName).toBe(name);
  });
});
