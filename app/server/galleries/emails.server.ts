import { and, asc, eq } from "drizzle-orm";
import { isUuid } from "~/lib/forms";
import { adminGallerySelectionPath, clientGalleryPath } from "~/lib/gallery-urls";
import { formatDateFr, formatLongDateTimeFr } from "~/lib/dates";
import { readSiteContent, type SiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { galleries, galleryPhotos } from "../db/schema";
import { env } from "../env.server";
import { emailButton, emailLayout, escapeHtml } from "../mail/layout.server";
import type { InlineImage, OutgoingMail } from "../mail/transport.server";
import { log } from "../logger.server";
import { defineMailKind } from "../mail/outbox.server";
import { galleryVariantKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import { formatAccessCode } from "./access.server";
import { expiryDay, markInvitationSent } from "./galleries.server";
import { ofName } from "~/lib/french";

/*
 * The e-mails of the client galleries (decision 0103), composed when they leave, from the rows (a gallery deleted
 * meanwhile sends nothing): the invitation to the client, the validated selection to the studio and its
 * receipt to the client (decision 0134). The
 * invitation's link carries no token: the code is the second factor, and links end up in logs and histories.
 */

export type StudioContact = { name: string; phone: string; email: string };

/** Who the client calls or writes to: the gallery's studio, else the site's own contact. */
export function studioContact(content: SiteContent, studioId: string | null): StudioContact {
  const { identity } = content.documents;
  const studio = studioId ? content.studios.find((record) => record.id === studioId) : undefined;
  return studio
    ? { name: studio.data.name, phone: studio.data.phone, email: studio.data.email }
    : { name: identity.brand, phone: identity.phone ?? "", email: identity.email };
}

/** The client's address of a gallery, absolute. */
export function galleryLink(galleryId: string): string {
  return `${env().SITE_URL.replace(/\/$/, "")}${clientGalleryPath(galleryId)}`;
}

/** The cover's width in the invitation: 560 CSS pixels, sharp on a high-density screen. */
const COVER_EMAIL_WIDTH = 1200;
export const COVER_CID = "couverture@galerie";

/**
 * The gallery's cover as an image carried inside the invitation (its largest web size up to
 * COVER_EMAIL_WIDTH, as JPEG: every mail client reads it), or null without a ready cover. A store that does
 * not answer throws: the outbox tries the e-mail again later.
 */
async function coverImage(
  galleryId: string,
  coverPhotoId: string | null,
): Promise<InlineImage | null> {
  if (!coverPhotoId) return null;
  const [photo] = await db()
    .select({
      status: galleryPhotos.status,
      widths: galleryPhotos.widths,
      revision: galleryPhotos.variantRevision,
    })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.id, coverPhotoId), eq(galleryPhotos.galleryId, galleryId)));
  if (photo?.status !== "ready" || photo.widths.length === 0) return null;
  const fitting = photo.widths.filter((width) => width <= COVER_EMAIL_WIDTH);
  const width = fitting.length > 0 ? Math.max(...fitting) : Math.min(...photo.widths);
  const object = await storage().get(
    galleryVariantKey(galleryId, coverPhotoId, photo.revision, width, "jpg"),
  );
  if (!object) {
    log.warn("gallery_invitation_cover_missing", { galleryId, photoId: coverPhotoId });
    return null;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return {
    cid: COVER_CID,
    filename: "couverture.jpg",
    contentType: "image/jpeg",
    content: Buffer.concat(chunks),
  };
}

/** The invitation of `galleryId`, or null when the gallery is gone or being deleted. */
export async function galleryInvitationEmail(galleryId: string): Promise<OutgoingMail | null> {
  const [gallery] = await db().select().from(galleries).where(eq(galleries.id, galleryId));
  if (!gallery || gallery.deletingAt) return null;
  const content = await readSiteContent();
  const contact = studioContact(content, gallery.studioId);
  const brand = content.documents.identity.brand;
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

  const cover = await coverImage(gallery.id, gallery.coverPhotoId);
  const paragraph = (content: string) => `<p style="margin:0 0 12px">${content}</p>`;
  const coverHtml = cover
    ? `<img src="cid:${COVER_CID}" width="560" alt="${escapeHtml(`Photo de couverture : ${gallery.title}`)}" style="display:block;width:100%;max-width:560px;height:auto;border:0;border-radius:6px;margin:16px 0 0">\n`
    : "";
  const html = emailLayout({
    title: subject,
    brand,
    preheader: `Votre galerie privée est ouverte jusqu'au ${until}.`,
    body: `${coverHtml}<h1 style="font-size:22px;line-height:1.3;margin:16px 0">Vos photos sont prêtes</h1>
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
    ...(cover ? { inlineImages: [cover] } : {}),
  };
}

/**
 * The e-mail of a validated selection, to the gallery's studio (else the site's address): the file names
 * to copy, each comment, the admin link. Null when the gallery is gone or was reopened meanwhile.
 */
export async function selectionEmail(galleryId: string): Promise<OutgoingMail | null> {
  const [gallery] = await db().select().from(galleries).where(eq(galleries.id, galleryId));
  if (!gallery?.selectionValidatedAt || gallery.deletingAt) return null;
  const favourites = await db()
    .select({ name: galleryPhotos.originalName, comment: galleryPhotos.favouriteComment })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.favourite, true)))
    .orderBy(asc(galleryPhotos.position));
  const content = await readSiteContent();
  const { brand, email: siteEmail } = content.documents.identity;
  const to = studioContact(content, gallery.studioId).email || siteEmail;
  const link = `${env().SITE_URL.replace(/\/$/, "")}${adminGallerySelectionPath(gallery.id)}`;
  const subject = `Sélection reçue : ${gallery.title} (${favourites.length} photos)`;
  const when = formatLongDateTimeFr(gallery.selectionValidatedAt);
  const names = favourites.map((photo) => photo.name).join(", ");
  const comments = favourites.filter((photo) => photo.comment);
  const text = [
    `${gallery.clientName} a validé sa sélection de ${favourites.length} photos le ${when} (galerie « ${gallery.title} »).`,
    "",
    "Fichiers :",
    names || "(aucun)",
    ...(comments.length > 0
      ? ["", "Commentaires :", ...comments.map((photo) => `- ${photo.name} : ${photo.comment}`)]
      : []),
    "",
    `Voir la sélection : ${link}`,
  ].join("\n");
  const html = emailLayout({
    title: subject,
    brand,
    preheader: `${gallery.clientName} a choisi ${favourites.length} photos.`,
    body: [
      `<p>${escapeHtml(gallery.clientName)} a validé sa sélection de ${favourites.length} photos le ${escapeHtml(when)} (galerie « ${escapeHtml(gallery.title)} »).</p>`,
      `<p><strong>Fichiers :</strong><br>${escapeHtml(names || "(aucun)")}</p>`,
      comments.length > 0
        ? `<p><strong>Commentaires :</strong></p><ul>${comments
            .map(
              (photo) => `<li>${escapeHtml(photo.name)} : ${escapeHtml(photo.comment ?? "")}</li>`,
            )
            .join("")}</ul>`
        : "",
      emailButton(link, "Voir la sélection"),
    ].join(""),
    footer: `Message envoyé par le site ${escapeHtml(ofName(brand))} quand un client valide sa sélection.`,
  });
  return {
    to,
    subject,
    text,
    html,
    replyTo: { name: gallery.clientName, address: gallery.clientEmail },
  };
}

/**
 * The client's receipt of her validated selection (decision 0134): what reached the studio (the file names
 * she can quote, her comments), when, and whom to call to change it. Null when the gallery is gone or the
 * selection was reopened before the e-mail left (she will get the receipt of her next validation).
 */
export async function selectionReceiptEmail(galleryId: string): Promise<OutgoingMail | null> {
  const [gallery] = await db().select().from(galleries).where(eq(galleries.id, galleryId));
  if (!gallery?.selectionValidatedAt || gallery.deletingAt) return null;
  const favourites = await db()
    .select({ name: galleryPhotos.originalName, comment: galleryPhotos.favouriteComment })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.favourite, true)))
    .orderBy(asc(galleryPhotos.position));
  const content = await readSiteContent();
  const brand = content.documents.identity.brand;
  const contact = studioContact(content, gallery.studioId);
  const contactLine = [contact.name, contact.email, contact.phone].filter(Boolean).join(" · ");
  const link = galleryLink(gallery.id);
  const when = formatLongDateTimeFr(gallery.selectionValidatedAt);
  const count = favourites.length === 1 ? "1 photo" : `${favourites.length} photos`;
  const subject = `Votre sélection est bien arrivée : ${gallery.title}`;
  const intro = `Nous avons bien reçu votre sélection de ${count} (galerie « ${gallery.title} »), envoyée le ${when}.`;
  const change =
    "Elle ne peut plus être modifiée depuis la galerie : pour y changer quelque chose, répondez à cet e-mail ou contactez-nous.";
  const lines = favourites.map((photo) =>
    photo.comment ? `${photo.name} : ${photo.comment}` : photo.name,
  );
  const text = [
    `Bonjour ${gallery.clientName},`,
    "",
    intro,
    "",
    "Photos choisies :",
    ...(lines.length > 0 ? lines.map((line) => `- ${line}`) : ["(aucune)"]),
    "",
    change,
    `Vos photos restent visibles dans votre galerie : ${link}`,
    "",
    `Contact : ${contactLine}.`,
    "",
    `— ${brand}`,
  ].join("\n");
  const html = emailLayout({
    title: subject,
    brand,
    preheader: `Nous avons bien reçu votre sélection de ${count}.`,
    body: [
      `<h1 style="font-size:22px;line-height:1.3;margin:16px 0">Votre sélection est bien arrivée</h1>`,
      `<p style="margin:0 0 12px">Bonjour ${escapeHtml(gallery.clientName)},</p>`,
      `<p style="margin:0 0 12px">${escapeHtml(intro)}</p>`,
      `<p style="margin:0 0 4px"><strong>Photos choisies :</strong></p>`,
      lines.length > 0
        ? `<ul style="margin:0 0 12px">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`
        : `<p style="margin:0 0 12px">(aucune)</p>`,
      `<p style="margin:0 0 12px">${escapeHtml(change)}</p>`,
      emailButton(link, "Revoir mes photos"),
    ].join("\n"),
    footer: `Une question ? Répondez à cet e-mail ou contactez-nous : ${escapeHtml(contactLine)}.`,
  });
  return {
    to: gallery.clientEmail,
    subject,
    text,
    html,
    replyTo: { name: contact.name, address: contact.email },
  };
}

/** A client gallery's link and code, to its client (galleries.id; decision 0103). */
export const enqueueGalleryInvitation = defineMailKind<{ galleryId: string }>(
  "gallery-invitation",
  {
    failureKind: "gallery",
    compose: ({ galleryId }) => galleryInvitationEmail(galleryId),
    async afterDelivery({ galleryId }, mail) {
      await markInvitationSent(galleryId, mail.to);
      log.info("gallery_invitation_emailed", { id: galleryId });
    },
  },
);

/**
 * Queues the gallery's invitation and notes when the owner asked, in one transaction: the e-mail leaves
 * later (the mail queue, or once SMTP is configured), and the page shown after the send must already say
 * that it was sent and to whom, not « pas encore envoyé » until the queue gets to it. `token` is the form's
 * own id: the same form posted twice queues one e-mail (false then, and nothing changes).
 */
export async function requestInvitation(galleryId: string, token: unknown): Promise<boolean> {
  return db().transaction(async (tx) => {
    const queued = await enqueueGalleryInvitation(
      { galleryId },
      isUuid(token) ? { tx, once: `gallery-invitation:${galleryId}:${token}` } : { tx },
    );
    if (queued === null) return false;
    await tx
      .update(galleries)
      .set({ invitationRequestedAt: new Date() })
      .where(eq(galleries.id, galleryId));
    return true;
  });
}

/** A client's validated selection, to the gallery's studio (galleries.id; decision 0103). */
export const enqueueGallerySelection = defineMailKind<{ galleryId: string }>("gallery-selection", {
  failureKind: "gallery",
  compose: ({ galleryId }) => selectionEmail(galleryId),
});

/** The receipt of a validated selection, to the client (galleries.id; decision 0134). */
export const enqueueGallerySelectionReceipt = defineMailKind<{ galleryId: string }>(
  "gallery-selection-receipt",
  { failureKind: "gallery", compose: ({ galleryId }) => selectionReceiptEmail(galleryId) },
);
