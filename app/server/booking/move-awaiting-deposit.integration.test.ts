import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentsSchema } from "~/content/schemas";
import type { DepositRule } from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { EVERY_DAY, insertSessionType, studioIds } from "../../../tests/support/booking";
import { lockWaiters, useAppDatabase } from "../../../tests/support/database";
import { startFakeStripe, type FakeStripe } from "../../../tests/support/fake-stripe";
import { memoryCardProvider } from "../../../tests/support/payments";
import { completeLegal } from "../../../tests/support/seller";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { expireLapsedPayments } from "../payments/jobs.server";
import { retryCheckout } from "../payments/orders.server";
import { applyProviderState } from "../payments/provider-state.server";
import { replacePaymentProviderForTests } from "../payments/providers.server";
import { stripeProvider } from "../payments/providers/stripe.server";
import { db } from "../db/client.server";
import { bookings, orderLines, orders, paymentAttempts, sessionTypes } from "../db/schema";
import { managePath } from "~/lib/booking/urls";
import {
  acceptRequest,
  cancelBooking,
  correctBookingClient,
  createBooking,
  expireLapsedRequests,
  moveBooking,
} from "./bookings.server";
import { clientBookingEmail, queueClientMail } from "./emails.server";
import { createDepositOrder, refundDeposit, requestAcceptedDeposit } from "./deposits.server";
import { manageTokenFor } from "./manage-token.server";
import { submitBookingForm } from "./visitor-form.server";
import { offeredSessionType } from "./visitor.server";

// A booking whose deposit is still awaited, moved (decision 0186): moved sooner than the deadline she was
// given, the deadline becomes the new start and the « moved » e-mail says it again with how to pay; moved
// once its window closed (before the sweep expires it), the move is refused; moved while its order is
// being made, the order names the new time and studio whichever commits first. Called off (cancelled,
// lapsed) while its order is being made, no order is left to pay and no e-mail asks for it; corrected by
// the owner (her client's name, e-mail, phone) meanwhile, the order names the client as corrected.

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
  // The owner takes cards and transfers: an accepted request's deposit is asked the way its client chose.
  await saveDocument(
    "payments",
    paymentsSchema.parse({
      card: true,
      transfer: true,
      transferHolder: "Studio Lumière",
      transferIban: "FR7630006000011234567890189",
    }),
    { id: "", name: "Camille" },
    "test",
  );
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

const owner = { actor: "owner", userId: null, name: "Sophie" } as const;

describe("a move racing the making of its deposit's order", () => {
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

/** The mail jobs queued about a booking, as `kind:event`. */
async function mailsOf(bookingId: string): Promise<string[]> {
  const result = await db().execute<{ kind: string; event: string }>(sql`
    select data->>'kind' as kind, data->>'event' as event from pgboss.job
    where name = 'mail' and data->>'bookingId' = ${bookingId} order by created_on`);
  return result.rows.map((row) => `${row.kind}:${row.event}`);
}

/** The deposit orders of a booking (its own idempotency key: one at most), with their status. */
const depositOrdersOf = (bookingId: string) =>
  db()
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(eq(orders.idempotencyKey, `booking-deposit:${bookingId}`));

const bookingRow = async (bookingId: string) =>
  (await db().select().from(bookings).where(eq(bookings.id, bookingId)))[0];

/** A promise's refusal, or null when it kept it: two racing calls, one of them refused. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("a booking called off while its deposit's order is being made", () => {
  const today = () => isoDayInParis(new Date());
  const book = (day: number, email: string, paymentMethod = "transfer", type = depositType) =>
    createBooking({
      studioId: brive,
      sessionTypeId: type,
      slot: `${addParisDays(today(), day)}T10:00`,
      client: { name: "Léa Martin", email, phone: "" },
      consentAt: new Date(),
      paymentMethod,
    });
  /** The instant booking's own order by transfer, its bank details by e-mail in its transaction. */
  const orderWithTransferMail = (bookingId: string) =>
    createDepositOrder({
      bookingId,
      method: "transfer",
      onCreated: async (tx) => {
        await queueClientMail({ bookingId, event: "awaiting_transfer" }, { tx });
      },
    });

  it("cancelled by the owner first: no order is made, nothing is asked of the client", async () => {
    const made = await book(13, "lea-annule-avant@example.test");
    const [, refused] = await lineUp(
      made.id,
      () => cancelBooking(made.id, owner),
      () => outcome(orderWithTransferMail(made.id)),
    );
    expect(refused).toMatchObject({ code: "not_awaiting_payment", status: 409 });
    expect((await bookingRow(made.id))?.state).toBe("cancelled");
    expect((await bookingRow(made.id))?.depositOrderId).toBeNull();
    expect(await depositOrdersOf(made.id)).toEqual([]);
    expect(await mailsOf(made.id)).not.toContain("booking-client:awaiting_transfer");
  });

  it("the other way round: her cancellation waiting for the order finds it and calls it off", async () => {
    const made = await book(14, "lea-annule-apres@example.test", "card");
    const [checkout, cancelled] = await lineUp(
      made.id,
      () => createDepositOrder({ bookingId: made.id, method: "card" }),
      () => cancelBooking(made.id, { actor: "client" }),
    );
    const { orderId } = checkout as { orderId: string };
    expect((await bookingRow(made.id))?.depositOrderId).toBe(orderId);
    expect(cancelled).toMatchObject({ deposit: "none" });
    // Its order is cancelled by the job the cancellation queued, once it committed.
    const queued = await db().execute<{ reason: string }>(sql`
      select data->>'reason' as reason from pgboss.job
      where name = 'booking-deposit-refund' and data->>'orderId' = ${orderId}`);
    expect(queued.rows.map((row) => row.reason)).toEqual(["client"]);
    await refundDeposit(orderId, "client");
    expect(await depositOrdersOf(made.id)).toEqual([{ id: orderId, status: "cancelled" }]);
    const open = await db()
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, "open")));
    expect(open).toEqual([]);
  });

  it("an accepted request cancelled by its client before its job made the order: no order, no acceptance e-mail", async () => {
    const asked = await book(15, "lea-demande-annulee@example.test", "transfer", requestType);
    expect(await acceptRequest(asked.id, owner)).toBe("awaiting_payment");
    // The job ends without an error: nothing to ask, nothing to try again.
    const [, asking] = await lineUp(
      asked.id,
      () => cancelBooking(asked.id, { actor: "client" }),
      () => outcome(requestAcceptedDeposit(asked.id, "transfer")),
    );
    expect(asking).toBeNull();
    expect(await depositOrdersOf(asked.id)).toEqual([]);
    expect(await mailsOf(asked.id)).not.toContain("booking-client:accepted");
  });

  it("lapsed before its order was made: none is made", async () => {
    const made = await book(16, "lea-expiree@example.test", "card");
    // Her card's 35-minute hold is over, and the sweep released the booking.
    await expireLapsedRequests(new Date(Date.now() + 40 * 60_000));
    expect((await bookingRow(made.id))?.state).toBe("expired");
    await expect(createDepositOrder({ bookingId: made.id, method: "card" })).rejects.toMatchObject({
      code: "not_awaiting_payment",
    });
    expect(await depositOrdersOf(made.id)).toEqual([]);
  });

  it("the booking form, its booking cancelled before its order is made: her page, not a payment", async () => {
    const [row] = await db()
      .select({ slug: sessionTypes.slug })
      .from(sessionTypes)
      .where(eq(sessionTypes.id, depositType));
    const type = await offeredSessionType(brive, row?.slug, null);
    const email = "lea-formulaire-annule@example.test";
    const formData = new FormData();
    const fields = {
      name: "Léa Martin",
      email,
      phone: "",
      consent: "on",
      paymentMethod: "transfer",
    };
    for (const [name, value] of Object.entries(fields)) formData.set(name, value);
    // No order can be written while this transaction holds the orders' table: the form's booking commits,
    // then its order waits; the owner cancels the booking meanwhile.
    const [answer] = await db().transaction(async (tx) => {
      await tx.execute(sql`lock table orders in share mode`);
      const posted = submitBookingForm({
        formData,
        studio: { id: brive },
        type,
        slot: `${addParisDays(today(), 17)}T10:00`,
        privateToken: null,
        clientAddress: "203.0.113.90",
      });
      await expect.poll(() => lockWaiters(tx)).toBe(1);
      const [booked] = await db()
        .select({ id: bookings.id })
        .from(bookings)
        .where(eq(bookings.clientEmail, email));
      await cancelBooking(booked?.id ?? "", owner);
      return [posted];
    });
    const [made] = await db().select().from(bookings).where(eq(bookings.clientEmail, email));
    const bookingId = made?.id ?? "";
    const response = (await answer) as Response;
    // Her own page, which says the booking is cancelled (not « Votre séance est réservée »).
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(managePath(await manageTokenFor(bookingId)));
    expect(await depositOrdersOf(bookingId)).toEqual([]);
    expect(await mailsOf(bookingId)).not.toContain("booking-client:awaiting_transfer");
  });
});

describe("a booking's client corrected while its deposit's order is being made", () => {
  const corrected = {
    name: "Léa Martin-Roux",
    email: "lea.roux@example.test",
    phone: "06 11 22 33 44",
  };
  const book = (day: number, email: string) =>
    createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(isoDayInParis(new Date()), day)}T10:00`,
      client: { name: "Léa Matin", email, phone: "" },
      consentAt: new Date(),
      paymentMethod: "transfer",
    });
  async function buyerOf(bookingId: string) {
    const [order] = await db()
      .select({ name: orders.buyerName, email: orders.buyerEmail, phone: orders.buyerPhone })
      .from(orders)
      .where(eq(orders.id, (await bookingRow(bookingId))?.depositOrderId ?? ""));
    return order;
  }

  it("corrected first: the order names the client as corrected", async () => {
    const made = await book(18, "lea-typo-avant@example.test");
    await lineUp(
      made.id,
      () => correctBookingClient(made.id, corrected, owner),
      () => createDepositOrder({ bookingId: made.id, method: "transfer" }),
    );
    expect(await buyerOf(made.id)).toEqual(corrected);
  });

  it("the other way round: the correction waiting for the order corrects it too", async () => {
    const made = await book(19, "lea-typo-apres@example.test");
    await lineUp(
      made.id,
      () => createDepositOrder({ bookingId: made.id, method: "transfer" }),
      () => correctBookingClient(made.id, corrected, owner),
    );
    expect(await buyerOf(made.id)).toEqual(corrected);
  });
});

describe("a card deposit whose checkout is open, moved by the owner (the fake Stripe)", () => {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
    replacePaymentProviderForTests(
      "stripe",
      stripeProvider({
        secretKey: fake.secretKey,
        webhookSecret: "whsec_MovedCheckoutsTest000000",
        apiUrl: fake.apiUrl,
        checkoutOrigin: fake.pageOrigin,
        maxNetworkRetries: 0,
      }),
    );
  });
  afterAll(async () => {
    card.install();
    await fake.close();
  });

  const today = () => isoDayInParis(new Date());
  const bookByCard = (day: number, email: string) =>
    createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today(), day)}T10:00`,
      client: { name: "Léa Martin", email, phone: "" },
      consentAt: new Date(),
      paymentMethod: "card",
    });
  const sessionOf = (redirectUrl: string | null) =>
    fake.sessions().find((session) => session.url === redirectUrl)?.id ?? "";
  const attemptsOf = (orderId: string) =>
    db()
      .select({ status: paymentAttempts.status, reference: paymentAttempts.providerReference })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId))
      .orderBy(asc(paymentAttempts.createdAt));

  it("closes the checkout naming the old day: « Payer » opens a new one naming the new day, the slot still held", async () => {
    const made = await bookByCard(20, "lea-carte-deplacee@example.test");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    const first = sessionOf(checkout.redirectUrl);
    const [type] = await db()
      .select({ name: sessionTypes.name })
      .from(sessionTypes)
      .where(eq(sessionTypes.id, depositType));
    const name = type?.name ?? "";
    expect(fake.sessionLines(first).map((line) => line.name)).toEqual([
      `Arrhes : ${name} du ${instantLabelFr(made.startsAt)}`,
    ]);

    const moved = await moveBooking(made.id, { slot: `${addParisDays(today(), 21)}T15:00` }, owner);
    // Her page at Stripe named the old day: it can take no payment any more.
    expect(fake.session(first)?.status).toBe("expired");
    expect((await bookingRow(made.id))?.state).toBe("awaiting_payment");
    const [order] = await db().select().from(orders).where(eq(orders.id, checkout.orderId));
    expect(order?.status).toBe("awaiting_payment");

    const again = await retryCheckout(checkout.orderId);
    expect(again.checkout).toBe("ready");
    const second = sessionOf(again.redirectUrl);
    expect(second).not.toBe(first);
    expect(fake.sessionLines(second).map((line) => line.name)).toEqual([
      `Arrhes : ${name} du ${instantLabelFr(moved.startsAt)}`,
    ]);
    await fake.pay(second);
    expect(
      await applyProviderState({ provider: "stripe", providerReference: second }, "return"),
    ).toMatchObject({ outcome: "applied", orderStatus: "paid" });
    expect((await bookingRow(made.id))?.state).toBe("confirmed");
  });

  it("Stripe not answering at the move: the expiry job closes the old checkout, the order still payable", async () => {
    const made = await bookByCard(24, "lea-carte-stripe-muet@example.test");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    const first = sessionOf(checkout.redirectUrl);
    fake.failNext({ status: 500 });
    await moveBooking(made.id, { slot: `${addParisDays(today(), 25)}T15:00` }, owner);
    expect(fake.session(first)?.status).toBe("open");
    await expireLapsedPayments();
    expect(fake.session(first)?.status).toBe("expired");
    const [order] = await db().select().from(orders).where(eq(orders.id, checkout.orderId));
    expect(order?.status).toBe("awaiting_payment");
    expect((await bookingRow(made.id))?.state).toBe("awaiting_payment");
    expect(sessionOf((await retryCheckout(checkout.orderId)).redirectUrl)).not.toBe(first);
  });

  it("a payment made on the old checkout in the instant of the move is applied once, the booking confirmed at its new time", async () => {
    const made = await bookByCard(22, "lea-carte-payee-au-vol@example.test");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    const first = sessionOf(checkout.redirectUrl);
    // She pays as the owner moves it: Stripe took the money, its webhook is not there yet.
    fake.holdEvents();
    try {
      await fake.pay(first);
      const moved = await moveBooking(
        made.id,
        { slot: `${addParisDays(today(), 23)}T15:00` },
        owner,
      );
      const [order] = await db().select().from(orders).where(eq(orders.id, checkout.orderId));
      expect(order?.status).toBe("paid");
      const booking = await bookingRow(made.id);
      expect(booking?.state).toBe("confirmed");
      expect(booking?.startsAt).toEqual(moved.startsAt);
      // Her return from Stripe's page (or its webhook) comes later: nothing more.
      expect(
        await applyProviderState({ provider: "stripe", providerReference: first }, "return"),
      ).toMatchObject({ outcome: "already_applied" });
      expect(await attemptsOf(checkout.orderId)).toEqual([
        { status: "succeeded", reference: first },
      ]);
      await expect(retryCheckout(checkout.orderId)).rejects.toMatchObject({
        code: "not_awaiting_payment",
      });
    } finally {
      fake.releaseEvents();
    }
  });
});
