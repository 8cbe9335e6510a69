import { desc, eq, sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { contactMessages } from "../db/schema";

/** The contact forms' messages, newest first. */
export function listMessagesForAdmin() {
  return db()
    .select()
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id));
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
