import { eq, sql } from "drizzle-orm";
import { optionLabel } from "~/lib/contact-forms";
import { firstOfMonth } from "~/lib/dates";
import { studioDataSchema, type StudioData } from "~/content/schemas";
import type { ContactMessage } from "./contact-messages.server";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { contactMessages } from "../db/schema";
import { log } from "../logger.server";
import { defineMailKind } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";

/** What the e-mail says of the studio and the business: from the content the message was sent under. */
export type ContactMailStudio = {
  brand: string;
  studio: Pick<StudioData, "name" | "email" | "contactForm">;
};

const dateFormat = new Intl.DateTimeFormat("fr-FR", {
  dateStyle: "full",
  timeStyle: "short",
  timeZone: "Europe/Paris",
});

/** The e-mail that tells a studio about a new message: plain text, Reply-To the visitor. */
export function contactMessageEmail(
  message: ContactMessage,
  { brand, studio }: ContactMailStudio,
): OutgoingMail {
  const form = studio.contactForm;
  const lines = [
    `Nouveau message reçu le ${firstOfMonth(dateFormat.format(message.createdAt))} depuis le formulaire de contact du ${studio.name}.`,
    "",
    `Type de séance : ${optionLabel(form.shootingTypes, message.shootingType)}`,
    `Prénom : ${message.prenom}`,
    `Nom : ${message.nom}`,
    `Email : ${message.email}`,
    ...(message.telephone ? [`Téléphone : ${message.telephone}`] : []),
    ...(message.source
      ? [`Comment nous a-t-il/elle connus : ${optionLabel(form.sources, message.source)}`]
      : []),
    "",
    "Message :",
    message.message,
    "",
    "—",
    `Répondez directement à cet e-mail pour écrire à ${message.prenom} ${message.nom}.`,
  ];
  return {
    to: studio.email,
    replyTo: { name: `${message.prenom} ${message.nom}`, address: message.email },
    subject: `[${brand}] Message de ${message.prenom} ${message.nom} (${optionLabel(form.shootingTypes, message.shootingType)})`,
    text: lines.join("\n"),
  };
}

/** A visitor's contact message, to its studio (contact_messages.id), written from the stored row. */
export const enqueueContactMail = defineMailKind<{ messageId: string }>("contact", {
  failureKind: "contact",
  async compose({ messageId }) {
    const [message] = await db()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, messageId));
    // Deleted by the owner or the retention meanwhile, or already accepted by the mail server.
    if (!message || message.emailedAt || message.suspectedSpam) return null;
    const row = await db().execute<{ data: unknown }>(
      sql`select data from studios where slug = ${message.studio}`,
    );
    const studio = studioDataSchema.safeParse(row.rows[0]?.data);
    if (!studio.success) throw new Error(`Studio inconnu pour le message ${message.id}`);
    const { brand } = (await readSiteContent()).documents.identity;
    const mail = contactMessageEmail(message, { brand, studio: studio.data });
    return { ...mail, messageId: undefined };
  },
  async afterDelivery({ messageId }) {
    await db()
      .update(contactMessages)
      .set({ emailedAt: new Date() })
      .where(eq(contactMessages.id, messageId));
    log.info("contact_message_emailed", { id: messageId });
  },
});
