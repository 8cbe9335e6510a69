import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DepositRule } from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { EVERY_DAY, insertSessionType, studioIds } from "../../../tests/support/booking";
import { lockWaiters, useAppDatabase } from "../../../tests/support/database";
import { memoryCardProvider } from "../../../tests/support/payments";
import { completeLegal } from "../../../tests/support/seller";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { bookings, orderLines, orders, sessionTypes } from "../db/schema";
import { acceptRequest, createBooking, moveBooking } from "./bookings.server";
import { clientBookingEmail } from "./emails.server";
import { createDepositOrder, requestAcceptedDeposit } from "./deposits.server";

// A booking whose deposit is still awaited, moved (decision 0186): moved sooner than the deadline she was
// given, the deadline becomes the new start and the « moved » e-mail says it again with how to pay; moved
// once its window closed (before the sweep expires it), the move is refused; moved while its order is
// being made, the order names the new time and studio whichever commits first.

useAppDatabase({ jobs: true });
const card = memoryCardProvider();

// A 96-hour transfer window: booked 6 days ahead, the deadline is 4 days from now.
const RULE: DepositRule = {
  amount: "fixed",
  value: 3_000,
  priceCents: null,
  nature: "arrhes",
  methods: ["card", "transfer"],
  transferHours: 96,
  refundAtOnce: false,
};

let brive = "";
let ussel = "";
let depositType = "";
let requestType = "";

beforeAll(async () => {
  card.install();
  provideSiteOrderKinds();
  await saveDocument("legal", completeLegal, { id: "", name: "Camille" }, "test");
  ({ brive, ussel } = await studioIds());
  depositType = await insertSessionType([brive, ussel], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    cancellationCutoffHours: 24,
    deposit: RULE,
  });
  requestType = await insertSessionType([brive, ussel], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    mode: "request",
    responseDeadlineHours: 24,
    deposit: RULE,
  });
});
afterAll(() => card.uninstall());

describe("a booking whose deposit is awaited, moved by its client", () => {
  it("sooner than her transfer's deadline: the « moved » e-mail gives the new deadline and how to pay", async () => {
    const today = isoDayInParis(new Date());
    const made = await createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today, 6)}T10:00`,
      client: { name: "Léa Martin", email: "lea-probe@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "transfer",
    });
    expect(made.state).toBe("awaiting_payment");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "transfer" });
    const told = await clientBookingEmail({ bookingId: made.id, event: "awaiting_transfer" });
    const [before] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    const oldDeadline = before?.respondBy ?? new Date(0);
    // What the transfer e-mail told her: pay before the old deadline.
    expect(told?.text).toContain(`avant le ${instantLabelFr(oldDeadline)}`);

    // She moves it to the day after tomorrow, before that deadline.
    const moved = await moveBooking(
      made.id,
      { slot: `${addParisDays(today, 2)}T10:00` },
      { actor: "client" },
    );
    const [after] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    // The product did shorten her deadline (booking and order) to the new start...
    expect(after?.respondBy).toEqual(moved.startsAt);
    expect(order?.payBy).toEqual(moved.startsAt);
    expect(moved.startsAt.getTime()).toBeLessThan(oldDeadline.getTime());

    // ...so the « moved » e-mail says by when the transfer is now due, to whom and where to pay.
    const mail = await clientBookingEmail({ bookingId: made.id, event: "moved" });
    const deadline = instantLabelFr(after?.respondBy ?? new Date(0));
    expect(mail?.text).toContain(
      `Votre paiement est toujours attendu : réglez-le avant le ${deadline} pour confirmer votre séance ; sans paiement dans ce délai, le créneau est libéré.`,
    );
    expect(mail?.text).toContain(`Faites un virement de 30\u00a0€ avant le ${deadline} :`);
    expect(mail?.text).toContain(`Référence à indiquer : ${order?.transferReference}`);
    expect(mail?.text).toMatch(/Pour payer, et l'état de votre paiement : \S+\/commande\/[\w-]+/);
  });

  it("is refused once its payment window closed, before the sweep expired it: nothing is held for it any more", async () => {
    const today = isoDayInParis(new Date());
    const made = await createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today, 7)}T11:00`,
      client: { name: "Léa Martin", email: "lea-probe-lapsed@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "card",
    });
    expect(made.state).toBe("awaiting_payment");
    await createDepositOrder({ bookingId: made.id, method: "card" });
    // 40 minutes later her 35-minute hold is over; the 5-minute expiry job has not passed yet.
    const later = new Date(Date.now() + 40 * 60_000);
    await expect(
      moveBooking(made.id, { slot: `${addParisDays(today, 7)}T15:00` }, { actor: "client" }, later),
    ).rejects.toMatchObject({
      code: "hold_lapsed",
      message:
        "Le délai de cette réservation est passé : son créneau n'est plus gardé. Réservez de nouveau, ou appelez le studio.",
    });
    const [kept] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    expect(kept?.startsAt).toEqual(made.startsAt);
  });
});

describe("a move racing the making of its deposit's order", () => {
  const owner = { actor: "owner", userId: null, name: "Sophie" } as const;

  /** The booking's deposit order as it stands: its line, the time it snapshots, its studio, its deadline. */
  async function depositOrderOf(bookingId: string) {
    const [booking] = await db().select().from(bookings).where(eq(bookings.id, bookingId));
    const [order] = await db()
      .select()
      .from(orders)
      .where(eq(orders.id, booking?.depositOrderId ?? ""));
    const lines = await db()
      .select({ label: orderLines.label })
      .from(orderLines)
      .where(eq(orderLines.orderId, order?.id ?? ""))
      .orderBy(asc(orderLines.position));
    const [type] = await db()
      .select({ name: sessionTypes.name })
      .from(sessionTypes)
      .where(eq(sessionTypes.id, booking?.sessionTypeId ?? ""));
    return {
      order: {
        lines: lines.map((line) => line.label),
        startsAt: order?.rulesSnapshot.startsAt,
        studioId: order?.studioId,
        payBy: order?.payBy,
      },
      // What the booking says, as its order should.
      booking: {
        lines: [`Arrhes : ${type?.name} du ${instantLabelFr(booking?.startsAt ?? new Date(0))}`],
        startsAt: booking?.startsAt.toISOString(),
        studioId: booking?.studioId,
        payBy: booking?.respondBy,
      },
    };
  }

  /**
   * Runs `first` then `second` lined up behind a transaction holding the booking's row (each waiting on it
   * before the next starts), then lets them go in that order: no timing, the database's queue decides.
   */
  async function lineUp(
    bookingId: string,
    first: () => Promise<unknown>,
    second: () => Promise<unknown>,
  ) {
    const started = await db().transaction(async (tx) => {
      await tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(eq(bookings.id, bookingId))
        .for("update");
      const one = first();
      await expect.poll(() => lockWaiters(tx)).toBe(1);
      const two = second();
      await expect.poll(() => lockWaiters(tx)).toBe(2);
      return [one, two];
    });
    return Promise.all(started);
  }

  it("an instant booking's own order, made while the owner moves it to another studio: the order names the new time and studio", async () => {
    const today = isoDayInParis(new Date());
    const made = await createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today, 10)}T10:00`,
      client: { name: "Léa Martin", email: "lea-course@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "transfer",
    });
    // The move takes the booking first; the order, its booking read before, waits for it.
    const [moved] = await lineUp(
      made.id,
      () =>
        moveBooking(made.id, { slot: `${addParisDays(today, 40)}T10:00`, studioId: ussel }, owner),
      () => createDepositOrder({ bookingId: made.id, method: "transfer" }),
    );
    expect((moved as { startsAt: Date }).startsAt).not.toEqual(made.startsAt);
    const { order, booking } = await depositOrderOf(made.id);
    expect(booking.studioId).toBe(ussel);
    expect(order).toEqual(booking);
  });

  it("the other way round: the move waiting for the order being made takes it along", async () => {
    const today = isoDayInParis(new Date());
    const made = await createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today, 11)}T10:00`,
      client: { name: "Léa Martin", email: "lea-course-inverse@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "transfer",
    });
    await lineUp(
      made.id,
      () => createDepositOrder({ bookingId: made.id, method: "transfer" }),
      () =>
        moveBooking(made.id, { slot: `${addParisDays(today, 41)}T10:00`, studioId: ussel }, owner),
    );
    const { order, booking } = await depositOrderOf(made.id);
    expect(booking.studioId).toBe(ussel);
    expect(order).toEqual(booking);
  });

  it("an accepted request's order, made by its job while the client moves it sooner: the order names the new time and deadline", async () => {
    const today = isoDayInParis(new Date());
    const asked = await createBooking({
      studioId: brive,
      sessionTypeId: requestType,
      slot: `${addParisDays(today, 12)}T10:00`,
      client: { name: "Léa Martin", email: "lea-course-demande@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "transfer",
    });
    expect(await acceptRequest(asked.id, owner)).toBe("awaiting_payment");
    // The client moves it to tomorrow, before the 96 hours she was given to pay: the deadline becomes its
    // new start, the order's too.
    await lineUp(
      asked.id,
      () => moveBooking(asked.id, { slot: `${addParisDays(today, 1)}T14:00` }, { actor: "client" }),
      () => requestAcceptedDeposit(asked.id, "transfer"),
    );
    const { order, booking } = await depositOrderOf(asked.id);
    expect(booking.payBy?.toISOString()).toBe(booking.startsAt);
    expect(order).toEqual(booking);
  });
});
