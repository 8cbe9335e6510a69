import { eq } from "drizzle-orm";
import { studioDataSchema } from "~/content/schemas";
import { clientGalleryPath } from "~/lib/gallery-urls";
import { formatDateFr } from "~/lib/dates";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { galleries, studios } from "../db/schema";
import { env } from "../env.server";
import { emailButton, emailLayout, escapeHtml } from "../mail/layout.server";
import type { OutgoingMail } from "../mail/transport.server";
import { formatAccessCode } from "./access.server";
import { expiryDay } from "./galleries.server";

/*
 * The invitation e-mail of a client gallery (issue 14, plan §10): composed when it leaves, from the rows
 * (a gallery deleted meanwhile sends nothing). The link carries no token: the code is the second factor,
 * and links end up in logs and histories.
 */

/** The client's address of a gallery, absolute. */
export function galleryLink(galleryId: string): string {
  return `${env().SITE_URL.replace(/\/$/, "")}${clientGalleryPath(galleryId)}`;
}

/** The invitation of `galleryId`, or null when the gallery is gone or being deleted. */
export async function galleryInvitationEmail(galleryId: string): Promise<OutgoingMail | null> {
  const [row] = await db()
    .select({ gallery: galleries, studio: studios.data })
    .from(galleries)
    .leftJoin(studios, eq(studios.id, galleries.studioId))
    .where(eq(galleries.id, galleryId));
  if (!row || row.gallery.deletingAt) return null;
  const { gallery } = row;
  const { identity } = (await readSiteContent()).documents;
  const studio = row.studio ? studioDataSchema.safeParse(row.studio) : null;
  const contact = studio?.success
    ? { name: studio.data.name, email: studio.data.email, phone: studio.data.phone }
    : { name: identity.brand, email: identity.email, phone: identity.phone };
  const brand = identity.brand;
  const link = galleryLink(gallery.id);
  const code = formatAccessCode(gallery.accessCode);
  const until = formatDateFr(`${expiryDay(gallery.expiresAt)}T12:00:00Z`);
  const downloads = gallery.downloadsAllowed
    ? "Vous pourrez télécharger les photos une à une ou toutes ensemble."
    : "Les photos se regardent en ligne (le téléchargement n'est pas ouvert pour cette galerie).";
  const subject = `Vos photos sont prêtes : ${gallery.title}`;
  const contactLine = [contact.name, contact.email, contact.phone].filter(Boolean).join(" · ");

  const text = [
    `Bonjour ${gallery.clientName},`,
    "",
    `Vos photos « ${gallery.title} » vous attendent dans votre galerie privée :`,
    "",
    link,
    "",
    `Code d'accès : ${code}`,
    "",
    `La galerie est ouverte jusqu'au ${until}. ${downloads}`,
    "Choisissez vos photos préférées avec le cœur, ajoutez un commentaire si vous le souhaitez, puis validez votre sélection : elle nous parviendra directement.",
    "",
    `Une question ? Répondez simplement à cet e-mail ou contactez-nous : ${contactLine}.`,
    "",
    `— ${brand}`,
  ].join("\n");

  const paragraph = (content: string) => `<p style="margin:0 0 12px">${content}</p>`;
  const html = emailLayout({
    title: subject,
    brand,
    preheader: `Votre galerie privée est ouverte jusqu'au ${until}.`,
    body: `<h1 style="font-size:22px;line-height:1.3;margin:16px 0">Vos photos sont prêtes</h1>
${paragraph(`Bonjour ${escapeHtml(gallery.clientName)},`)}
${paragraph(`Vos photos «&nbsp;${escapeHtml(gallery.title)}&nbsp;» vous attendent dans votre galerie privée.`)}
${emailButton(link, "Voir mes photos")}
${paragraph(`Code d'accès : <strong style="font-size:20px;letter-spacing:2px">${escapeHtml(code)}</strong>`)}
${paragraph(`La galerie est ouverte jusqu'au ${escapeHtml(until)}. ${escapeHtml(downloads)}`)}
${paragraph("Choisissez vos photos préférées avec le cœur, ajoutez un commentaire si vous le souhaitez, puis validez votre sélection : elle nous parviendra directement.")}
<p style="margin:0 0 12px;font-size:14px">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><a href="${escapeHtml(link)}" style="color:#9a3412;word-break:break-all">${escapeHtml(link)}</a></p>`,
    footer: `Une question ? Répondez à cet e-mail ou contactez-nous : ${escapeHtml(contactLine)}. Ce lien et ce code sont personnels : ne les partagez qu'avec vos proches.`,
  });
  return {
    to: gallery.clientEmail,
    subject,
    text,
    html,
    replyTo: { name: contact.name, address: contact.email },
  };
}
