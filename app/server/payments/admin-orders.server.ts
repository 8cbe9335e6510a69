import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { OrderKind, OrderStatus, PaymentMethod } from "~/lib/payments/model";
import { isoDayInParis } from "~/lib/dates";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import {
  cursorColumn,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";
import { moneyJournal, orders, providerEvents, voucherExpiryChanges, vouchers } from "../db/schema";
import { readTransferReference } from "./transfer-reference";
import type { MailJobOutput } from "../mail/outbox.server";

/*
 * What the admin's sales pages read (decision 0130: paged on the server, 50 a page, newest first): the
 * orders with what they hold and what the owner must look at, an order's timeline, today's sales.
 */

export const ORDER_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: orders.createdAt, type: "timestamptz" },
    { expression: orders.id, type: "uuid" },
  ],
  direction: "desc",
};

export type OrderListFilter = {
  status: OrderStatus | null;
  kind: OrderKind | null;
  method: PaymentMethod | null;
  /** What the owner typed in the list's search box (trimmed and bounded by the loader); empty: none. */
  search: string;
};

/** A transfer reference without its dash, as a bank statement may print it and as it is compared. */
const compactReference = (text: string) => text.toUpperCase().replace(/[\s-]/g, "");

/**
 * The orders a search finds: its transfer reference as a bank statement shows it (any case, its dash
 * dropped or spaces added, O for 0), or a part of the buyer's name (accents aside) or e-mail.
 */
function orderSearch(search: string): SQL {
  const read = readTransferReference(search);
  const references = [compactReference(search), ...(read ? [compactReference(read)] : [])];
  const pattern = likePattern(search);
  return or(
    inArray(sql`replace(${orders.transferReference}, '-', '')`, references),
    sql`f_unaccent(${orders.buyerName}) ilike f_unaccent(${pattern})`,
    ilike(orders.buyerEmail, pattern),
  ) as SQL;
}

// The order of the outer query, named in full: drizzle writes a lone table's columns unqualified, which the
// subqueries below would read as their own.
const outerOrderId = sql.raw(`"orders"."id"`);
const heldAttempt = sql<boolean>`exists (select 1 from payment_attempts a
  where a.order_id = ${outerOrderId} and a.status = 'held')`;
const duplicateAttempt = sql<boolean>`exists (select 1 from payment_attempts a
  where a.order_id = ${outerOrderId} and a.duplicate)`;
/** A refund still on its way at the provider (decision 0171). */
const refundPending = sql<boolean>`exists (select 1 from refunds r
  where r.order_id = ${outerOrderId} and r.status = 'pending')`;
/**
 * Money the owner gives back by hand (paid by transfer or at the studio) and has not marked « Remboursé »:
 * hers to do, whether she asked it or the buyer withdrew.
 */
const refundToMake = sql<boolean>`exists (select 1 from refunds r
  where r.order_id = ${outerOrderId} and r.status = 'to_refund_offline')`;
/** A refund that failed with none asked since: the owner must give the money back another way. */
const refundFailed = sql<boolean>`exists (select 1 from refunds r
  where r.order_id = ${outerOrderId} and r.status = 'failed'
    and not exists (select 1 from refunds later where later.order_id = r.order_id
      and later.status <> 'failed' and later.created_at > r.created_at))`;

/** One page of orders with their lines' labels and the flags the owner must see. */
export async function orderPage(filter: OrderListFilter, position: PagePosition) {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(orders.status, filter.status));
  if (filter.kind) conditions.push(eq(orders.kind, filter.kind));
  if (filter.method) conditions.push(eq(orders.method, filter.method));
  if (filter.search) conditions.push(orderSearch(filter.search));
  const where = and(...conditions);
  const [page, [total]] = await Promise.all([
    keysetPage(ORDER_LIST_ORDER, position, ({ where: after, orderBy, limit }) =>
      db()
        .select({
          id: orders.id,
          createdAt: orders.createdAt,
          buyerName: orders.buyerName,
          buyerEmail: orders.buyerEmail,
          kind: orders.kind,
          status: orders.status,
          method: orders.method,
          amountCents: orders.amountCents,
          transferReference: orders.transferReference,
          latePayment: orders.latePayment,
          lines: sql<string>`coalesce((select string_agg(l.label, ' · ' order by l.position)
            from order_lines l where l.order_id = ${outerOrderId}), '')`,
          held: heldAttempt,
          duplicate: duplicateAttempt,
          refundPending,
          refundToMake,
          refundFailed,
          cursor: cursorColumn(ORDER_LIST_ORDER),
        })
        .from(orders)
        .where(and(where, after))
        .orderBy(...orderBy)
        .limit(limit),
    ),
    db().select({ value: count() }).from(orders).where(where),
  ]);
  return { ...page, matching: total?.value ?? 0 };
}

/**
 * What happened to an order beside its attempts and refunds: the provider's events (about its checkouts,
 * and about the refunds of its payments, decision 0171), journal, e-mails, its voucher's extensions.
 */
export async function orderHistory(
  orderId: string,
  attemptReferences: string[],
  paymentReferences: string[] = [],
) {
  const aboutOrder = [
    attemptReferences.length > 0
      ? inArray(sql<string>`${providerEvents.payment} ->> 'providerReference'`, [
          ...attemptReferences,
        ])
      : undefined,
    paymentReferences.length > 0
      ? inArray(sql<string>`${providerEvents.refund} ->> 'paymentReference'`, [
          ...paymentReferences,
        ])
      : undefined,
  ].filter((condition) => condition !== undefined);
  const [events, journal, mails, voucher, extensions] = await Promise.all([
    aboutOrder.length === 0
      ? Promise.resolve([])
      : db()
          .select({
            id: providerEvents.id,
            provider: providerEvents.provider,
            type: providerEvents.type,
            receivedAt: providerEvents.receivedAt,
            processedAt: providerEvents.processedAt,
            outcome: providerEvents.outcome,
            error: providerEvents.error,
          })
          .from(providerEvents)
          .where(or(...aboutOrder))
          .orderBy(asc(providerEvents.receivedAt)),
    db()
      .select({
        seq: moneyJournal.seq,
        kind: moneyJournal.kind,
        amountCents: moneyJournal.amountCents,
        method: moneyJournal.method,
        /** A voucher's balance lowered by a partial refund (a `voucher_cancellation` of part of it). */
        partial: sql<boolean>`coalesce(${moneyJournal.details} ->> 'reason' = 'partial_refund', false)`,
        at: moneyJournal.at,
      })
      .from(moneyJournal)
      .where(eq(moneyJournal.orderId, orderId))
      .orderBy(asc(moneyJournal.seq)),
    orderMails(orderId),
    db()
      .select({
        id: vouchers.id,
        code: vouchers.code,
        status: vouchers.status,
        kind: vouchers.kind,
        balanceCents: vouchers.balanceCents,
      })
      .from(vouchers)
      .where(eq(vouchers.orderId, orderId)),
    db()
      .select({
        at: voucherExpiryChanges.at,
        previousExpiresOn: voucherExpiryChanges.previousExpiresOn,
        newExpiresOn: voucherExpiryChanges.newExpiresOn,
      })
      .from(voucherExpiryChanges)
      .innerJoin(vouchers, eq(vouchers.id, voucherExpiryChanges.voucherId))
      .where(eq(vouchers.orderId, orderId))
      .orderBy(asc(voucherExpiryChanges.at)),
  ]);
  return { events, journal, mails, voucher: voucher[0] ?? null, extensions };
}

/**
 * The e-mails queued for an order (its own and its voucher's): the mail jobs still in pg-boss's table
 * (its maintenance removes old ones; the journal stays), with when each left, or why it was given up (its
 * address refused, or its last retry failed: a job ended either way, which is no e-mail sent).
 */
async function orderMails(orderId: string) {
  const result = await db().execute<{
    id: string;
    kind: string;
    event: string | null;
    state: string;
    created_on: Date;
    completed_on: Date | null;
    given_up: string | null;
    outcome: MailJobOutput["outcome"] | null;
  }>(sql`
    select id::text, data->>'kind' as kind, data->>'event' as event, state, created_on, completed_on,
      output->>'outcome' as outcome,
      (select f.error from mail_failures f where f.job_id = job.id and f.final
        order by f.at desc limit 1) as given_up
    from pgboss.job
    where name = 'mail' and (data->>'orderId' = ${orderId}
      or data->>'voucherId' in (select id::text from vouchers where order_id = ${orderId}))
    order by created_on`);
  return result.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    event: row.event,
    state: row.state,
    createdAt: new Date(row.created_on),
    sentAt:
      row.completed_on &&
      row.state === "completed" &&
      row.given_up === null &&
      row.outcome !== "nothing_to_send"
        ? new Date(row.completed_on)
        : null,
    /** What the mail server answered when the e-mail was given up; null while it may still leave. */
    givenUp: row.given_up,
    /** Its job ended with nothing left to send (its voucher refunded or delivered meanwhile). */
    nothingToSend: row.state === "completed" && row.outcome === "nothing_to_send",
  }));
}

/**
 * The sales of a Paris day (the dashboard's « Ventes du jour »): the orders paid that day and still paid,
 * and the money they keep, what their payments brought less what was refunded or is on its way back (an
 * order refunded in full is no sale; one paid twice keeps its price once its duplicate is given back).
 */
export async function salesOfDay(day: string = isoDayInParis(now())) {
  const kept = sql`(select coalesce(sum(a.amount_cents), 0) from payment_attempts a
      where a.order_id = ${outerOrderId} and a.status = 'succeeded')
    - (select coalesce(sum(r.amount_cents), 0) from refunds r
      join payment_attempts a on a.id = r.attempt_id
      where r.order_id = ${outerOrderId} and r.status <> 'failed' and a.status = 'succeeded')`;
  const [row] = await db()
    .select({
      count: sql<number>`count(*) filter (where ${kept} > 0)::int`,
      totalCents: sql<number>`coalesce(sum(${kept}), 0)::int`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.status, "paid"),
        sql`(${orders.paidAt} at time zone 'Europe/Paris')::date = ${day}::date`,
      ),
    );
  return { count: row?.count ?? 0, totalCents: row?.totalCents ?? 0 };
}
