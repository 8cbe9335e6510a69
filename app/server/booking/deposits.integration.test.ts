import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DepositRule } from "~/lib/booking/deposit";
import { eventSentence } from "~/lib/booking/event-lines";
import { bookingStateLabel } from "~/lib/booking/model";
import { instantLabelFr } from "~/lib/booking/words";
import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { addParisDays } from "~/lib/booking/slots";
import { formatDateFr, isoDayInParis, parisDateTimeInputValue } from "~/lib/dates";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { useAppDatabase } from "../../../tests/support/database";
import {
  cardPaidReport,
  memoryCardProvider,
  reportCardPaid,
} from "../../../tests/support/payments";
import { completeLegal } from "../../../tests/support/seller";
import { seedDocuments } from "~/content/seed";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { applyPaymentStatus } from "../payments/apply-payment.server";
import { expireLapsedPayments } from "../payments/jobs.server";
import { markPaidOffline, requestRefund, retryCheckout } from "../payments/orders.server";
import { setClockForTests } from "../clock.server";
import { invoicesOfBooking } from "../invoices/orders.server";
import { receiptsBook } from "../accounting/exports.server";
import { paymentsSchema } from "~/content/schemas";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import {
  bookings,
  invoices,
  moneyJournal,
  orderLines,
  orders,
  paymentAttempts,
  refunds,
  sessionTypes,
} from "../db/schema";
import {
  acceptRequest,
  depositAcceptanceNotice,
  cancelBooking,
  activeBookingsOf,
  createBooking,
  expireLapsedRequests,
  moveBooking,
} from "./bookings.server";
import { bookingDetail, bookingsCsv, bookingsForExport, todayAndTomorrow } from "./agenda.server";
import { clientBookingEmail, ownerBookingEmail } from "./emails.server";
import {
  createDepositOrder,
  depositForClient,
  depositForOwner,
  recordBalancePaid,
  refundDeposit,
  requestAcceptedDeposit,
  type DepositRefundReason,
} from "./deposits.server";
import { SlotTakenError } from "./refusals.server";

// A booking's deposit (decision 0186) on a real PostgreSQL: the booking holds its slot while it waits for
// its payment; paid, it is confirmed with its « facture d'acompte »; the window closing frees the slot and
// tells the client; a payment after the slot went to someone else is refunded, with its credit note.

useAppDatabase({ jobs: true });
const card = memoryCardProvider();

const RULE: DepositRule = {
  amount: "fixed",
  value: 3_000,
  priceCents: null,
  nature: "arrhes",
  methods: ["card", "transfer"],
  transferHours: 24,
  refundAtOnce: false,
};
const MINUTE = 60_000;
/** The owner takes cards and transfers, her bank details given. */
const TAKES_BOTH = paymentsSchema.parse({
  card: true,
  transfer: true,
  transferHolder: "Studio Lumière",
  transferIban: "FR7630006000011234567890189",
});

let brive = "";
let ussel = "";
let depositType = "";
let refundAtOnceType = "";
/** A distinct hour from 3 days on (12 a day). */
const nextSlot = distinctSlots(3);

beforeAll(async () => {
  card.install();
  provideSiteOrderKinds();
  await saveDocument("legal", completeLegal, { id: "", name: "Camille" }, "test");
  await saveDocument("payments", TAKES_BOTH, { id: "", name: "Camille" }, "test");
  ({ brive, ussel } = await studioIds());
  // Offered at Ussel too: the owner may move a booking there.
  depositType = await insertSessionType([brive, ussel], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    deposit: RULE,
  });
  refundAtOnceType = await insertSessionType([brive], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    deposit: { ...RULE, nature: "acompte", refundAtOnce: true },
  });
});
afterAll(() => card.uninstall());

const book = (slot: string, email: string, paymentMethod = "card", sessionTypeId = depositType) =>
  createBooking({
    studioId: brive,
    sessionTypeId,
    slot,
    client: { name: "Léa Martin", email, phone: "" },
    consentAt: new Date(),
    paymentMethod,
  });

/** The deposit type's name, as its orders' and invoices' lines print it. */
async function typeName() {
  const [type] = await db()
    .select({ name: sessionTypes.name })
    .from(sessionTypes)
    .where(eq(sessionTypes.id, depositType));
  return type?.name ?? "";
}

async function stateOf(bookingId: string) {
  const [row] = await db().select().from(bookings).where(eq(bookings.id, bookingId));
  return row;
}

/** The mail jobs queued about a booking, as `kind:event`. */
async function mailsOf(bookingId: string): Promise<string[]> {
  const result = await db().execute<{ kind: string; event: string }>(sql`
    select data->>'kind' as kind, data->>'event' as event from pgboss.job
    where name = 'mail' and data->>'bookingId' = ${bookingId} order by created_on`);
  return result.rows.map((row) => `${row.kind}:${row.event}`);
}

/** The payments core's e-mails to the buyer queued about an order, as their events. */
async function buyerMailsOf(orderId: string): Promise<string[]> {
  const result = await db().execute<{ event: string }>(sql`
    select data->>'event' as event from pgboss.job
    where name = 'mail' and data->>'kind' = 'payment-buyer' and data->>'orderId' = ${orderId}
    order by created_on`);
  return result.rows.map((row) => row.event);
}

async function orderStatus(orderId: string) {
  const [row] = await db()
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row?.status;
}

/** The reasons of the refund jobs queued for an order (the job runs once its transaction commits). */
async function queuedRefunds(orderId: string): Promise<DepositRefundReason[]> {
  const result = await db().execute<{ reason: DepositRefundReason }>(sql`
    select data->>'reason' as reason from pgboss.job
    where name = 'booking-deposit-refund' and data->>'orderId' = ${orderId} order by created_on`);
  return result.rows.map((row) => row.reason);
}

/** Runs the refund jobs queued for an order, as the worker would, each twice (a retried job). */
async function runQueuedRefunds(orderId: string): Promise<void> {
  for (const reason of await queuedRefunds(orderId)) {
    await refundDeposit(orderId, reason);
    await refundDeposit(orderId, reason);
  }
}

async function payByCard(orderId: string, amountCents: number) {
  const attempt = await db().execute<{ reference: string }>(
    sql`select provider_reference as reference from payment_attempts where order_id = ${orderId}::uuid`,
  );
  // The fake's checkout paid too, as the provider's page would leave it.
  card.pay(attempt.rows[0]?.reference ?? "", amountCents);
  return reportCardPaid(orderId, amountCents);
}

describe("a booking with a deposit", () => {
  it("waits for its payment holding its slot, then is confirmed with its deposit invoice", async () => {
    const slot = nextSlot();
    const made = await book(slot, "lea-carte@example.test");
    expect(made.state).toBe("awaiting_payment");
    expect(made.deposit?.cents).toBe(3_000);
    // A card's window: 35 minutes.
    expect((made.respondBy?.getTime() ?? 0) - Date.now()).toBeGreaterThan(34 * MINUTE);
    await expect(book(slot, "autre@example.test")).rejects.toBeInstanceOf(SlotTakenError);
    expect(await mailsOf(made.id)).toEqual([]);

    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    expect(checkout.redirectUrl).toMatch(/^https:\/\/checkout\.example\.test\//);
    await payByCard(checkout.orderId, 3_000);

    const booking = await stateOf(made.id);
    expect(booking).toMatchObject({ state: "confirmed", depositOrderId: checkout.orderId });
    expect(booking?.depositRules).toEqual(RULE);
    const issued = await db().select().from(invoices).where(eq(invoices.orderId, checkout.orderId));
    expect(issued.map((invoice) => [invoice.kind, invoice.ttcCents])).toEqual([["deposit", 3_000]]);
    expect(issued[0]?.serviceDate).toBe(slot.slice(0, 10));
    expect(await mailsOf(made.id)).toEqual(["booking-client:booked", "booking-owner:booked"]);
  });

  it("is refused without one of the methods its type allows, in French", async () => {
    await expect(book(nextSlot(), "lea-moyen@example.test", "cheque")).rejects.toMatchObject({
      fieldErrors: { paymentMethod: "Choisissez l'un des moyens de paiement proposés." },
    });
  });

  it("frees its slot when the window closes unpaid, telling the client nothing was charged", async () => {
    const slot = nextSlot();
    const made = await book(slot, "lea-expire@example.test", "transfer");
    await createDepositOrder({ bookingId: made.id, method: "transfer" });
    expect(await expireLapsedRequests(new Date(Date.now() + 25 * 60 * MINUTE))).toBeGreaterThan(0);
    expect((await stateOf(made.id))?.state).toBe("expired");
    // The order's own deadline then passes too: released, and the client is not told a second time.
    const orderId = (await stateOf(made.id))?.depositOrderId ?? "";
    try {
      setClockForTests(new Date(Date.now() + 25 * 60 * MINUTE));
      await expireLapsedPayments();
    } finally {
      setClockForTests(null);
    }
    expect(await orderStatus(orderId)).toBe("expired");
    expect(await mailsOf(made.id)).toEqual(["booking-client:payment_expired"]);
    expect(await buyerMailsOf(orderId)).toEqual([]);
    // Its state as she reads it: a payment that did not come, not a request left unanswered.
    const told = await clientBookingEmail({ bookingId: made.id, event: "payment_expired" });
    expect(told?.text).toContain("État : Non confirmée : paiement non reçu");
    // And as the owner reads it: its state and its history's line (the pages: booking-deposit-transfer).
    const detail = await bookingDetail(made.id);
    expect(
      bookingStateLabel(
        detail?.booking.state ?? "pending",
        detail?.booking.depositAwaited ?? false,
      ),
    ).toBe("Non confirmée : paiement non reçu");
    expect(detail?.events.map((event) => eventSentence(event))).toContain(
      "Non confirmée : paiement non reçu avant la date limite (le client est prévenu)",
    );
    const again = await book(slot, "quelquun@example.test");
    expect(again.state).toBe("awaiting_payment");
  });

  it("tells the client a card payment held for the owner came, never that nothing was charged, when its window closes", async () => {
    const made = await book(nextSlot(), "lea-montant-retenu@example.test");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "card" });
    // The provider took 1 € for arrhes of 30 €: held for the owner (decision 0172), nothing applied.
    expect((await reportCardPaid(orderId, 100)).outcome).toBe("held");
    const booking = await stateOf(made.id);
    const waiting = booking ? await depositForClient(booking, 48) : null;
    expect(waiting?.lines).toContain(PAYMENT_HELD_MESSAGE);
    expect(waiting).toMatchObject({ held: true, waiting: false });
    // Before she cancels, the owner is not told it is unpaid: it came, and waits for her on the order.
    const onCancel = (await depositForOwner(made.id))?.onCancel ?? "";
    expect(onCancel).toContain("attend votre décision");
    expect(onCancel).not.toContain("pas encore payées");

    // Its hold lapses before the owner decides: the slot is freed, the client told her money came.
    expect(await expireLapsedRequests(new Date(Date.now() + 36 * MINUTE))).toBeGreaterThan(0);
    expect((await stateOf(made.id))?.state).toBe("expired");
    expect(await mailsOf(made.id)).toEqual(["booking-client:payment_expired"]);
    const told = await clientBookingEmail({ bookingId: made.id, event: "payment_expired" });
    expect(told?.subject).toBe("Votre paiement est en cours de vérification");
    expect(told?.text).toContain(PAYMENT_HELD_MESSAGE);
    expect(told?.text).toContain("État : Non confirmée : paiement reçu, à vérifier");
    expect(told?.text).not.toContain("débité");
    expect(told?.text).not.toContain("paiement non reçu");
    expect(told?.text).not.toContain("réserver à nouveau");
    const lapsed = await stateOf(made.id);
    const shown = lapsed ? await depositForClient(lapsed, 48) : null;
    expect(shown?.lines).toContain(PAYMENT_HELD_MESSAGE);
    expect(shown?.lines.join(" ")).not.toContain("non réglées à temps");
    // The owner reads it too: the money came, it waits for her decision on its order's page (the pages:
    // booking-deposit.test), in her export as on her agenda.
    const owner = await depositForOwner(made.id);
    expect(owner?.lines[0]).toBe(
      `Arrhes de ${formatCents(3_000)} : paiement reçu, à vérifier (carte bancaire).`,
    );
    expect(owner?.lines.join(" ")).toContain(
      "« Paiement à vérifier » : acceptez-le ou remboursez-le depuis la commande",
    );
    expect(owner?.lines.join(" ")).not.toContain("non réglées à temps");
    expect(await exportedState("lea-montant-retenu@example.test")).toBe(
      "Non confirmée : paiement reçu, à vérifier",
    );
  });

  it("holds its slot as long as a checkout opened again from the order's page: paid in it, it is hers", async () => {
    const slot = nextSlot();
    const start = Date.now();
    const made = await book(slot, "lea-reprend@example.test");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "card" });
    try {
      // Her first checkout lapsed (30 minutes); at 32 she opens another from the order's page.
      setClockForTests(new Date(start + 32 * MINUTE));
      await expireLapsedPayments();
      expect((await stateOf(made.id))?.state).toBe("awaiting_payment");
      const again = await retryCheckout(orderId);
      expect(again.checkout).toBe("ready");
      // Past the first hold's 35 minutes: still hers, nobody else may take it.
      setClockForTests(new Date(start + 40 * MINUTE));
      await expireLapsedRequests(new Date(start + 40 * MINUTE));
      expect((await stateOf(made.id))?.state).toBe("awaiting_payment");
      await expect(book(slot, "quelquun-d-autre@example.test", "transfer")).rejects.toBeInstanceOf(
        SlotTakenError,
      );
      const [attempt] = await db()
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.id, again.attemptId ?? ""));
      card.pay(attempt?.providerReference ?? "", 3_000);
      await applyPaymentStatus(cardPaidReport(attempt?.providerReference ?? "", 3_000));
      expect((await stateOf(made.id))?.state).toBe("confirmed");
      expect(await queuedRefunds(orderId)).toEqual([]);
    } finally {
      setClockForTests(null);
    }
  });

  it("opens no new checkout once the booking is cancelled, and says so", async () => {
    const start = Date.now();
    const made = await book(nextSlot(), "lea-annulee-puis-paie@example.test");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "card" });
    try {
      setClockForTests(new Date(start + 31 * MINUTE));
      await expireLapsedPayments();
      // Cancelled; its order is cancelled by the job queued with it, not run yet.
      await cancelBooking(made.id, { actor: "client" });
      await expect(retryCheckout(orderId)).rejects.toMatchObject({
        status: 409,
        message: "Cette réservation est annulée : il n'y a plus rien à payer.",
      });
    } finally {
      setClockForTests(null);
    }
  });

  it("opens no new checkout once its slot was let go", async () => {
    const slot = nextSlot();
    const start = Date.now();
    const made = await book(slot, "lea-trop-tard@example.test");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "card" });
    try {
      // Her checkout closed at 30 minutes, the order still open; at 36 the booking's hold is over.
      setClockForTests(new Date(start + 31 * MINUTE));
      await expireLapsedPayments();
      setClockForTests(new Date(start + 36 * MINUTE));
      await expireLapsedRequests(new Date(start + 36 * MINUTE));
      expect((await stateOf(made.id))?.state).toBe("expired");
      await expect(retryCheckout(orderId)).rejects.toMatchObject({ status: 409 });
      const attempts = await db()
        .select({ status: paymentAttempts.status })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, orderId));
      expect(attempts.map((attempt) => attempt.status)).toEqual(["expired"]);
    } finally {
      setClockForTests(null);
    }
  });

  it("refunds a payment that comes once the slot went to someone else, with its credit note", async () => {
    const slot = nextSlot();
    const late = await book(slot, "lea-tard@example.test");
    const checkout = await createDepositOrder({ bookingId: late.id, method: "card" });
    await expireLapsedRequests(new Date(Date.now() + 36 * MINUTE));
    const other = await book(slot, "rapide@example.test", "transfer");
    expect(other.state).toBe("awaiting_payment");

    await payByCard(checkout.orderId, 3_000);
    expect((await stateOf(late.id))?.state).toBe("expired");
    expect((await stateOf(other.id))?.state).toBe("awaiting_payment");
    expect(await mailsOf(late.id)).toEqual([
      "booking-client:payment_expired",
      "booking-client:slot_lost",
    ]);
    // Her one word of this payment is why it goes back: no « paiement reçu » before it.
    expect(await buyerMailsOf(checkout.orderId)).toEqual([]);
    expect(await queuedRefunds(checkout.orderId)).toEqual(["lost_slot"]);
    await refundDeposit(checkout.orderId, "lost_slot");
    await refundDeposit(checkout.orderId, "lost_slot");
    const made = await db().select().from(refunds).where(eq(refunds.orderId, checkout.orderId));
    expect(made.map((refund) => [refund.amountCents, refund.status])).toEqual([
      [3_000, "succeeded"],
    ]);
    const issued = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, checkout.orderId))
      // A credit note is never dated before its invoice; at the same instant, the invoice first.
      .orderBy(invoices.issuedAt, desc(invoices.series));
    expect(issued.map((invoice) => invoice.kind)).toEqual(["deposit", "credit_note"]);
  });
});

describe("a paid deposit when the booking is cancelled", () => {
  async function paidBooking(sessionTypeId = depositType) {
    const made = await book(nextSlot(), "lea-annule@example.test", "card", sessionTypeId);
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await payByCard(checkout.orderId, 3_000);
    expect((await stateOf(made.id))?.state).toBe("confirmed");
    return { bookingId: made.id, orderId: checkout.orderId };
  }
  const refundsOf = (orderId: string) =>
    db().select().from(refunds).where(eq(refunds.orderId, orderId));

  it("by the client in time: the refund is proposed to the owner, nothing given back yet", async () => {
    const { bookingId, orderId } = await paidBooking();
    const { deposit } = await cancelBooking(bookingId, { actor: "client" });
    expect(deposit).toBe("proposed");
    expect(await queuedRefunds(orderId)).toEqual([]);
    expect(await refundsOf(orderId)).toEqual([]);
    const owner = await depositForOwner(bookingId);
    expect(owner?.lines.join("\n")).toContain("remboursez-la depuis la commande");
    // Her e-mail of the cancellation says it too: a refund is hers to make.
    const mail = await ownerBookingEmail({ bookingId, event: "cancelled" });
    expect(mail?.text).toContain(
      "Arrhes de 30\u00a0€ payées par carte : à lui rembourser, elle a annulé dans les délais. Cliquez sur « Rembourser » dans la commande : le site les lui rend sur sa carte.",
    );
  });

  it("by the client in time, with « rembourser aussitôt »: refunded at once, with its credit note", async () => {
    const { bookingId, orderId } = await paidBooking(refundAtOnceType);
    const { deposit } = await cancelBooking(bookingId, { actor: "client" });
    expect(deposit).toBe("refunded");
    // Queued with the cancellation, asked of the provider once it is committed.
    expect(await queuedRefunds(orderId)).toEqual(["client"]);
    expect(await refundsOf(orderId)).toEqual([]);
    await runQueuedRefunds(orderId);
    expect((await refundsOf(orderId)).map((refund) => [refund.amountCents, refund.reason])).toEqual(
      [[3_000, "Séance annulée par le client dans les délais"]],
    );
    const kinds = await db()
      .select({ kind: invoices.kind })
      .from(invoices)
      .where(eq(invoices.orderId, orderId))
      // A credit note is never dated before its invoice; at the same instant, the invoice first.
      .orderBy(invoices.issuedAt, desc(invoices.series));
    expect(kinds.map((row) => row.kind)).toEqual(["deposit", "credit_note"]);
    // Both are the booking's: its page lists them.
    expect((await invoicesOfBooking(bookingId)).map((row) => row.kind)).toEqual([
      "deposit",
      "credit_note",
    ]);
  });

  it("by the client in time, with « rembourser aussitôt », paid by transfer: she is told the studio refunds her, the owner what to give back", async () => {
    const made = await book(
      nextSlot(),
      "lea-virement-annule@example.test",
      "transfer",
      refundAtOnceType,
    );
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "transfer" });
    await markPaidOffline(orderId, "transfer");
    const booking = await stateOf(made.id);
    expect(booking?.state).toBe("confirmed");
    const shown = booking ? await depositForClient(booking, 48) : null;
    expect(shown?.onCancel).toBe(
      "Le studio vous rembourse votre acompte de 30\u00a0€ et vous le confirme par e-mail.",
    );
    expect(shown?.lines.join("\n")).toContain("la somme versée vous est remboursée par le studio");

    await cancelBooking(made.id, { actor: "client" });
    await runQueuedRefunds(orderId);
    // No provider to ask: the refund waits for the owner, and nothing tells the client it was made yet.
    expect((await refundsOf(orderId)).map((refund) => [refund.amountCents, refund.status])).toEqual(
      [[3_000, "to_refund_offline"]],
    );
    expect(await buyerMailsOf(orderId)).not.toContain("refunded");
    const owner = await depositForOwner(made.id);
    expect(owner?.lines.join("\n")).toContain(
      "30\u00a0€ à rembourser par vous : rendez-les à la cliente, puis cliquez sur « Remboursé » dans la commande",
    );
    // The owner's e-mail of the cancellation is the only thing that reaches her: it says what to do.
    const mail = await ownerBookingEmail({ bookingId: made.id, event: "cancelled" });
    expect(mail?.text).toContain(
      "Acompte de 30\u00a0€ payé hors du site (virement ou au studio) : à lui rendre vous-même, elle a annulé dans les délais. Une fois rendu, cliquez sur « Remboursé » dans la commande.",
    );
  });

  it("by the client in time, with « rembourser aussitôt », paid by card: she is told it comes back at once on the card", async () => {
    const { bookingId } = await paidBooking(refundAtOnceType);
    const booking = await stateOf(bookingId);
    const shown = booking ? await depositForClient(booking, 48) : null;
    expect(shown?.onCancel).toBe(
      "Votre acompte de 30\u00a0€ vous est remboursé aussitôt, sur la carte utilisée ; l'e-mail qui le confirme porte l'avoir.",
    );
    expect(shown?.lines.join("\n")).toContain(
      "la somme versée vous est remboursée aussitôt, sur la carte utilisée",
    );
    // The owner's e-mail of the cancellation: nothing for her to do.
    await cancelBooking(bookingId, { actor: "client" });
    const mail = await ownerBookingEmail({ bookingId, event: "cancelled" });
    expect(mail?.text).toContain(
      "Acompte de 30\u00a0€ payé par carte : le site le lui rembourse aussitôt sur sa carte, vous n'avez rien à faire.",
    );
  });

  it("by the studio: refunded in full, and for arrhes the owner reads that the law owes twice", async () => {
    const { bookingId, orderId } = await paidBooking();
    const { deposit } = await cancelBooking(bookingId, {
      actor: "owner",
      userId: null,
      name: "Sophie",
    });
    expect(deposit).toBe("refunded");
    expect(await queuedRefunds(orderId)).toEqual(["studio"]);
    await runQueuedRefunds(orderId);
    expect((await refundsOf(orderId)).map((refund) => [refund.amountCents, refund.reason])).toEqual(
      [[3_000, "Séance annulée par le studio"]],
    );
    const owner = await depositForOwner(bookingId);
    expect(owner?.lines.join("\n")).toContain("vous oblige à rendre le double, soit 60\u00a0€");
  });

  it("paid twice (a refused card tried again, then both checkouts paid): the studio's cancellation refunds both", async () => {
    const made = await book(nextSlot(), "lea-double@example.test", "card");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "card" });
    const attemptsOf = () =>
      db()
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, orderId))
        .orderBy(paymentAttempts.createdAt);
    const [refused] = await attemptsOf();
    await applyPaymentStatus({
      attemptId: refused?.id ?? "",
      status: "failed",
      amountCents: null,
      currency: null,
      paymentReference: null,
      source: "webhook",
    });
    await retryCheckout(orderId);
    for (const attempt of await attemptsOf()) {
      const reference = attempt.providerReference ?? "";
      card.pay(reference, 3_000);
      await applyPaymentStatus(cardPaidReport(reference, 3_000));
    }
    expect((await attemptsOf()).map((attempt) => [attempt.status, attempt.duplicate])).toEqual([
      ["succeeded", false],
      ["succeeded", true],
    ]);

    await cancelBooking(made.id, { actor: "owner", userId: null, name: "Sophie" });
    await runQueuedRefunds(orderId);
    expect((await refundsOf(orderId)).map((refund) => refund.amountCents)).toEqual([3_000, 3_000]);
  });

  it("waiting for its payment, counts among the 3 bookings to come of an address: it holds its time", async () => {
    const bookAs = () =>
      createBooking({
        studioId: brive,
        sessionTypeId: depositType,
        slot: nextSlot(),
        client: { name: "Léa Martin", email: "lea-trois@example.test", phone: "" },
        consentAt: new Date(),
        paymentMethod: "transfer",
        maxBookingsToCome: 3,
      });
    for (let made = 0; made < 3; made++) {
      expect((await bookAs()).state).toBe("awaiting_payment");
    }
    await expect(bookAs()).rejects.toMatchObject({ code: "too_many_bookings" });
    expect(await activeBookingsOf("Lea-Trois@example.test")).toBe(3);
  });

  it("waiting for its payment, is on the owner's dashboard among tomorrow's sessions: it holds its time", async () => {
    const tomorrow = addParisDays(isoDayInParis(new Date()), 1);
    const made = await book(`${tomorrow}T15:00`, "lea-demain@example.test", "transfer");
    expect((await stateOf(made.id))?.state).toBe("awaiting_payment");
    expect((await todayAndTomorrow()).tomorrows.map((row) => row.id)).toContain(made.id);
  });

  it("unpaid when the studio cancels: the owner is not told to pay twice arrhes never received", async () => {
    const made = await book(nextSlot(), "lea-jamais-payee@example.test");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "card" });
    await cancelBooking(made.id, { actor: "owner", userId: null, name: "Sophie" });
    await runQueuedRefunds(orderId);
    expect((await db().select().from(orders).where(eq(orders.id, orderId)))[0]?.status).toBe(
      "cancelled",
    );
    expect((await depositForOwner(made.id))?.lines.join("\n")).not.toContain("rendre le double");
  });

  it("unpaid when she cancels: its order cancelled and its checkout closed by the job queued with it", async () => {
    const made = await book(nextSlot(), "lea-renonce-carte@example.test");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await cancelBooking(made.id, { actor: "client" });
    expect(await queuedRefunds(checkout.orderId)).toEqual(["client"]);
    const expired = card.calls.expire;
    await refundDeposit(checkout.orderId, "client");
    await refundDeposit(checkout.orderId, "client");
    const [order] = await db().select().from(orders).where(eq(orders.id, checkout.orderId));
    expect(order?.status).toBe("cancelled");
    // Closed at the provider at once (not when its 30 minutes end): no « Payer » on her order's page.
    expect(card.calls.expire).toBe(expired + 1);
    const attempts = await db().execute<{ status: string }>(
      sql`select status from payment_attempts where order_id = ${checkout.orderId}::uuid`,
    );
    expect(attempts.rows.map((row) => row.status)).toEqual(["expired"]);
    expect(await refundsOf(checkout.orderId)).toEqual([]);
  });

  it("paid before that job ran, on the checkout she left: refunded once, no apology for a slot she gave up", async () => {
    const made = await book(nextSlot(), "lea-paie-quand-meme@example.test");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await cancelBooking(made.id, { actor: "client" });
    await payByCard(checkout.orderId, 3_000);
    expect((await stateOf(made.id))?.state).toBe("cancelled");
    expect(await mailsOf(made.id)).not.toContain("booking-client:slot_lost");
    expect(await buyerMailsOf(checkout.orderId)).toEqual([]);
    expect(await queuedRefunds(checkout.orderId)).toEqual(["client", "after_cancel"]);
    await runQueuedRefunds(checkout.orderId);
    expect((await refundsOf(checkout.orderId)).map((refund) => refund.amountCents)).toEqual([
      3_000,
    ]);
  });

  it("past the cut-off a client cannot cancel online, and her page shows the rules she accepted", async () => {
    const { bookingId } = await paidBooking();
    const booking = await stateOf(bookingId);
    const late = new Date((booking?.startsAt.getTime() ?? 0) - 3_600_000);
    await expect(
      cancelBooking(bookingId, { actor: "client" }, { now: late }),
    ).rejects.toMatchObject({ code: "cutoff" });
    // The type changing later does not change what she accepted.
    await db()
      .update(sessionTypes)
      .set({ deposit: { ...RULE, nature: "acompte" } })
      .where(eq(sessionTypes.id, depositType));
    const shown = booking ? await depositForClient(booking, 48) : null;
    expect(shown?.lines.join("\n")).toContain("Arrhes de 30\u00a0€ : payées.");
    expect(shown?.lines.join("\n")).toContain("après, elle reste acquise au studio");
    await db().update(sessionTypes).set({ deposit: RULE }).where(eq(sessionTypes.id, depositType));
  });
});

describe("a « sur demande » type with a deposit", () => {
  let requestType = "";
  beforeAll(async () => {
    requestType = await insertSessionType([brive], {
      bookableHours: EVERY_DAY,
      stepMinutes: 60,
      mode: "request",
      responseDeadlineHours: 24,
      deposit: RULE,
    });
  });

  it("asks for it only once the owner accepts, the slot held for her hours, the link in the e-mail", async () => {
    const slot = nextSlot();
    const asked = await book(slot, "lea-demande@example.test", "card", requestType);
    expect(asked.state).toBe("pending");
    expect(asked.deposit).toBeNull();
    expect((await stateOf(asked.id))?.depositOrderId).toBeNull();

    // What the owner is told: the session is not confirmed yet.
    expect(await acceptRequest(asked.id, { actor: "owner", userId: null, name: "Sophie" })).toBe(
      "awaiting_payment",
    );
    // The order and its e-mail come from a job queued with the acceptance; run as the worker would,
    // twice (a retried job): one order, one e-mail.
    expect((await stateOf(asked.id))?.depositOrderId).toBeNull();
    expect(await queuedDepositRequests(asked.id)).toEqual(["card"]);
    await requestAcceptedDeposit(asked.id, "card");
    await requestAcceptedDeposit(asked.id, "card");
    const accepted = await stateOf(asked.id);
    expect(accepted?.state).toBe("awaiting_payment");
    // The owner's transfer hours (24), not a card's 35 minutes: the client reads the e-mail first.
    expect((accepted?.respondBy?.getTime() ?? 0) - Date.now()).toBeGreaterThan(23 * 60 * MINUTE);
    await expect(book(slot, "autre-demande@example.test")).rejects.toBeInstanceOf(SlotTakenError);
    const [order] = await db()
      .select()
      .from(orders)
      .where(eq(orders.id, accepted?.depositOrderId ?? ""));
    expect(order).toMatchObject({ kind: "booking_deposit", method: "card", amountCents: 3_000 });
    // The order lives as long as the hold: new checkouts may be opened until then.
    expect(order?.payBy?.getTime()).toBe(accepted?.respondBy?.getTime());
    expect(await mailsOf(asked.id)).toEqual([
      "booking-client:requested",
      "booking-owner:requested",
      "booking-client:accepted",
    ]);
    const mail = await clientBookingEmail({ bookingId: asked.id, event: "accepted" });
    expect(mail?.subject).toMatch(/^Demande acceptée : réglez votre paiement pour confirmer/);
    expect(mail?.text).toMatch(/réglez le paiement demandé avant le .* : http\S+\/commande\//);
    // Asked the way she chose: nothing to say of it.
    expect(mail?.text).not.toContain("Vous aviez choisi");
    // Waiting for its payment, her booking can still be seen, moved or cancelled from the e-mail; its
    // calendar event is not confirmed yet.
    expect(mail?.text).toMatch(/Voir, déplacer ou annuler votre séance \(jusqu'au .+\) : http/);
    expect(String(mail?.attachments?.[0]?.content)).toContain("STATUS:TENTATIVE");

    await payByCard(order?.id ?? "", 3_000);
    expect((await stateOf(asked.id))?.state).toBe("confirmed");
  });

  it("is not accepted while the client has no address for its order, whatever the way of paying", async () => {
    const atStudio = await insertSessionType([brive], {
      bookableHours: EVERY_DAY,
      stepMinutes: 60,
      mode: "request",
      responseDeadlineHours: 24,
      deposit: { ...RULE, methods: ["studio"] },
    });
    for (const [method, type] of [
      ["transfer", requestType],
      ["studio", atStudio],
    ] as const) {
      const asked = await book(nextSlot(), `lea-sans-adresse-${method}@example.test`, method, type);
      await db().update(bookings).set({ clientEmail: "" }).where(eq(bookings.id, asked.id));
      await expect(
        acceptRequest(asked.id, { actor: "owner", userId: null, name: "Sophie" }),
      ).rejects.toMatchObject({ code: "deposit_needs_email", status: 409 });
      expect(await stateOf(asked.id)).toMatchObject({ state: "pending", depositOrderId: null });
      expect(await queuedDepositRequests(asked.id)).toEqual([]);
    }
  });

  it("keeps her hours when a card checkout lapses unpaid; the end of her window frees the slot, with one e-mail", async () => {
    const slot = nextSlot();
    const asked = await book(slot, "lea-carte-expiree@example.test", "card", requestType);
    await acceptRequest(asked.id, { actor: "owner", userId: null, name: "Sophie" });
    await requestAcceptedDeposit(asked.id, "card");
    const orderId = (await stateOf(asked.id))?.depositOrderId ?? "";
    try {
      // The checkout's 30 minutes are over, not her 24 hours: the checkout is closed, the order and the
      // slot wait, and she opens a new checkout from the order's page.
      setClockForTests(new Date(Date.now() + 31 * MINUTE));
      expect(await expireLapsedPayments()).toEqual({ attempts: 1, orders: 0 });
      expect((await stateOf(asked.id))?.state).toBe("awaiting_payment");
      expect(await orderStatus(orderId)).toBe("awaiting_payment");
      await expect(book(slot, "autre-carte@example.test")).rejects.toBeInstanceOf(SlotTakenError);
      expect((await retryCheckout(orderId)).checkout).toBe("ready");

      // Her window's end: the new checkout closed, the order released, the slot freed, and the client
      // told once (« rien n'a été débité »), not a second time by the payments core.
      setClockForTests(new Date(Date.now() + 25 * 60 * MINUTE));
      expect(await expireLapsedPayments()).toMatchObject({ attempts: 1 });
      expect((await stateOf(asked.id))?.state).toBe("expired");
      expect(await orderStatus(orderId)).toBe("expired");
      expect(await mailsOf(asked.id)).toEqual([
        "booking-client:requested",
        "booking-owner:requested",
        "booking-client:accepted",
        "booking-client:payment_expired",
      ]);
      expect(await buyerMailsOf(orderId)).toEqual([]);
    } finally {
      setClockForTests(null);
    }
  });

  it("reads « paiement non reçu », never « Demande expirée », when her window closes before its order was made", async () => {
    const asked = await book(
      nextSlot(),
      "lea-acceptee-sans-commande@example.test",
      "card",
      requestType,
    );
    await acceptRequest(asked.id, { actor: "owner", userId: null, name: "Sophie" });
    // Its order's job did not run in time (the card provider down, the worker stopped): her window closes.
    expect(await expireLapsedRequests(new Date(Date.now() + 25 * 60 * MINUTE))).toBeGreaterThan(0);
    await requestAcceptedDeposit(asked.id, "card");
    expect(await stateOf(asked.id)).toMatchObject({ state: "expired", depositOrderId: null });
    // An accepted request that lapsed unpaid: as its history line says, not a request left unanswered.
    const detail = await bookingDetail(asked.id);
    expect(detail?.events.map((event) => eventSentence(event))).toContain(
      "Non confirmée : paiement non reçu avant la date limite (le client est prévenu)",
    );
    expect(await exportedState("lea-acceptee-sans-commande@example.test")).toBe(
      "Non confirmée : paiement non reçu",
    );
    const told = await clientBookingEmail({ bookingId: asked.id, event: "payment_expired" });
    expect(told?.text).toContain("État : Non confirmée : paiement non reçu");
    expect(told?.text).not.toContain("Demande expirée");
  });

  it("asks it another way the owner still takes when she turned off the one the client chose, never a dead end", async () => {
    const owner = { actor: "owner", userId: null, name: "Sophie" } as const;
    const camille = { id: "", name: "Camille" };
    const byCard = await book(nextSlot(), "lea-carte-retiree@example.test", "card", requestType);
    const byTransfer = await book(
      nextSlot(),
      "lea-virement-retire@example.test",
      "transfer",
      requestType,
    );
    try {
      // Cards turned off (then her keys removed) between the request and her answer: a card checkout
      // would be refused, and the client's « Payer » lead nowhere. The transfer is asked instead.
      expect(await depositAcceptanceNotice(byCard.id)).toBeNull();
      await saveDocument("payments", { ...TAKES_BOTH, card: false }, camille, "test");
      // Her booking's page tells her before she accepts.
      expect(await depositAcceptanceNotice(byCard.id)).toBe(
        "La cliente a choisi de payer ses arrhes par carte, ce que vous ne prenez plus en ce moment (vos réglages de paiement) : en acceptant, ses arrhes lui sont demandées par virement, le lien de paiement par e-mail.",
      );
      expect(await acceptRequest(byCard.id, owner)).toBe("awaiting_payment");
      expect(await queuedDepositRequests(byCard.id)).toEqual(["transfer"]);

      // Neither taken any more: nothing can pay its deposit, the request is not accepted as it stands
      // (nothing held, nothing sent), the owner told in French what to do.
      await saveDocument(
        "payments",
        { ...TAKES_BOTH, card: false, transfer: false },
        camille,
        "test",
      );
      expect(await depositAcceptanceNotice(byTransfer.id)).toMatch(
        /^La cliente a choisi de payer ses arrhes par virement, .* : aucun des moyens de cette séance n'est pris\./,
      );
      await expect(acceptRequest(byTransfer.id, owner)).rejects.toMatchObject({
        code: "deposit_unpayable",
        status: 409,
        message: expect.stringMatching(
          /^Le paiement demandé pour cette séance ne peut plus être réglé/,
        ),
      });
      expect(await stateOf(byTransfer.id)).toMatchObject({
        state: "pending",
        depositOrderId: null,
      });
      expect(await queuedDepositRequests(byTransfer.id)).toEqual([]);
      // The transfer asked instead is made as any: her e-mail carries the order's page and its details.
      await requestAcceptedDeposit(byCard.id, "transfer");
      const [order] = await db()
        .select()
        .from(orders)
        .where(eq(orders.id, (await stateOf(byCard.id))?.depositOrderId ?? ""));
      expect(order).toMatchObject({ method: "transfer", amountCents: 3_000 });
      // Her e-mail says the way changed, and how to pay now, not only her order's page.
      const mail = await clientBookingEmail({ bookingId: byCard.id, event: "accepted" });
      expect(mail?.text).toContain(
        "Vous aviez choisi de régler vos arrhes par carte, un moyen de paiement que le studio ne prend pas en ce moment : elles vous sont demandées par virement. Le montant, le nom du titulaire, l'IBAN et la référence à indiquer sont sur la page de paiement ci-dessous.",
      );
      expect(mail?.text).toMatch(/réglez le paiement demandé avant le .* : http\S+\/commande\//);
    } finally {
      await saveDocument("payments", TAKES_BOTH, camille, "test");
    }
  });

  it("asks nothing when the booking was cancelled before its job ran", async () => {
    const asked = await book(nextSlot(), "lea-renonce@example.test", "transfer", requestType);
    await acceptRequest(asked.id, { actor: "owner", userId: null, name: "Sophie" });
    await cancelBooking(asked.id, { actor: "client" });
    await requestAcceptedDeposit(asked.id, "transfer");
    expect((await stateOf(asked.id))?.depositOrderId).toBeNull();
    expect(await mailsOf(asked.id)).not.toContain("booking-client:accepted");
  });
});

/** A booking's state as the owner's CSV export reads it (its third column), found by its client's address. */
async function exportedState(email: string): Promise<string | undefined> {
  const line = bookingsCsv(await bookingsForExport())
    .split("\r\n")
    .find((row) => row.includes(`"${email}"`));
  return line?.split(";")[2]?.replace(/^"|"$/g, "");
}

/** The methods of the deposit requests queued for a booking. */
async function queuedDepositRequests(bookingId: string): Promise<string[]> {
  const result = await db().execute<{ method: string }>(sql`
    select data->>'method' as method from pgboss.job
    where name = 'booking-deposit-request' and data->>'bookingId' = ${bookingId} order by created_on`);
  return result.rows.map((row) => row.method);
}

describe("the balance paid at the studio", () => {
  it("is recorded once from the booking, paid « au studio », with its final invoice", async () => {
    const made = await book(nextSlot(), "lea-solde@example.test", "card");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await payByCard(checkout.orderId, 3_000);
    const first = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 9_000,
      means: "card_terminal",
    });
    const again = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 9_000,
      means: "card_terminal",
    });
    expect(again.orderId).toBe(first.orderId);
    const [order] = await db().select().from(orders).where(eq(orders.id, first.orderId));
    expect(order).toMatchObject({ kind: "booking_balance", status: "paid", amountCents: 9_000 });
    const issued = await db().select().from(invoices).where(eq(invoices.orderId, first.orderId));
    expect(issued.map((invoice) => [invoice.kind, invoice.ttcCents])).toEqual([["final", 9_000]]);
    // The receipts book names each payment's invoice as its voucher: the deposit's and the balance's.
    const [deposit] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, checkout.orderId));
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    const receipts = (await receiptsBook({ from: today, to: today })).csv.split("\r\n");
    for (const number of [deposit?.number, issued[0]?.number]) {
      expect(receipts.filter((line) => line.split(";")[1] === `"${number}"`)).toHaveLength(1);
    }
  });

  it("restates the whole price on its final invoice and deducts the deposit's invoice by number and date", async () => {
    const made = await book(nextSlot(), "lea-facture-solde@example.test", "card");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await payByCard(checkout.orderId, 3_000);
    const [deposit] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, checkout.orderId));
    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 9_000,
      means: "cash",
    });
    const [final] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    const session = `${await typeName()} du ${instantLabelFr(made.startsAt)}`;
    expect(final?.lines).toEqual([
      { label: session, quantity: 1, unitPriceCents: 12_000, vatRate: null },
      {
        label: `Arrhes déjà facturées : facture ${deposit?.number} du ${formatDateFr(deposit?.issuedAt ?? "")}`,
        quantity: 1,
        unitPriceCents: -3_000,
        vatRate: null,
      },
    ]);
    // The money journal's 90 € and the invoice's total agree: what the accountant's exports sum.
    expect(final).toMatchObject({ kind: "final", ttcCents: 9_000, htCents: 9_000, vatCents: 0 });
    const paid = await db()
      .select({ kind: moneyJournal.kind, cents: moneyJournal.amountCents })
      .from(moneyJournal)
      .where(eq(moneyJournal.orderId, orderId));
    expect(paid).toEqual([{ kind: "payment", cents: 9_000 }]);
    expect(final?.paymentTerms).toMatch(/^Net à payer : 90,00\u00a0€ \(arrhes déduites\)\. Payée/);
  });

  it("issues first the deposit's invoice its seller's identity held back, and deducts it", async () => {
    const made = await book(nextSlot(), "lea-acompte-retenu@example.test", "card");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    // Paid while the identity is incomplete: no « facture d'acompte » yet.
    await saveDocument(
      "legal",
      structuredClone(seedDocuments.legal),
      { id: "", name: "Camille" },
      "test",
    );
    try {
      await payByCard(checkout.orderId, 3_000);
    } finally {
      await saveDocument("legal", completeLegal, { id: "", name: "Camille" }, "test");
    }
    expect(
      await db().select().from(invoices).where(eq(invoices.orderId, checkout.orderId)),
    ).toEqual([]);
    // Completed, and the balance recorded before the catch-up came by (it failed, or runs every 15 min).
    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 9_000,
      means: "cash",
    });
    const [deposit] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, checkout.orderId));
    const [final] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(deposit).toMatchObject({ kind: "deposit", ttcCents: 3_000 });
    expect(deposit?.paymentTerms).toMatch(/^Payée par carte bancaire le \d/);
    expect(deposit?.sequence).toBeLessThan(final?.sequence ?? 0);
    expect(final?.lines.map((line) => [line.label, line.unitPriceCents])).toEqual([
      [`${await typeName()} du ${instantLabelFr(made.startsAt)}`, 12_000],
      [
        `Arrhes déjà facturées : facture ${deposit?.number} du ${formatDateFr(deposit?.issuedAt ?? "")}`,
        -3_000,
      ],
    ]);
  });

  it("bills the balance alone once the deposit was refunded in full", async () => {
    const made = await book(nextSlot(), "lea-rembourse-solde@example.test", "card");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await payByCard(checkout.orderId, 3_000);
    await requestRefund(checkout.orderId, 3_000, "Geste commercial");
    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 12_000,
      means: "card_terminal",
    });
    const [final] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(final?.lines.map((line) => [line.label, line.unitPriceCents])).toEqual([
      [`Solde : ${await typeName()} du ${instantLabelFr(made.startsAt)}`, 12_000],
    ]);
    expect(final?.paymentTerms).toMatch(/^Payée /);
  });

  it("entered twice at once, of other amounts or means: one recorded, the other refused in French", async () => {
    for (const [other, email] of [
      [{ amountCents: 8_000, means: "cash" }, "lea-deux-montants@example.test"],
      [{ amountCents: 9_000, means: "card_terminal" }, "lea-deux-moyens@example.test"],
    ] as const) {
      const made = await book(nextSlot(), email, "card");
      const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
      await payByCard(checkout.orderId, 3_000);
      const entries = await Promise.allSettled([
        recordBalancePaid({ bookingId: made.id, amountCents: 9_000, means: "cash" }),
        recordBalancePaid({ bookingId: made.id, ...other }),
      ]);
      const refused = entries.filter((entry) => entry.status === "rejected");
      expect(refused).toHaveLength(1);
      expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(
        /Le solde de cette séance est déjà enregistré : \d+\s€ réglés le .+\. Pour le corriger, ouvrez sa commande\.|Un autre solde de cette séance est en cours d'enregistrement/,
      );
      const [recorded] = entries.flatMap((entry) =>
        entry.status === "fulfilled" ? [entry.value] : [],
      );
      const [order] = await db()
        .select()
        .from(orders)
        .where(eq(orders.id, recorded?.orderId ?? ""));
      const which = entries.findIndex((entry) => entry.status === "fulfilled");
      expect(order?.amountCents).toBe(which === 0 ? 9_000 : other.amountCents);
    }
  });

  it("is refused in French for a booking not confirmed yet", async () => {
    const waiting = await book(nextSlot(), "lea-attente@example.test", "transfer");
    await expect(
      recordBalancePaid({ bookingId: waiting.id, amountCents: 9_000, means: "cash" }),
    ).rejects.toThrow("Le solde s'enregistre pour une séance confirmée ou effectuée.");
  });
});

describe("a booking with a deposit moved by the owner", () => {
  const owner = { actor: "owner", userId: null, name: "Sophie" } as const;
  const invoicesOf = (orderId: string) =>
    db().select().from(invoices).where(eq(invoices.orderId, orderId));

  it("while it waits for its transfer, to another studio: its order and the deposit invoice issued once paid name the new time and studio", async () => {
    const slot = nextSlot();
    const made = await book(slot, "lea-deplacee@example.test", "transfer");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "transfer" });
    const [ordered] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(ordered?.studioId).toBe(brive);
    // A month later, at Ussel: no other test's booking (nor the travel between the studios) in the way.
    const to = `${addParisDays(slot.slice(0, 10), 30)}T10:00`;
    const moved = await moveBooking(made.id, { slot: to, studioId: ussel }, owner);
    expect(moved.startsAt).not.toEqual(made.startsAt);
    expect((await stateOf(made.id))?.studioId).toBe(ussel);
    const label = `Arrhes : ${await typeName()} du ${instantLabelFr(moved.startsAt)}`;
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, orderId));
    expect(lines.map((line) => line.label)).toEqual([label]);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order?.rulesSnapshot.startsAt).toBe(moved.startsAt.toISOString());
    // The order is the session's at its new studio, as the booking is.
    expect(order?.studioId).toBe(ussel);

    await markPaidOffline(orderId, "transfer");
    expect((await stateOf(made.id))?.state).toBe("confirmed");
    const [invoice] = await invoicesOf(orderId);
    expect(invoice?.serviceDate).toBe(to.slice(0, 10));
    expect(invoice?.lines.map((line) => line.label)).toEqual([label]);
  });

  it("moved sooner than its payment's deadline: the booking's hold and its order's end at the new start", async () => {
    // Booked in two days with its transfer awaited 24 hours, then moved to a time within those hours:
    // the first whole hour from two hours on that the type takes (08:00 to 19:00 in Paris), whatever the
    // time the test runs (the hour once read from Intl's whole « 00 h » was no number: the next day's 08:00
    // was taken, after the deadline from midnight to 8 in Paris).
    const today = isoDayInParis(new Date());
    let sooner = "";
    for (let ahead = 2; ahead < 24 && sooner === ""; ahead++) {
      const local = parisDateTimeInputValue(new Date(Date.now() + ahead * 3_600_000));
      const hour = Number(local.slice(11, 13));
      if (hour >= 8 && hour <= 19) sooner = `${local.slice(0, 13)}:00`;
    }
    const made = await book(
      `${addParisDays(today, 2)}T10:00`,
      "lea-avancee@example.test",
      "transfer",
    );
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "transfer" });
    const deadline = (await stateOf(made.id))?.respondBy;
    const moved = await moveBooking(made.id, { slot: sooner }, owner);
    expect(moved.startsAt.getTime()).toBeLessThan(deadline?.getTime() ?? 0);
    expect((await stateOf(made.id))?.respondBy).toEqual(moved.startsAt);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order?.payBy).toEqual(moved.startsAt);
    // Its transfer's attempt ends then too: the expiry job releases the order at its new deadline (an
    // attempt still open kept it payable until the first one).
    const attempts = await db()
      .select({ expiresAt: paymentAttempts.expiresAt })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    expect(attempts).toEqual([{ expiresAt: moved.startsAt }]);
  });

  it("once its deposit is paid, to another studio: its invoice keeps the day it was paid for, the balance's final invoice names the new one", async () => {
    const slot = nextSlot();
    const made = await book(slot, "lea-deplacee-payee@example.test", "card");
    const checkout = await createDepositOrder({ bookingId: made.id, method: "card" });
    await payByCard(checkout.orderId, 3_000);
    const [paidFor] = await invoicesOf(checkout.orderId);
    // A month and a day later, at Ussel: another day than the first, whatever its hour.
    const to = `${addParisDays(slot.slice(0, 10), 31)}T10:00`;
    const moved = await moveBooking(made.id, { slot: to, studioId: ussel }, owner);
    const [deposit] = await invoicesOf(checkout.orderId);
    expect(deposit).toEqual(paidFor);
    expect(deposit?.serviceDate).toBe(slot.slice(0, 10));
    const lines = await db()
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, checkout.orderId));
    expect(lines.map((line) => line.label)).toEqual([
      `Arrhes : ${await typeName()} du ${instantLabelFr(made.startsAt)}`,
    ]);
    // The paid order stays the sale it was, as its invoice does.
    const [paid] = await db().select().from(orders).where(eq(orders.id, checkout.orderId));
    expect(paid?.studioId).toBe(brive);
    expect(paid?.rulesSnapshot.startsAt).toBe(made.startsAt.toISOString());

    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 9_000,
      means: "cash",
    });
    const [balance] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(balance?.studioId).toBe(ussel);
    const [final] = await invoicesOf(orderId);
    expect(final?.serviceDate).toBe(to.slice(0, 10));
    expect(final?.lines[0]?.label).toBe(`${await typeName()} du ${instantLabelFr(moved.startsAt)}`);
  });
});
