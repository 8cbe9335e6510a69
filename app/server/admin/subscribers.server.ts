import { and, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import { csvCell } from "~/lib/csv";
import { db } from "../db/client.server";
import type { Executor } from "../jobs/queue.server";
import { blogNewsletterSubscribers } from "../db/schema";
import { formatDateTimeFr } from "~/lib/dates";
import type { SubscriberState } from "~/lib/newsletter-admin";

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

const newestFirst = [
  desc(blogNewsletterSubscribers.subscribedAt),
  desc(blogNewsletterSubscribers.id),
];

/** Every subscriber, newest first (SPEC §7): the CSV export. */
export function listSubscribersForAdmin() {
  return db()
    .select(subscriberColumns)
    .from(blogNewsletterSubscribers)
    .orderBy(...newestFirst);
}

export type AdminSubscriber = Awaited<ReturnType<typeof listSubscribersForAdmin>>[number];

/** Rows of the list per page: the list can hold tens of thousands of imported addresses. */
export const SUBSCRIBERS_PAGE_SIZE = 50;

/** `%` and `_` typed in the search are searched for as such (as the blog's search does). */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * One page of the list, newest first: subscribers in `state` (all when null) whose address contains
 * `search` (any case), with how many match in all.
 */
export async function subscriberPage({
  state,
  search,
  page,
}: {
  state: SubscriberState | null;
  search: string;
  page: number;
}) {
  const conditions: SQL[] = [];
  if (state) conditions.push(eq(blogNewsletterSubscribers.status, state));
  if (search) conditions.push(sql`${blogNewsletterSubscribers.email} ilike ${likePattern(search)}`);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [total] = await db()
    .select({ count: count() })
    .from(blogNewsletterSubscribers)
    .where(where);
  const matching = total?.count ?? 0;
  const pageCount = Math.max(1, Math.ceil(matching / SUBSCRIBERS_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = await db()
    .select(subscriberColumns)
    .from(blogNewsletterSubscribers)
    .where(where)
    .orderBy(...newestFirst)
    .limit(SUBSCRIBERS_PAGE_SIZE)
    .offset((current - 1) * SUBSCRIBERS_PAGE_SIZE);
  return { rows, matching, page: current, pageCount };
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

/** The active subscribers' addresses, newest first (what 'Copier les emails' copies). */
export function activeSubscribers() {
  return db()
    .select({ email: blogNewsletterSubscribers.email, active: blogNewsletterSubscribers.active })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.status, "active"))
    .orderBy(...newestFirst);
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
  const date = (value: Date | null) => (value ? formatDateTimeFr(value) : "");
  const lines = [
    ["email", "date_inscription", "statut", "origine", "date_confirmation", "date_desabonnement"]
      .map(csvCell)
      .join(";"),
    ...subscribers.map((subscriber) =>
      [
        subscriber.email,
        formatDateTimeFr(subscriber.subscribedAt),
        exportedStates[subscriber.status],
        subscriber.consentSource,
        date(subscriber.confirmedAt),
        date(subscriber.unsubscribedAt),
      ]
        .map(csvCell)
        .join(";"),
    ),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
