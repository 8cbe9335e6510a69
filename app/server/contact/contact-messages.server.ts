import { sql } from "drizzle-orm";
import type { ContactMessageInput } from "~/lib/contact-forms";
import { RETENTION_MONTHS } from "~/lib/retention";
import { db, type Database } from "../db/client.server";
import type { Executor } from "../jobs/queue.server";
import { contactMessages } from "../db/schema";

export type ContactMessage = typeof contactMessages.$inferSelect;

export type NewContactMessage = ContactMessageInput & {
  /** The studio's slug (at most CONTACT_STUDIO_SLUG_MAX characters). */
  studio: string;
  /** The spam trap was filled in (a bot, or a visitor's autofill): kept, flagged, not e-mailed. */
  suspectedSpam?: boolean;
};

/** Stores one validated message from a studio's contact form and returns the stored row. */
export async function insertContactMessage(
  message: NewContactMessage,
  tx: Executor = db(),
): Promise<ContactMessage> {
  const [row] = await tx
    .insert(contactMessages)
    .values({
      studio: message.studio,
      shootingType: message.shootingType,
      prenom: message.prenom,
      nom: message.nom,
      email: message.email,
      telephone: message.telephone ?? null,
      message: message.message,
      source: message.source ?? null,
      suspectedSpam: message.suspectedSpam ?? false,
    })
    .returning();
  if (!row) throw new Error("Le message n'a pas été enregistré.");
  return row;
}

/**
 * The contact messages' part of the nightly personal-data purge (boot/personal-data-purge.server): a
 * message whose last activity (when it was handled, else when it was sent) is older than the retention
 * period is deleted. Returns how many.
 */
export async function purgeOldContactMessages(database: Database): Promise<number> {
  const deleted = await database.execute(
    sql`delete from contact_messages
        where coalesce(handled_at, created_at) < now() - make_interval(months => ${RETENTION_MONTHS})`,
  );
  return deleted.rowCount ?? 0;
}
