import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { db } from "../db/client.server";
import {
  cancelBooking,
  createBooking,
  MAX_CLIENT_MOVES_PER_DAY,
  moveBooking,
} from "./bookings.server";
import { BookingRefusedError } from "./refusals.server";

// A booking made with someone else's address must not flood her mailbox (decision 0123): a client moves one
// booking at most 3 times a day, then calls the studio; an address not yet confirmed gets at most 4 e-mails
// a day from the client's own actions; one the owner knows gets every e-mail.

useAppDatabase({ jobs: true });

const owner = { actor: "owner", userId: null, name: "Sophie" } as const;
const client = { actor: "client" } as const;

let brive = "";
let typeId = "";
/** A distinct hour from 2 days on (12 a day). */
const nextSlot = distinctSlots(2);

beforeAll(async () => {
  ({ brive } = await studioIds());
  typeId = await insertSessionType([brive], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    cancellationCutoffHours: 0,
  });
});

const book = (email: string, by: typeof client | typeof owner = client) =>
  createBooking({
    studioId: brive,
    sessionTypeId: typeId,
    slot: nextSlot(),
    client: { name: "Léa Martin", email, phone: "06 12 34 56 78" },
    consentAt: new Date(),
    by,
  });

const clientMails = async (bookingId: string) =>
  (
    await db().execute<{ count: number }>(sql`
      select count(*)::int as count from pgboss.job
      where name = 'mail' and data->>'kind' = 'booking-client' and data->>'bookingId' = ${bookingId}`)
  ).rows[0]?.count ?? 0;

const uniqueEmail = () => `victime-${randomBytes(4).toString("hex")}@example.test`;

describe("a client's moves and the e-mails they send", () => {
  it("lets a client move one booking 3 times a day, then says to call the studio", async () => {
    const { id } = await book(uniqueEmail());
    for (let move = 0; move < MAX_CLIENT_MOVES_PER_DAY; move++) {
      await moveBooking(id, { slot: nextSlot() }, client);
    }
    const refused = await moveBooking(id, { slot: nextSlot() }, client).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(BookingRefusedError);
    expect((refused as BookingRefusedError).message).toBe(
      "Cette séance a déjà été déplacée 3 fois aujourd'hui : appelez le studio pour la déplacer de nouveau.",
    );
    // The owner still can.
    await moveBooking(id, { slot: nextSlot() }, owner);
  });

  it("sends at most 4 e-mails a day to an address not yet confirmed, and says when it sent none", async () => {
    const { id } = await book(uniqueEmail());
    const moves = [];
    for (let move = 0; move < 3; move++)
      moves.push(await moveBooking(id, { slot: nextSlot() }, client));
    expect(moves.map((moved) => moved.mailed)).toEqual([true, true, true]);
    const cancelled = await cancelBooking(id, client);
    expect(cancelled.mailed).toBe(false);
    expect(await clientMails(id)).toBe(4);
  });

  it("sends every e-mail to an address the owner knows", async () => {
    const email = uniqueEmail();
    await book(email, owner);
    const { id } = await book(email);
    for (let move = 0; move < 3; move++) await moveBooking(id, { slot: nextSlot() }, client);
    expect((await cancelBooking(id, client)).mailed).toBe(true);
    expect(await clientMails(id)).toBe(5);
  });
});
