import nodemailer from "nodemailer";
import { site } from "~/content/site";
import { studioById, type StudioId } from "~/content/studios";
import { contactForms, optionLabel } from "~/lib/contact-forms";
import type { ContactMessage } from "./contact-messages.server";

export type MailSettings = { url: string; from: string };

const dateFormat = new Intl.DateTimeFormat("fr-FR", {
  dateStyle: "full",
  timeStyle: "short",
  timeZone: "Europe/Paris",
});

/** The e-mail that tells a studio about a new message: plain text, Reply-To the visitor. */
export function contactMessageEmail(message: ContactMessage, from: string) {
  const studio = studioById(message.studio as StudioId);
  const form = contactForms[studio.id];
  const lines = [
    `Nouveau message reçu le ${dateFormat.format(message.createdAt)} depuis le formulaire de contact du ${studio.name}.`,
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
    from,
    to: studio.email,
    replyTo: { name: `${message.prenom} ${message.nom}`, address: message.email },
    subject: `[${site.brand}] Message de ${message.prenom} ${message.nom} (${optionLabel(form.shootingTypes, message.shootingType)})`,
    text: lines.join("\n"),
  };
}

/** Sends the message to its studio's address through the configured SMTP server. */
export async function sendContactMessageEmail(
  message: ContactMessage,
  settings: MailSettings,
): Promise<void> {
  const transport = nodemailer.createTransport({
    url: settings.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail(contactMessageEmail(message, settings.from));
  } finally {
    transport.close();
  }
}
