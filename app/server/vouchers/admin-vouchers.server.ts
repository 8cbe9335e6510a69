import {
  and,
  count,
  countDistinct,
  eq,
  gte,
  ilike,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { isoDayInParis } from "~/lib/dates";
import { parseVoucherCode } from "~/lib/vouchers/code";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import {
  cursorColumn,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";
import { invoices, orders, vouchers, voucherUses, type VoucherStatus } from "../db/schema";
import { queueVoucherReminderMail } from "./emails.server";
import { voucherRefundHold } from "./queries.server";
import { redeemSessionVoucher, type VoucherRedemption } from "./redemption.server";

/*
 * The admin's gift vouchers (decision 0130: paged on the server, newest first): the list searched by code
 * (however it is typed) or by name, and a session voucher used at the studio.
 */

export const VOUCHER_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: vouchers.createdAt, type: "timestamptz" },
    { expression: vouchers.id, type: "uuid" },
  ],
  direction: "desc",
};

/**
 * The last refusal of a voucher's reminder before expiry since it was sent for its last day (an extended
 * voucher's earlier one no longer counts): the outbox's final failure at the address the reminder went to
 * (its recipient's, else its buyer's), kept MAIL_FAILURE_RETENTION_DAYS (as long as the reminder's 30
 * days). While the mail job is still kept (pg-boss's retention), a failure of another e-mail to the same
 * address is told apart by its job; after, any e-mail refused there since is the same news: that address
 * no longer receives.
 */
function reminderRefusal() {
  return sql<{ to: string; at: string; error: string } | null>`(
    select json_build_object('to', f.recipient, 'at', f.at, 'error', f.error)
    from mail_failures f, ${orders} o
    where o.id = ${vouchers.orderId} and f.final
      and f.kind = ${queueVoucherReminderMail.definition.failureKind}
      and ${vouchers.reminderSentAt} is not null and f.at >= ${vouchers.reminderSentAt}
      and lower(f.recipient) = lower(coalesce(
        case when ${vouchers.sendTo} = 'recipient' then ${vouchers.recipientEmail} end, o.buyer_email))
      and not exists (select 1 from pgboss.job j where j.id = f.job_id
        and (j.data->>'kind' is distinct from 'voucher-reminder'
          or j.data->>'voucherId' is distinct from ${vouchers.id}::text))
    order by f.at desc limit 1)`;
}

export async function voucherPage(
  filter: { status: VoucherStatus | null; search: string },
  position: PagePosition,
) {
  const conditions: SQL[] = [];
  // Past its last day (Paris), a voucher no redemption takes is expired, though the morning's job
  // (vouchers.expiry, 09:30) has not marked it yet: listed and filtered as such.
  const today = isoDayInParis(now());
  const pastItsDay = and(eq(vouchers.status, "active"), lt(vouchers.expiresOn, today)) as SQL;
  if (filter.status === "active") {
    conditions.push(and(eq(vouchers.status, "active"), gte(vouchers.expiresOn, today)) as SQL);
  } else if (filter.status === "expired") {
    conditions.push(or(eq(vouchers.status, "expired"), pastItsDay) as SQL);
  } else if (filter.status) {
    conditions.push(eq(vouchers.status, filter.status));
  }
  if (filter.search) {
    // A code however it is typed (spaces, dashes, lower case, O for 0); else a name.
    const parsed = parseVoucherCode(filter.search);
    const pattern = likePattern(filter.search);
    const byName = or(
      ilike(vouchers.recipientName, pattern),
      ilike(vouchers.buyerName, pattern),
    ) as SQL;
    conditions.push(parsed.ok ? (or(eq(vouchers.code, parsed.code), byName) as SQL) : byName);
  }
  const where = and(...conditions);
  const [page, [total]] = await Promise.all([
    keysetPage(VOUCHER_LIST_ORDER, position, ({ where: after, orderBy, limit }) =>
      db()
        .select({
          id: vouchers.id,
          orderId: vouchers.orderId,
          code: vouchers.code,
          kind: vouchers.kind,
          label: vouchers.label,
          valueCents: vouchers.valueCents,
          balanceCents: vouchers.balanceCents,
          status: sql<VoucherStatus>`case when ${pastItsDay} then 'expired' else ${vouchers.status} end`,
          recipientName: vouchers.recipientName,
          buyerName: vouchers.buyerName,
          expiresOn: vouchers.expiresOn,
          createdAt: vouchers.createdAt,
          /** Its e-mail given up, and for which address, until the buyer corrects it (decision 0167). */
          deliveryFailedAt: vouchers.deliveryFailedAt,
          deliveryFailedTo: vouchers.deliveryFailedTo,
          sendTo: vouchers.sendTo,
          recipientEmail: vouchers.recipientEmail,
          reminderRefusal: reminderRefusal(),
          /** Its uses that stand (given back ones aside). */
          uses: countDistinct(voucherUses.id),
          /** The invoices of its uses that stand (a multi-purpose voucher's, decision 0198), oldest first. */
          useInvoices: sql<
            string[]
          >`coalesce(array_agg(${invoices.number} order by ${invoices.number})
            filter (where ${invoices.number} is not null), '{}')`,
          /** Its order refunded in full: a voucher that no longer comes back into use (decision 0170). */
          orderRefunded: sql<boolean>`exists (select 1 from ${orders} where ${orders.id} = ${vouchers.orderId}
            and ${orders.status} = 'refunded')`,
          /** A refund of its order on its way: what it will take is already out of use. */
          refundOnItsWay: sql<boolean>`exists (select 1 from refunds where refunds.order_id = ${vouchers.orderId}
            and refunds.status in ('pending', 'to_refund_offline'))`,
          /** A use given back (its booking cancelled in time) after its last day: it came back expired. */
          backAfterItsDay: sql<boolean>`exists (select 1 from voucher_uses given
            where given.voucher_id = ${vouchers.id} and given.cancelled_at is not null
              and (given.cancelled_at at time zone 'Europe/Paris')::date > ${vouchers.expiresOn})`,
          cursor: cursorColumn(VOUCHER_LIST_ORDER),
        })
        .from(vouchers)
        // The uses that stand: one given back (its booking cancelled in time) no longer counts, and its
        // invoice was credited.
        .leftJoin(
          voucherUses,
          and(eq(voucherUses.voucherId, vouchers.id), isNull(voucherUses.cancelledAt)),
        )
        .leftJoin(invoices, eq(invoices.voucherUseId, voucherUses.id))
        .where(and(where, after))
        .groupBy(vouchers.id)
        .orderBy(...orderBy)
        .limit(limit),
    ),
    db().select({ value: count() }).from(vouchers).where(where),
  ]);
  // Rare rows, each read on its own: why a voucher no longer serves in full (« remboursement en cours »).
  const rows = await Promise.all(
    page.rows.map(async ({ reminderRefusal, recipientEmail, ...row }) => ({
      ...row,
      /**
       * Its reminder before expiry given up (decision 0167): to which address, when, what the mail server
       * said, and whether its buyer was told (the recipient's address refused; her own: nobody was).
       */
      reminderUndelivered: reminderRefusal
        ? {
            to: reminderRefusal.to,
            at: new Date(reminderRefusal.at),
            error: reminderRefusal.error,
            buyerTold:
              row.sendTo === "recipient" &&
              reminderRefusal.to.toLowerCase() === recipientEmail?.toLowerCase(),
          }
        : null,
      refundHold: row.refundOnItsWay ? await voucherRefundHold(row.orderId) : null,
      /** Come back expired from a booking cancelled in time, and still so: the owner may extend it. */
      expiredBackNote:
        row.status === "expired" && row.backAfterItsDay && row.balanceCents > 0
          ? "Revenu après sa fin de validité, par l'annulation d'une réservation : la cliente ne peut pas s'en servir tant que vous ne le prolongez pas (« Nouvelle fin de validité »)."
          : null,
    })),
  );
  return { ...page, rows, matching: total?.value ?? 0 };
}

/** A voucher by id (the admin's actions). */
export async function voucherById(id: string) {
  const [voucher] = await db().select().from(vouchers).where(eq(vouchers.id, id));
  return voucher ?? null;
}

/** The owner uses a session voucher at the studio (its session taken there, no booking on the site). */
export async function useSessionVoucherAtStudio(voucherId: string): Promise<VoucherRedemption> {
  const voucher = await voucherById(voucherId);
  if (!voucher?.code) {
    return {
      ok: false,
      reason: "unknown",
      message: "Ce bon n'existe pas ou n'est pas encore payé.",
    };
  }
  if (voucher.kind !== "session" || !voucher.sessionTypeId) {
    return {
      ok: false,
      reason: "not_session",
      message: "Ce bon est un montant : indiquez le montant à utiliser.",
    };
  }
  const { code, sessionTypeId, studioId } = voucher;
  return db().transaction((tx) =>
    redeemSessionVoucher(tx, {
      code,
      sessionTypeId,
      // A voucher for any studio matches whatever studio is named here.
      studioId: studioId ?? "00000000-0000-0000-0000-000000000000",
      bookingId: null,
      by: "owner",
    }),
  );
}
