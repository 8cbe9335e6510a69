import { and, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import { csvCell } from "~/lib/csv";
import { db } from "../db/client.server";
import type { Executor } from "../jobs/queue.server";
import { blogNewsletterSubscribers } from "../db/schema";
import { formatDateTimeFr } from "~/lib/dates";
import type { SubscriberState } from "~/lib/newsletter-admin";
import {
  cursorColumn,
  keysetCondition,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";

const subscriberColumns = {
  id: blogNewsletterSubscribers.id,
  email: blogNewsletterSubscribers.email,
  subscribedAt: blogNewsletterSubscribers.subscribedAt,
  status: blogNewsletterSubscribers.status,
  active: blogNewsletterSubscribers.active,
  consentSource: blogNewsletterSubscribers.consentSource,
  confirmedAt: blogNewsletterSubscribers.confirmedAt,
  unsubscribedAt: blogNewsletterSubscribers.unsubscribedAt,
};

/** The list's order, newest first (SPEC §7), the id breaking ties. */
export const SUBSCRIBER_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: blogNewsletterSubscribers.subscribedAt, type: "timestamptz" },
    { expression: blogNewsletterSubscribers.id, type: "uuid" },
  ],
  direction: "desc",
};

const newestFirst = [
  desc(blogNewsletterSubscribers.subscribedAt),
  desc(blogNewsletterSubscribers.id),
];

export type AdminSubscriber = {
  id: string;
  email: string;
  subscribedAt: Date;
  status: SubscriberState;
  active: boolean;
  consentSource: string;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
};

export type SubscriberFilters = { state: SubscriberState | null; search: string };

/** Subscribers in `state` (all when null) whose address contains `search` (any case). */
function subscriberFilters({ state, search }: SubscriberFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (state) conditions.push(eq(blogNewsletterSubscribers.status, state));
  if (search) conditions.push(sql`${blogNewsletterSubscribers.email} ilike ${likePattern(search)}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * One page of the list (decision 0130), newest first, with how many match in all (counted by the
 * database): the list can hold tens of thousands of imported addresses.
 */
export async function subscriberPage(filters: SubscriberFilters, position: PagePosition) {
  const where = subscriberFilters(filters);
  // Unfiltered, the list's count is the sum of subscriberCounts(), which the page reads anyway.
  const [page, [total]] = await Promise.all([
    keysetPage(SUBSCRIBER_LIST_ORDER, position, (query) =>
      db()
        .select({ ...subscriberColumns, cursor: cursorColumn(SUBSCRIBER_LIST_ORDER) })
        .from(blogNewsletterSubscribers)
        .where(and(where, query.where))
        .orderBy(...query.orderBy)
        .limit(query.limit),
    ),
    where
      ? db().select({ count: count() }).from(blogNewsletterSubscribers).where(where)
      : [{ count: null }],
  ]);
  return { ...page, matching: total?.count ?? null };
}

/** Rows the export reads at a time: its memory stays one batch, whatever the list's size. */
const EXPORT_BATCH = 1000;

/**
 * Every subscriber matching `filters`, newest first, a batch at a time (the CSV export streams them,
 * decision 0130).
 */
export async function* subscriberBatches(
  filters: SubscriberFilters,
): AsyncGenerator<AdminSubscriber[]> {
  let position: PagePosition = null;
  for (;;) {
    const batch = await db()
      .select({ ...subscriberColumns, cursor: cursorColumn(SUBSCRIBER_LIST_ORDER) })
      .from(blogNewsletterSubscribers)
      .where(and(subscriberFilters(filters), keysetCondition(SUBSCRIBER_LIST_ORDER, position)))
      .orderBy(...newestFirst)
      .limit(EXPORT_BATCH);
    if (batch.length > 0) yield batch.map(({ cursor: _cursor, ...row }) => row);
    const last = batch.at(-1);
    if (batch.length < EXPORT_BATCH || !last) return;
    position = { after: last.cursor };
  }
}

/** How many subscribers are in each state. */
export async function subscriberCounts(): Promise<Record<SubscriberState, number>> {
  const rows = await db()
    .select({ status: blogNewsletterSubscribers.status, count: count() })
    .from(blogNewsletterSubscribers)
    .groupBy(blogNewsletterSubscribers.status);
  const counts: Record<SubscriberState, number> = { pending: 0, active: 0, unsubscribed: 0 };
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/** Up to this many active addresses, « Copier les emails » copies them from the page (decision 0130). */
export const COPIED_EMAILS_LIMIT = 200;

/**
 * The active subscribers' addresses, newest first, when there are at most COPIED_EMAILS_LIMIT (what
 * « Copier les emails » copies); null when there are more: the page offers them as a download.
 */
export async function activeSubscribersToCopy() {
  const rows = await db()
    .select({ email: blogNewsletterSubscribers.email, active: blogNewsletterSubscribers.active })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.status, "active"))
    .orderBy(...newestFirst)
    .limit(COPIED_EMAILS_LIMIT + 1);
  return rows.length > COPIED_EMAILS_LIMIT ? null : rows;
}

/** SPEC §9: the active addresses only, joined by a comma and a space. */
export function activeEmailList(subscribers: Array<{ email: string; active: boolean }>): string {
  return subscribers
    .filter((subscriber) => subscriber.active)
    .map((subscriber) => subscriber.email)
    .join(", ");
}

/**
 * The owner unsubscribes someone (who asked her to, by phone or by mail): the state becomes 'unsubscribed'
 * with the date; the newsletter's pending deliveries to the address are then skipped.
 */
export async function unsubscribeSubscriber(
  id: string,
): Promise<
  | { outcome: "unsubscribed"; email: string }
  | { outcome: "already"; email: string }
  | { outcome: "missing" }
> {
  const [changed] = await db()
    .update(blogNewsletterSubscribers)
    .set({ status: "unsubscribed", unsubscribedAt: sql`now()` })
    .where(
      and(
        eq(blogNewsletterSubscribers.id, id),
        ne(blogNewsletterSubscribers.status, "unsubscribed"),
      ),
    )
    .returning({ email: blogNewsletterSubscribers.email });
  if (changed) return { outcome: "unsubscribed", email: changed.email };
  const [existing] = await db()
    .select({ email: blogNewsletterSubscribers.email })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.id, id));
  return existing ? { outcome: "already", email: existing.email } : { outcome: "missing" };
}

/** Deletes a subscriber and their proof of consent (a person's right to erasure); null when absent. */
export async function deleteSubscriber(id: string): Promise<{ email: string } | null> {
  return db().transaction(async (tx) => {
    const [deleted] = await tx
      .delete(blogNewsletterSubscribers)
      .where(eq(blogNewsletterSubscribers.id, id))
      .returning({ email: blogNewsletterSubscribers.email });
    if (!deleted) return null;
    // Erasure is whole: the mail servers' answers about this address (which often quote it) go too.
    await forgetMailAnswers(tx, deleted.email);
    return deleted;
  });
}

/**
 * Forgets what the mail servers answered about `email`: the sending errors the admin lists, and those of the
 * deliveries whose subscriber is gone (their outcome stays counted, without its text).
 */
export async function forgetMailAnswers(executor: Executor, email: string): Promise<void> {
  await executor.execute(
    sql`update newsletter_deliveries set error = null where subscriber_id is null and error is not null`,
  );
  await executor.execute(sql`delete from mail_failures where lower(recipient) = lower(${email})`);
}

/** The state as the export writes it. */
const exportedStates: Record<SubscriberState, string> = {
  pending: "en attente",
  active: "actif",
  unsubscribed: "désabonné",
};

/**
 * The list as CSV (semicolons, as French spreadsheets expect), with a BOM so Excel reads UTF-8. The import
 * reads it back: `date_confirmation` is then the consent date and only active rows are taken.
 */
export function subscribersCsv(subscribers: AdminSubscriber[]): string {
  return `${SUBSCRIBERS_CSV_HEADER}${subscriberCsvLines(subscribers)}`;
}

/** The export's first line, after the BOM. */
export const SUBSCRIBERS_CSV_HEADER = `\uFEFF${[
  "email",
  "date_inscription",
  "statut",
  "origine",
  "date_confirmation",
  "date_desabonnement",
]
  .map(csvCell)
  .join(";")}\r\n`;

/** The export's lines of `subscribers`, each ended by CRLF. */
export function subscriberCsvLines(subscribers: AdminSubscriber[]): string {
  const date = (value: Date | null) => (value ? formatDateTimeFr(value) : "");
  return subscribers
    .map(
      (subscriber) =>
        `${[
          subscriber.email,
          formatDateTimeFr(subscriber.subscribedAt),
          exportedStates[subscriber.status],
          subscriber.consentSource,
          date(subscriber.confirmedAt),
          date(subscriber.unsubscribedAt),
        ]
          .map(csvCell)
          .join(";")}\r\n`,
    )
    .join("");
}

/**
 * The export of the subscribers matching `filters` as a stream (decision 0130): a batch of rows at a time,
 * so 50,000 addresses never sit in the server's memory at once.
 */
export function subscribersCsvStream(filters: SubscriberFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = subscriberBatches(filters);
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(SUBSCRIBERS_CSV_HEADER));
        return;
      }
      const batch = await batches.next();
      if (batch.done) controller.close();
      else controller.enqueue(encoder.encode(subscriberCsvLines(batch.value)));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
