import { optionLabel } from "~/lib/contact-forms";
import type { StudioData } from "~/content/schemas";
import type { ContactMessage } from "./contact-messages.server";
import type { OutgoingMail } from "./mail/transport.server";

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
    to: studio.email,
    replyTo: { name: `${message.prenom} ${message.nom}`, address: message.email },
    subject: `[${brand}] Message de ${message.prenom} ${message.nom} (${optionLabel(form.shootingTypes, message.shootingType)})`,
    text: lines.join("\n"),
  };
}
