import type { ContactMessageInput } from "~/lib/contact-forms";
import { db } from "./db/client.server";
import type { Executor } from "./jobs/queue.server";
import { contactMessages } from "./db/schema";

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
