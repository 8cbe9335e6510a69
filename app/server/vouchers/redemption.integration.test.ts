import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertPhotographer, insertSessionType, studioIds } from "../../../tests/support/booking";
import { lockWaiters, useAppDatabase } from "../../../tests/support/database";
import { journalRowsOf } from "../../../tests/support/payments";
import {
  paidAmountVoucher,
  placeVoucherOrder,
  usesOf,
  voucherOrderOf,
  voucherRow,
} from "../../../tests/support/vouchers";
import { formatVoucherCode, generateVoucherCode } from "~/lib/vouchers/code";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { bookings, vouchers } from "../db/schema";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { verifyJournal } from "../payments/journal.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";
import { eq } from "drizzle-orm";
import { voucherForOwner } from "../booking/vouchers.server";
import { useSessionVoucherAtStudio, voucherPage } from "./admin-vouchers.server";
import { voucherOrderKind } from "./order-kind.server";
import {
  giveBackBookingVoucher,
  redeemSessionVoucher,
  useAmountVoucher,
  type VoucherRedemption,
} from "./redemption.server";

// Redeeming vouchers on a real PostgreSQL (decision 0167): never twice, even 50 at once; never more than
// an amount's balance; every refusal in French; a session given back when its booking is cancelled.

useAppDatabase({ jobs: true });

let studio = { ussel: "", brive: "", limoges: "" };
let iris = "";
let portrait = "";
let photographer = "";

beforeAll(async () => {
  provideOrderKinds([voucherOrderKind]);
  studio = await studioIds();
  iris = await insertSessionType([studio.brive, studio.ussel], { name: "Séance Iris" });
  portrait = await insertSessionType([studio.brive], { name: "Séance portrait" });
  photographer = await insertPhotographer("Sophie", [studio.brive, studio.ussel]);
});
afterEach(() => setClockForTests(null));

/** A paid session voucher for Iris (at Brive, or any studio); its id and code. */
async function sessionVoucher(studioId: string | null = studio.brive) {
  const { orderId, voucherId } = await placeVoucherOrder(
    voucherOrderOf({ kind: "session", sessionTypeId: iris, studioSlug: null, euros: 150 }),
    { studioId },
  );
  await markPaidOffline(orderId, "transfer");
  const voucher = await voucherRow(voucherId);
  return { orderId, voucherId, code: voucher.code ?? "", expiresOn: voucher.expiresOn ?? "" };
}

const amountVoucher = (euros = 100) => paidAmountVoucher(euros);

async function booking(studioId = studio.brive, sessionTypeId = iris) {
  const [row] = await db()
    .insert(bookings)
    .values({
      sessionTypeId,
      studioId,
      photographerId: photographer,
      startsAt: new Date("2027-03-01T09:00:00Z"),
      endsAt: new Date("2027-03-01T10:00:00Z"),
      state: "confirmed",
      clientName: "Élodie Françoise",
      clientEmail: "elodie@example.test",
      manageTokenHash: randomUUID().replace(/-/g, "").padEnd(64, "0"),
    })
    .returning({ id: bookings.id });
  return row?.id ?? "";
}

const redeem = (
  code: string,
  overrides: Partial<Parameters<typeof redeemSessionVoucher>[1]> = {},
) =>
  db().transaction((tx) =>
    redeemSessionVoucher(tx, {
      code,
      sessionTypeId: iris,
      studioId: studio.brive,
      bookingId: null,
      ...overrides,
    }),
  );

const reasonOf = (result: VoucherRedemption) => (result.ok ? "ok" : result.reason);

describe("redeemSessionVoucher", () => {
  it("redeems a session voucher once, typed as a person types it, with its use and its journal row", async () => {
    const { orderId, voucherId, code } = await sessionVoucher();
    const bookingId = await booking();
    const result = await redeem(formatVoucherCode(code).toLowerCase(), { bookingId });
    expect(result).toMatchObject({ ok: true, voucher: { status: "used", balanceCents: 0 } });
    expect(await usesOf(voucherId)).toEqual([
      expect.objectContaining({ amountCents: 15_000, bookingId, by: "client", cancelledAt: null }),
    ]);
    const journal = await journalRowsOf(orderId);
    expect(journal.at(-1)).toMatchObject({
      kind: "voucher_redemption",
      amountCents: -15_000,
      voucherId,
    });
    expect(await redeem(code)).toMatchObject({
      ok: false,
      reason: "used",
      message: "Ce bon a déjà été utilisé.",
    });
  });

  it("redeems exactly once when 50 bookings use the same voucher at the same time", async () => {
    const { voucherId, code } = await sessionVoucher(null);
    const results = await Promise.all(Array.from({ length: 50 }, () => redeem(code)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(new Set(results.filter((result) => !result.ok).map(reasonOf))).toEqual(
      new Set(["used"]),
    );
    expect(await usesOf(voucherId)).toHaveLength(1);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("refuses, saying why in French, each voucher it cannot take", async () => {
    const atBrive = await sessionVoucher(studio.brive);
    const amount = await amountVoucher();
    const unpaid = await placeVoucherOrder(
      voucherOrderOf({ kind: "session", sessionTypeId: iris, studioSlug: null, euros: 150 }),
    );
    // An unpaid voucher has no code yet: one given by hand shows the state's reason.
    const unpaidCode = generateVoucherCode();
    await db().update(vouchers).set({ code: unpaidCode }).where(eq(vouchers.id, unpaid.voucherId));
    const cancelled = await sessionVoucher(null);
    await db()
      .update(vouchers)
      .set({ status: "cancelled" })
      .where(eq(vouchers.id, cancelled.voucherId));

    const cases: [Promise<VoucherRedemption>, string, RegExp][] = [
      [redeem(""), "invalid_code", /./],
      [
        redeem(`${atBrive.code.slice(0, 11)}${atBrive.code[11] === "0" ? "1" : "0"}`),
        "invalid_code",
        /vérifiez/,
      ],
      [redeem(generateVoucherCode()), "unknown", /aucun bon cadeau/],
      [redeem(amount.code), "not_session", /montant/],
      [redeem(atBrive.code, { sessionTypeId: portrait }), "other_session_type", /Séance Iris/],
      [redeem(atBrive.code, { studioId: studio.ussel }), "other_studio", /autre studio/],
      [redeem(unpaidCode), "not_paid", /pas encore payé/],
      [redeem(cancelled.code), "cancelled", /annulé/],
    ];
    for (const [result, reason, message] of cases) {
      const answer = await result;
      expect(answer).toMatchObject({ ok: false, reason });
      if (!answer.ok) expect(answer.message).toMatch(message);
    }

    // The day after its last day.
    setClockForTests(new Date(`${atBrive.expiresOn}T23:30:00Z`));
    expect(await redeem(atBrive.code)).toMatchObject({
      ok: false,
      reason: "expired",
      message: expect.stringMatching(/^Ce bon a expiré le \d/),
    });
    // Its last day is still good (23:30 in Paris on that day).
    setClockForTests(new Date(`${atBrive.expiresOn}T21:30:00Z`));
    expect(await redeem(atBrive.code)).toMatchObject({ ok: true });
  });
});

describe("giveBackBookingVoucher", () => {
  it("gives the voucher back when its booking is cancelled, once", async () => {
    const { orderId, voucherId, code } = await sessionVoucher();
    const bookingId = await booking();
    await redeem(code, { bookingId });
    const back = await db().transaction((tx) => giveBackBookingVoucher(tx, bookingId));
    expect(back).toMatchObject({ status: "active", balanceCents: 15_000 });
    expect(await db().transaction((tx) => giveBackBookingVoucher(tx, bookingId))).toBeNull();
    expect((await usesOf(voucherId))[0]?.cancelledAt).not.toBeNull();
    const journal = (await journalRowsOf(orderId)).filter(
      (row) => row.kind === "voucher_redemption",
    );
    expect(journal.map((row) => row.amountCents)).toEqual([-15_000, 15_000]);
    // The owner's list counts the uses that stand: the one given back is no longer one.
    const listed = async () => (await voucherPage({ status: null, search: code }, null)).rows;
    expect(await listed()).toEqual([expect.objectContaining({ status: "active", uses: 0 })]);
    // Usable again.
    expect(await redeem(code)).toMatchObject({ ok: true });
    expect(await listed()).toEqual([expect.objectContaining({ status: "used", uses: 1 })]);
  });
  it("never gives back a voucher whose order was refunded in full: cancelled, the vouchers' rows still true", async () => {
    const { orderId, voucherId, code } = await sessionVoucher();
    const bookingId = await booking();
    expect(await redeem(code, { bookingId })).toMatchObject({ ok: true });
    // The owner gives the whole price back while the booking stands.
    const refund = await requestRefund(orderId, 15_000, "Geste commercial");
    await markRefundedOffline(refund.id);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "used" });
    // What the owner reads on the booking's page.
    expect((await voucherForOwner(bookingId)).line).toMatch(
      /^Réglée par bon cadeau .+, dont la commande a été remboursée en entier : si cette séance est annulée, le bon ne redeviendra pas utilisable\.$/,
    );

    // The booking is then cancelled in time.
    const back = await db().transaction((tx) => giveBackBookingVoucher(tx, bookingId));
    expect(back).toMatchObject({ status: "cancelled" });
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    expect((await usesOf(voucherId))[0]?.cancelledAt).not.toBeNull();
    expect(await redeem(code, { bookingId: await booking() })).toMatchObject({
      ok: false,
      reason: "cancelled",
    });
    const vouchersRows = (await journalRowsOf(orderId)).filter((row) =>
      row.kind.startsWith("voucher_"),
    );
    expect(vouchersRows.map((row) => [row.kind, row.amountCents])).toEqual([
      ["voucher_issue", 15_000],
      ["voucher_redemption", -15_000],
      ["voucher_redemption", 15_000],
      ["voucher_cancellation", -15_000],
    ]);
    expect(await verifyJournal()).toMatchObject({ ok: true });
    expect((await voucherForOwner(bookingId)).line).toMatch(
      /^Le bon cadeau .+ qui réglait cette séance est annulé : sa commande a été remboursée en entier\.$/,
    );
    const listed = await voucherPage({ status: null, search: code }, null);
    expect(listed.rows).toEqual([
      expect.objectContaining({ status: "cancelled", orderRefunded: true }),
    ]);
  });
});

describe("useAmountVoucher", () => {
  it("takes partial uses from the balance until it is spent, listing each", async () => {
    const { voucherId, code } = await amountVoucher(100);
    expect(await useAmountVoucher({ code, amountCents: 3_000 })).toMatchObject({
      ok: true,
      voucher: { balanceCents: 7_000, status: "active" },
    });
    expect(await useAmountVoucher({ code, amountCents: 8_000 })).toMatchObject({
      ok: false,
      reason: "insufficient_balance",
      message: "Il ne reste que 70\u00a0€ sur ce bon.",
    });
    expect(await useAmountVoucher({ code, amountCents: 7_000 })).toMatchObject({
      ok: true,
      voucher: { balanceCents: 0, status: "used" },
    });
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({
      ok: false,
      reason: "used",
    });
    expect((await usesOf(voucherId)).map((use) => use.amountCents)).toEqual([3_000, 7_000]);
    expect(await useAmountVoucher({ code, amountCents: 0 })).toMatchObject({
      reason: "invalid_amount",
    });
    const session = await sessionVoucher();
    expect(await useAmountVoucher({ code: session.code, amountCents: 100 })).toMatchObject({
      reason: "not_amount",
    });
  });

  it("never takes more than the balance when 50 uses come at once", async () => {
    const { voucherId, code } = await amountVoucher(100);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => useAmountVoucher({ code, amountCents: 700 })),
    );
    // 14 × 7 € = 98 €: the 15th finds 2 € left.
    expect(results.filter((result) => result.ok)).toHaveLength(14);
    const uses = await usesOf(voucherId);
    expect(uses.reduce((sum, use) => sum + use.amountCents, 0)).toBe(9_800);
    expect(await voucherRow(voucherId)).toMatchObject({ balanceCents: 200, status: "active" });
  });

  it("takes a form's amount once when its key comes 10 times at once, and again later", async () => {
    const { orderId, voucherId, code } = await amountVoucher(100);
    const atOnce = (amountCents: number, idempotencyKey: string) =>
      Promise.all(
        Array.from({ length: 10 }, () => useAmountVoucher({ code, amountCents, idempotencyKey })),
      );
    const repeatedOf = (results: Awaited<ReturnType<typeof atOnce>>) =>
      results.map((result) => (result.ok ? result.repeated : result.reason)).sort();
    const once = [false, ...Array.from({ length: 9 }, () => true)];

    // 30 € of 100 €, the voucher's row held until the 4 posts the pool lets in wait for it: each then
    // finds the balance enough, and all but one meet the first's key on their use, their change undone.
    const first = randomUUID();
    const { posts } = await db().transaction(async (tx) => {
      await tx.select().from(vouchers).where(eq(vouchers.id, voucherId)).for("update");
      const racing = atOnce(3_000, first);
      await expect.poll(() => lockWaiters(tx)).toBe(4);
      return { posts: racing };
    });
    expect(repeatedOf(await posts)).toEqual(once);
    const again = await useAmountVoucher({ code, amountCents: 3_000, idempotencyKey: first });
    expect(again).toMatchObject({ ok: true, repeated: true, voucher: { balanceCents: 7_000 } });

    // The last 70 €: the posts that lose find the voucher spent, then the first's use, not a refusal.
    expect(repeatedOf(await atOnce(7_000, randomUUID()))).toEqual(once);
    expect((await usesOf(voucherId)).map((use) => use.amountCents)).toEqual([3_000, 7_000]);
    expect(await voucherRow(voucherId)).toMatchObject({ balanceCents: 0, status: "used" });
    const redemptions = (await journalRowsOf(orderId)).filter(
      (row) => row.kind === "voucher_redemption",
    );
    expect(redemptions.map((row) => row.amountCents)).toEqual([-3_000, -7_000]);
  });
});

describe("a refund of the voucher's order on its way", () => {
  it("refuses a session voucher whose whole price is being given back, online and at the studio, then it is cancelled", async () => {
    const { orderId, voucherId, code } = await sessionVoucher(null);
    // Paid by transfer: the refund waits for the owner to send the money and mark it given back.
    const refund = await requestRefund(orderId, 15_000, "Annulation demandée");
    expect(refund.status).toBe("to_refund_offline");
    const refusal = {
      ok: false,
      reason: "refund_pending",
      message: "Ce bon est en cours de remboursement : il ne peut plus servir.",
    };
    expect(await redeem(code, { bookingId: await booking() })).toMatchObject(refusal);
    expect(await useSessionVoucherAtStudio(voucherId)).toMatchObject(refusal);
    const listed = await voucherPage({ status: null, search: code }, null);
    expect(listed.rows).toEqual([
      expect.objectContaining({
        status: "active",
        refundHold: { onTheirWayCents: 15_000, cancels: true, heldCents: 15_000 },
      }),
    ]);

    await markRefundedOffline(refund.id);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    expect(await usesOf(voucherId)).toEqual([]);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("leaves a session voucher usable while only a goodwill part of its price is on its way", async () => {
    const { orderId, code } = await sessionVoucher();
    await requestRefund(orderId, 2_000, "Geste commercial");
    expect(await redeem(code)).toMatchObject({ ok: true });
  });

  it("keeps out of an amount voucher's reach what a partial refund on its way will take of its balance", async () => {
    const { orderId, voucherId, code } = await amountVoucher(100);
    const refund = await requestRefund(orderId, 8_000, "Geste commercial");
    expect(refund.status).toBe("to_refund_offline");
    expect(await useAmountVoucher({ code, amountCents: 10_000 })).toMatchObject({
      ok: false,
      reason: "insufficient_balance",
      message:
        "Il ne reste que 20\u00a0€ utilisables sur ce bon : 80\u00a0€ de son solde partent dans un remboursement en cours.",
    });
    expect(await useAmountVoucher({ code, amountCents: 2_000 })).toMatchObject({
      ok: true,
      voucher: { balanceCents: 8_000, status: "active" },
    });
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({
      ok: false,
      reason: "refund_pending",
    });

    // Given back: the 80 € leave the balance, nothing is left; the client had 20 € used and 80 € back.
    await markRefundedOffline(refund.id);
    expect(await voucherRow(voucherId)).toMatchObject({ balanceCents: 0, status: "cancelled" });
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("never lets uses at once take what a refund on its way will take", async () => {
    const { orderId, voucherId, code } = await amountVoucher(100);
    await requestRefund(orderId, 8_000, "Geste commercial");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => useAmountVoucher({ code, amountCents: 2_000 })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await voucherRow(voucherId)).toMatchObject({ balanceCents: 8_000 });
  });
});
