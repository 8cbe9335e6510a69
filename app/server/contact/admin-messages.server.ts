import { and, count, eq, getTableColumns, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { db } from "../db/client.server";
import { contactMessages } from "../db/schema";
import {
  cursorColumn,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";

/** The list's order: newest first, the id breaking ties. */
export const MESSAGE_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: contactMessages.createdAt, type: "timestamptz" },
    { expression: contactMessages.id, type: "uuid" },
  ],
  direction: "desc",
};

/** The list's filters (its query string): `a-traiter`, `traites`. */
export const MESSAGE_STATE_FILTERS = { "a-traiter": false, traites: true } as const;
export type MessageStateFilter = keyof typeof MESSAGE_STATE_FILTERS;

export type MessageFilters = { state: MessageStateFilter | null; search: string };

function messageFilters({ state, search }: MessageFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (state) {
    conditions.push(
      MESSAGE_STATE_FILTERS[state]
        ? isNotNull(contactMessages.handledAt)
        : isNull(contactMessages.handledAt),
    );
  }
  if (search) {
    const pattern = likePattern(search);
    conditions.push(
      sql`(${contactMessages.email} ilike ${pattern} or (${contactMessages.prenom} || ' ' || ${contactMessages.nom}) ilike ${pattern})`,
    );
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** One page of the contact forms' messages, newest first (decision 0130), and how many match. */
export async function listMessagesForAdmin(filters: MessageFilters, position: PagePosition) {
  const where = messageFilters(filters);
  const [page, [total]] = await Promise.all([
    keysetPage(MESSAGE_LIST_ORDER, position, (query) =>
      db()
        .select({ ...getTableColumns(contactMessages), cursor: cursorColumn(MESSAGE_LIST_ORDER) })
        .from(contactMessages)
        .where(and(where, query.where))
        .orderBy(...query.orderBy)
        .limit(query.limit),
    ),
    // Unfiltered, the count is messageCounts()'s total, which the page reads anyway.
    where ? db().select({ count: count() }).from(contactMessages).where(where) : [{ count: null }],
  ]);
  return { ...page, matching: total?.count ?? null };
}

/** Every message and those still to handle, counted by the database. */
export async function messageCounts(): Promise<{ total: number; waiting: number }> {
  const [row] = await db()
    .select({
      total: count(),
      waiting: sql<number>`(count(*) filter (where ${contactMessages.handledAt} is null))::int`,
    })
    .from(contactMessages);
  return row ?? { total: 0, waiting: 0 };
}

/** Marks a message handled (or not yet handled again). */
export async function setMessageHandled(id: string, handled: boolean): Promise<boolean> {
  const rows = await db()
    .update(contactMessages)
    .set({ handledAt: handled ? sql`now()` : null })
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}

export async function deleteMessage(id: string): Promise<boolean> {
  const rows = await db()
    .delete(contactMessages)
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}
