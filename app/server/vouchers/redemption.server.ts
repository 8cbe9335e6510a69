import { and, eq, gte, isNull, sql } from "drizzle-orm";
import { isoDayInParis } from "~/lib/dates";
import { formatCents } from "~/lib/prices";
import { parseVoucherCode } from "~/lib/vouchers/code";
import { formatCalendarDayFr } from "~/lib/vouchers/terms";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import {
  moneyJournal,
  orders,
  sessionTypes,
  studios,
  voucherUses,
  vouchers,
  type VoucherStatus,
} from "../db/schema";
import type { InvoiceRecord } from "../invoices/issue.server";
import { creditVoucherUse, invoiceOfUse, invoiceVoucherUse } from "../invoices/voucher-uses.server";
import { appendJournal, type Tx } from "../payments/journal.server";
import { PARTIAL_REFUND, refundedBeyondBalance, voucherHeldByRefunds } from "./order-kind.server";

/*
 * Redeeming gift vouchers, never twice (decision 0167): each use is one compare-and-set on the voucher
 * (`UPDATE … WHERE status = 'active' AND expires_on >= today [AND balance_cents >= amount] RETURNING`) in
 * one transaction with its `voucher_uses` row and its `voucher_redemption` journal row. When nothing
 * matched, the voucher is read again only to say why, in French. Each use first locks the voucher's order,
 * as a refund locks it when asked and when done: what the refunds on their way will take of the voucher
 * is then out of reach, and a refund asked at the same moment waits for the use or is seen by it.
 */

export type VoucherRecord = typeof vouchers.$inferSelect;
export type VoucherUseRecord = typeof voucherUses.$inferSelect;

export type VoucherRefusalReason =
  | "invalid_code"
  | "unknown"
  | "not_session"
  | "not_amount"
  | "other_session_type"
  | "other_studio"
  | "expired"
  | "used"
  | "cancelled"
  | "not_paid"
  | "insufficient_balance"
  | "invalid_amount"
  | "refund_pending";

export type VoucherRefusal = { ok: false; reason: VoucherRefusalReason; message: string };

export type VoucherRedemption =
  { ok: true; voucher: VoucherRecord; use: VoucherUseRecord } | VoucherRefusal;

const refused = (reason: VoucherRefusalReason, message: string): VoucherRefusal => ({
  ok: false,
  reason,
  message,
});

const UNKNOWN = "Ce code ne correspond à aucun bon cadeau : vérifiez-le.";
const REFUND_PENDING = refused(
  "refund_pending",
  "Ce bon est en cours de remboursement : il ne peut plus servir.",
);

/**
 * The order of the voucher with this code, its row locked (before the voucher's, in the order
 * completeRefund and giveBackBookingVoucher take them), and that voucher read under the lock; null when no
 * voucher has this code.
 */
async function lockVoucherAndOrder(tx: Tx, code: string) {
  const [order] = await tx
    .select({ id: orders.id, amountCents: orders.amountCents })
    .from(orders)
    .where(
      sql`${orders.id} = (select ${vouchers.orderId} from ${vouchers} where ${vouchers.code} = ${code})`,
    )
    .for("update");
  if (!order) return null;
  const [voucher] = await tx.select().from(vouchers).where(eq(vouchers.code, code));
  return voucher ? { order, voucher } : null;
}

/** Why a voucher in `status` cannot be used (other than its kind, session or studio). */
function refusalOfState(voucher: VoucherRecord, today: string): VoucherRefusal | null {
  const byStatus: Partial<Record<VoucherStatus, VoucherRefusal>> = {
    awaiting_payment: refused(
      "not_paid",
      "Ce bon n'est pas encore payé : il sera utilisable dès que son paiement sera reçu.",
    ),
    used: refused(
      "used",
      voucher.kind === "amount"
        ? "Ce bon a déjà été entièrement utilisé."
        : "Ce bon a déjà été utilisé.",
    ),
    cancelled: refused("cancelled", "Ce bon a été annulé."),
  };
  const byState = byStatus[voucher.status];
  if (byState) return byState;
  if (voucher.status === "expired" || (voucher.expiresOn !== null && voucher.expiresOn < today)) {
    return refused(
      "expired",
      `Ce bon a expiré le ${formatCalendarDayFr(voucher.expiresOn ?? today)}.`,
    );
  }
  return null;
}

/** The stored code of what a person typed, or the reason it is not one. */
function readCode(typed: string): { code: string } | { refusal: VoucherRefusal } {
  const parsed = parseVoucherCode(typed);
  return parsed.ok ? { code: parsed.code } : { refusal: refused("invalid_code", parsed.message) };
}

/**
 * Redeems a session voucher for a booking of `sessionTypeId` at `studioId` (the booking form, the owner's
 * booking), inside the booking's transaction: refused with a French reason, or used once.
 */
export async function redeemSessionVoucher(
  tx: Tx,
  input: {
    code: string;
    sessionTypeId: string;
    studioId: string;
    bookingId: string | null;
    by?: "client" | "owner";
  },
): Promise<VoucherRedemption> {
  const read = readCode(input.code);
  if ("refusal" in read) return read.refusal;
  const today = isoDayInParis(now());
  const at = now();
  const locked = await lockVoucherAndOrder(tx, read.code);
  if (locked?.voucher.kind === "session" && locked.voucher.status === "active") {
    // Its whole price on its way back: once given back, onRefunded cancels it.
    const held = await voucherHeldByRefunds(tx, locked.voucher, locked.order);
    if (held.cancels) return REFUND_PENDING;
  }
  const [used] = await tx
    .update(vouchers)
    .set({ status: "used", balanceCents: 0, updatedAt: at })
    .where(
      and(
        eq(vouchers.code, read.code),
        eq(vouchers.kind, "session"),
        eq(vouchers.status, "active"),
        gte(vouchers.expiresOn, today),
        eq(vouchers.sessionTypeId, input.sessionTypeId),
        sql`(${vouchers.studioId} is null or ${vouchers.studioId} = ${input.studioId})`,
      ),
    )
    .returning();
  if (!used) return explainSessionRefusal(tx, read.code, input, today);
  const [use] = await tx
    .insert(voucherUses)
    .values({
      voucherId: used.id,
      amountCents: used.valueCents,
      bookingId: input.bookingId,
      by: input.by ?? "client",
      at,
    })
    .returning();
  if (!use) throw new Error("voucher_uses: no row inserted");
  await appendJournal(tx, {
    kind: "voucher_redemption",
    orderId: used.orderId,
    voucherId: used.id,
    amountCents: -used.valueCents,
    details: { code: used.code, useId: use.id, bookingId: input.bookingId, by: use.by },
  });
  return { ok: true, voucher: used, use };
}

async function explainSessionRefusal(
  tx: Tx,
  code: string,
  input: { sessionTypeId: string; studioId: string },
  today: string,
): Promise<VoucherRedemption> {
  const [voucher] = await tx.select().from(vouchers).where(eq(vouchers.code, code));
  if (!voucher) return refused("unknown", UNKNOWN);
  if (voucher.kind !== "session") {
    return refused(
      "not_session",
      "Ce bon est un montant à utiliser au studio, pas une séance : présentez-le le jour de votre séance.",
    );
  }
  const state = refusalOfState(voucher, today);
  if (state) return state;
  if (voucher.sessionTypeId !== input.sessionTypeId) {
    const [session] = voucher.sessionTypeId
      ? await tx
          .select({ name: sessionTypes.name })
          .from(sessionTypes)
          .where(eq(sessionTypes.id, voucher.sessionTypeId))
      : [];
    return refused(
      "other_session_type",
      `Ce bon offre une autre séance (${session?.name ?? voucher.label}) : choisissez celle-ci pour l'utiliser.`,
    );
  }
  if (voucher.studioId !== null && voucher.studioId !== input.studioId) {
    const [studio] = await tx
      .select({ name: sql<string>`${studios.data} ->> 'name'` })
      .from(studios)
      .where(eq(studios.id, voucher.studioId));
    return refused(
      "other_studio",
      `Ce bon n'est valable que dans un autre studio${studio?.name ? ` (${studio.name})` : ""}.`,
    );
  }
  // It matched nothing a moment ago and everything now: used meanwhile by a concurrent redemption.
  return refused("used", "Ce bon a déjà été utilisé.");
}

/**
 * A booking paid with a voucher was cancelled in time (or a request declined or lapsed; `amountOnly`: the
 * studio cancelled later, which gives back a deposit but not a session): what the voucher paid comes back
 * (its use marked given back, a journal row of the amount back): a session voucher is usable again, an
 * amount voucher that paid the deposit has the sum on its balance again (decision 0199, giveBackAmount),
 * and the use's invoice gets its credit note. Nothing when the booking used no voucher or it was already
 * given back. A voucher whose order was refunded in full (or an amount voucher cancelled otherwise than
 * by a partial refund) never comes back into use: its use is given back all the same (the booking no
 * longer holds it) and it is (or stays) cancelled, with its cancellation row of what came back, so that
 * the vouchers' rows still sum to what the studio owes. The order's row is locked as a refund's completion
 * locks it: a refund completing now either came first (its status read here) or finds the voucher active
 * again and cancels it.
 */
export async function giveBackBookingVoucher(
  tx: Tx,
  bookingId: string,
  options: { amountOnly?: boolean } = {},
): Promise<VoucherRecord | null> {
  const at = now();
  const [use] = await tx
    .update(voucherUses)
    .set({ cancelledAt: at })
    .where(
      and(
        eq(voucherUses.bookingId, bookingId),
        isNull(voucherUses.cancelledAt),
        options.amountOnly
          ? sql`exists (select 1 from ${vouchers} where ${vouchers.id} = ${voucherUses.voucherId}
              and ${vouchers.kind} = 'amount')`
          : undefined,
      ),
    )
    .returning();
  if (!use) return null;
  const [order] = await tx
    .select({ id: orders.id, status: orders.status, amountCents: orders.amountCents })
    .from(orders)
    .where(
      sql`${orders.id} = (select ${vouchers.orderId} from ${vouchers} where ${vouchers.id} = ${use.voucherId})`,
    )
    .for("update");
  // Locked, as a redemption locks it: the owner's « Annuler le bon » at the same moment either came first
  // (read here, the voucher stays cancelled) or waits and cancels what comes back.
  const [current] = await tx
    .select()
    .from(vouchers)
    .where(eq(vouchers.id, use.voucherId))
    .for("update");
  if (!order || !current) return null;
  const voucher =
    current.kind === "session"
      ? await giveBackSession(tx, { current, use, order, at, bookingId })
      : await giveBackAmount(tx, { current, use, order, at, bookingId });
  // Its TVA was invoiced at the use (an amount voucher's, decision 0198): the credit note gives it back.
  await creditVoucherUse(tx, use);
  return voucher;
}

type GiveBack = {
  current: VoucherRecord;
  use: VoucherUseRecord;
  order: { id: string; status: string; amountCents: number };
  at: Date;
  bookingId: string;
};

/** The journal's row of a use given back, and, when the voucher does not come back, its cancellation. */
async function journalGiveBack(
  tx: Tx,
  { use, bookingId }: GiveBack,
  voucher: VoucherRecord,
  cancelled: { cents: number; reason: string } | null,
) {
  await appendJournal(tx, {
    kind: "voucher_redemption",
    orderId: voucher.orderId,
    voucherId: voucher.id,
    amountCents: use.amountCents,
    details: { code: voucher.code, useId: use.id, bookingId, givenBack: true },
  });
  if (cancelled && cancelled.cents > 0) {
    await appendJournal(tx, {
      kind: "voucher_cancellation",
      orderId: voucher.orderId,
      voucherId: voucher.id,
      amountCents: -cancelled.cents,
      details: {
        code: voucher.code,
        reason: cancelled.reason,
        useId: use.id,
        bookingId,
        balanceCents: voucher.balanceCents,
      },
    });
  }
}

/**
 * The status of a voucher that something comes back to: `expired` past its last day (Paris), as the
 * morning's job would mark it, rather than `active` until then.
 */
const statusBack = (voucher: VoucherRecord, at: Date) =>
  voucher.status === "expired" ||
  (voucher.expiresOn !== null && voucher.expiresOn < isoDayInParis(at))
    ? ("expired" as const)
    : ("active" as const);

/** A session voucher usable again, or cancelled once its order was refunded in full. */
async function giveBackSession(tx: Tx, input: GiveBack): Promise<VoucherRecord | null> {
  const refunded = input.order.status === "refunded";
  const [voucher] = await tx
    .update(vouchers)
    .set({
      status: refunded ? "cancelled" : statusBack(input.current, input.at),
      balanceCents: sql`${vouchers.valueCents}`,
      ...(refunded ? { cancelledAt: input.at } : {}),
      updatedAt: input.at,
    })
    .where(and(eq(vouchers.id, input.current.id), eq(vouchers.status, "used")))
    .returning();
  if (!voucher) return null;
  await journalGiveBack(
    tx,
    input,
    voucher,
    refunded ? { cents: input.use.amountCents, reason: "order_refunded" } : null,
  );
  return voucher;
}

/**
 * The sum an amount voucher paid back on its balance (decision 0199), less what refunds already gave back
 * in money beyond its balance (that part of the use is not the holder's again: a `partial_refund`
 * cancellation of it, as lowerVoucherBalance would have written had it been on the balance). A voucher
 * cancelled otherwise (its order refunded in full, the owner's « Annuler le bon ») stays cancelled: the sum
 * comes back and is cancelled with it. One emptied by a partial refund is usable again with what is back.
 */
async function giveBackAmount(tx: Tx, input: GiveBack): Promise<VoucherRecord | null> {
  const { current, use, order, at } = input;
  const [otherwise] =
    current.status === "cancelled"
      ? await tx
          .select({ seq: moneyJournal.seq })
          .from(moneyJournal)
          .where(
            and(
              eq(moneyJournal.voucherId, current.id),
              eq(moneyJournal.kind, "voucher_cancellation"),
              sql`coalesce(${moneyJournal.details} ->> 'reason', '') <> ${PARTIAL_REFUND}`,
            ),
          )
          .limit(1)
      : [];
  if (order.status === "refunded" || otherwise) {
    const [voucher] = await tx
      .update(vouchers)
      .set({
        status: "cancelled",
        balanceCents: sql`${vouchers.balanceCents} + ${use.amountCents}`,
        cancelledAt: current.cancelledAt ?? at,
        updatedAt: at,
      })
      .where(eq(vouchers.id, current.id))
      .returning();
    if (!voucher) return null;
    const reason = order.status === "refunded" ? "order_refunded" : "voucher_cancelled";
    await journalGiveBack(tx, input, voucher, { cents: use.amountCents, reason });
    return voucher;
  }
  const absorbed = Math.min(use.amountCents, await refundedBeyondBalance(tx, current, order));
  const balance = current.balanceCents + use.amountCents - absorbed;
  const [voucher] = await tx
    .update(vouchers)
    .set({
      balanceCents: balance,
      // Nothing back (the refunds took it all): it stays as it was, used or cancelled.
      ...(balance > 0 ? { status: statusBack(current, at), cancelledAt: null } : {}),
      updatedAt: at,
    })
    .where(eq(vouchers.id, current.id))
    .returning();
  if (!voucher) return null;
  await journalGiveBack(
    tx,
    input,
    voucher,
    absorbed > 0 ? { cents: absorbed, reason: PARTIAL_REFUND } : null,
  );
  return voucher;
}

/** A use of an amount voucher, or the one the same form had already made (`repeated`: nothing taken). */
export type AmountVoucherUse =
  | {
      ok: true;
      voucher: VoucherRecord;
      use: VoucherUseRecord;
      /** The use's invoice (decision 0198); null under the franchise or while the identity is incomplete. */
      invoice: InvoiceRecord | null;
      repeated: boolean;
    }
  | VoucherRefusal;

/** The use the owner's form with this key made, with its voucher as it is now. */
async function useOfForm(
  tx: Tx,
  key: string,
): Promise<{
  voucher: VoucherRecord;
  use: VoucherUseRecord;
  invoice: InvoiceRecord | null;
} | null> {
  const [found] = await tx
    .select({ use: voucherUses, voucher: vouchers })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .where(eq(voucherUses.idempotencyKey, key));
  return found ? { ...found, invoice: await invoiceOfUse(tx, found.use.id) } : null;
}

/** Rolls back a use whose form's key another transaction stored first (read after, as `repeated`). */
class UsedByTheSameForm extends Error {}

/**
 * Takes `amountCents` from an amount voucher in `tx`, only while its balance, less what the refunds on
 * their way will lower it by (no longer the holder's to spend), covers it: a conditional update, so two
 * uses at once never take more than is left; `used` once nothing is left. Writes the use and its journal
 * row. Null when nothing matched (explainAmountRefusal says why); throws UsedByTheSameForm when the form's
 * key was stored by another transaction meanwhile.
 */
async function takeAmount(
  tx: Tx,
  input: {
    code: string;
    amountCents: number;
    today: string;
    by: "owner" | "client";
    bookingId: string | null;
    /** The booking whose balance the owner takes from the voucher at the studio (decision 0201). */
    balanceOfBookingId?: string | null;
    idempotencyKey: string | null;
  },
): Promise<{ voucher: VoucherRecord; use: VoucherUseRecord } | null> {
  const at = now();
  const amount = input.amountCents;
  const locked = await lockVoucherAndOrder(tx, input.code);
  const held =
    locked?.voucher.kind === "amount"
      ? await voucherHeldByRefunds(tx, locked.voucher, locked.order)
      : null;
  const [used] = await tx
    .update(vouchers)
    .set({
      balanceCents: sql`${vouchers.balanceCents} - ${amount}`,
      status: sql`case when ${vouchers.balanceCents} - ${amount} = 0 then 'used' else 'active' end`,
      updatedAt: at,
    })
    .where(
      and(
        eq(vouchers.code, input.code),
        eq(vouchers.kind, "amount"),
        eq(vouchers.status, "active"),
        gte(vouchers.expiresOn, input.today),
        gte(vouchers.balanceCents, amount + (held?.heldCents ?? 0)),
      ),
    )
    .returning();
  if (!used) return null;
  const [use] = await tx
    .insert(voucherUses)
    .values({
      voucherId: used.id,
      amountCents: amount,
      bookingId: input.bookingId,
      balanceOfBookingId: input.balanceOfBookingId ?? null,
      by: input.by,
      idempotencyKey: input.idempotencyKey,
      at,
    })
    .onConflictDoNothing({ target: voucherUses.idempotencyKey })
    .returning();
  if (!use) throw new UsedByTheSameForm();
  await appendJournal(tx, {
    kind: "voucher_redemption",
    orderId: used.orderId,
    voucherId: used.id,
    amountCents: -amount,
    details: {
      code: used.code,
      useId: use.id,
      by: input.by,
      balanceCents: used.balanceCents,
      ...(input.bookingId ? { bookingId: input.bookingId } : {}),
      ...(input.balanceOfBookingId ? { balanceOfBookingId: input.balanceOfBookingId } : {}),
    },
  });
  return { voucher: used, use };
}

/**
 * Why `takeAmount` took nothing, in French: no such voucher, a session voucher, its state, a refund on
 * its way, or a balance too small (`short(usable)` begins the sentence, « Il ne reste que 20 € »).
 */
async function explainAmountRefusal(
  tx: Tx,
  code: string,
  today: string,
  short: (usableCents: number) => string,
): Promise<VoucherRefusal> {
  const locked = await lockVoucherAndOrder(tx, code);
  if (!locked) return refused("unknown", UNKNOWN);
  const { voucher, order } = locked;
  if (voucher.kind !== "amount") {
    return refused(
      "not_amount",
      "Ce bon offre une séance : il s'utilise en réservant cette séance.",
    );
  }
  const state = refusalOfState(voucher, today);
  if (state) return state;
  const held = await voucherHeldByRefunds(tx, voucher, order);
  const usable = voucher.balanceCents - held.heldCents;
  if (held.cancels || usable <= 0) return REFUND_PENDING;
  return refused(
    "insufficient_balance",
    held.heldCents > 0
      ? `${short(usable)} utilisables sur ce bon : ${formatCents(held.heldCents)} de son solde partent dans un remboursement en cours.`
      : `${short(voucher.balanceCents)} sur ce bon.`,
  );
}

/**
 * An amount voucher pays a booking's deposit (decision 0199), in the booking's transaction: the whole
 * deposit taken from its balance as one use of the booking (never a part: the rest would need a payment
 * of its own), its use invoiced as the booking's deposit when the seller charges TVA (decision 0198: the
 * booking carries the deposit's rules by then). Refused in French otherwise, saying what the client can do.
 */
export async function payDepositWithAmountVoucher(
  tx: Tx,
  input: { code: string; depositCents: number; bookingId: string },
): Promise<VoucherRedemption> {
  const read = readCode(input.code);
  if ("refusal" in read) return read.refusal;
  const today = isoDayInParis(now());
  const taken = await takeAmount(tx, {
    code: read.code,
    amountCents: input.depositCents,
    today,
    by: "client",
    bookingId: input.bookingId,
    idempotencyKey: null,
  });
  if (!taken) {
    const refusal = await explainAmountRefusal(
      tx,
      read.code,
      today,
      (usable) =>
        `Ce bon ne couvre pas les ${formatCents(input.depositCents)} à régler d'avance : il ne reste que ${formatCents(usable)}`,
    );
    return refusal.reason === "insufficient_balance"
      ? {
          ...refusal,
          message: `${refusal.message} Effacez le code pour régler cette somme autrement ; le bon servira au studio.`,
        }
      : refusal;
  }
  await invoiceVoucherUse(tx, taken.voucher, taken.use);
  return { ok: true, ...taken };
}

/**
 * Part or all of a booking's balance taken from an amount voucher at the studio (« Solde payé au studio »,
 * decision 0201), in `tx`, the booking's row locked: the balance order's transaction when money comes with
 * it, so that the order and the use exist together or not at all. One use of the booking's balance, keyed
 * by the booking, invoiced as that balance. Refused in French otherwise (`ok: false`), taking nothing.
 */
export async function takeBalanceFromVoucher(
  tx: Tx,
  input: { code: string; amountCents: number; bookingId: string; idempotencyKey: string },
): Promise<VoucherRedemption> {
  const read = readCode(input.code);
  if ("refusal" in read) return read.refusal;
  const today = isoDayInParis(now());
  // The caller holds the booking's row and found no use of its balance: the key cannot conflict.
  const taken = await takeAmount(tx, {
    code: read.code,
    amountCents: input.amountCents,
    today,
    by: "owner",
    bookingId: null,
    balanceOfBookingId: input.bookingId,
    idempotencyKey: input.idempotencyKey,
  });
  if (!taken) {
    return explainAmountRefusal(
      tx,
      read.code,
      today,
      (usable) => `Il ne reste que ${formatCents(usable)}`,
    );
  }
  await invoiceVoucherUse(tx, taken.voucher, taken.use);
  return { ok: true, ...taken };
}

/**
 * The owner uses `amountCents` of an amount voucher at the studio: taken from its balance only while the
 * balance covers it (a conditional update: two uses at once never take more than is left), `used` once
 * nothing is left. `idempotencyKey`: her form's key, stored on the use: the same form posted again finds
 * that use (`repeated`) and takes nothing, also when both posts arrive at once (the second's row conflicts
 * and its balance change is rolled back, or it finds the balance taken and then the first's use).
 */
export async function useAmountVoucher(input: {
  code: string;
  amountCents: number;
  idempotencyKey?: string;
}): Promise<AmountVoucherUse> {
  const read = readCode(input.code);
  if ("refusal" in read) return read.refusal;
  const amount = input.amountCents;
  if (!Number.isInteger(amount) || amount <= 0) {
    return refused("invalid_amount", "Indiquez un montant positif, en euros et centimes.");
  }
  const key = input.idempotencyKey ?? null;
  const today = isoDayInParis(now());
  const repeated = (found: {
    voucher: VoucherRecord;
    use: VoucherUseRecord;
    invoice: InvoiceRecord | null;
  }): AmountVoucherUse => ({
    ok: true,
    ...found,
    repeated: true,
  });
  try {
    return await db().transaction(async (tx): Promise<AmountVoucherUse> => {
      const earlier = key ? await useOfForm(tx, key) : null;
      if (earlier) return repeated(earlier);
      const taken = await takeAmount(tx, {
        code: read.code,
        amountCents: amount,
        today,
        by: "owner",
        bookingId: null,
        idempotencyKey: key,
      });
      if (!taken) {
        // The same form's first post may have just taken what was left: its use answers.
        const first = key ? await useOfForm(tx, key) : null;
        if (first) return repeated(first);
        return explainAmountRefusal(
          tx,
          read.code,
          today,
          (usable) => `Il ne reste que ${formatCents(usable)}`,
        );
      }
      // An amount is a multi-purpose voucher: its TVA is due now, on an invoice of this use.
      const invoice = await invoiceVoucherUse(tx, taken.voucher, taken.use);
      return { ok: true, ...taken, invoice, repeated: false };
    });
  } catch (error) {
    if (!(error instanceof UsedByTheSameForm) || !key) throw error;
    const first = await db().transaction((tx) => useOfForm(tx, key));
    if (!first) throw new Error("voucher_uses: a form's key conflicted with no use");
    return repeated(first);
  }
}

/** A voucher by what a person typed (the admin's search), with its uses; null for none. */
export async function findVoucherByCode(
  typed: string,
): Promise<{ voucher: VoucherRecord; uses: VoucherUseRecord[] } | null> {
  const parsed = parseVoucherCode(typed);
  if (!parsed.ok) return null;
  const [voucher] = await db().select().from(vouchers).where(eq(vouchers.code, parsed.code));
  if (!voucher) return null;
  const uses = await db()
    .select()
    .from(voucherUses)
    .where(eq(voucherUses.voucherId, voucher.id))
    .orderBy(voucherUses.at);
  return { voucher, uses };
}
