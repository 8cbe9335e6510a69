import type { Route } from "./+types/envoyer";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { formatAccessCode } from "~/server/galleries/access.server";
import { requireGallery } from "~/server/galleries/admin-pages.server";
import {
  galleryInvitationEmail,
  galleryLink,
  requestInvitation,
} from "~/server/galleries/emails.server";
import { galleryCounts } from "~/server/galleries/galleries.server";
import { refusedIntent } from "~/server/forms.server";
import { mailConfig } from "~/server/mail/transport.server";
import { redirectWithToast } from "~/server/toast.server";

/**
 * Where the invitation stands: asked for and still in the mail queue (it goes to the client's address as
 * it is when it leaves), accepted by the mail server (to the address it went to), or never asked for.
 */
function invitationState(
  gallery: {
    invitationRequestedAt: Date | null;
    invitationSentAt: Date | null;
    invitationSentTo: string | null;
  },
  clientEmail: string,
) {
  const { invitationRequestedAt: requestedAt, invitationSentAt: sentAt } = gallery;
  if (requestedAt && (!sentAt || requestedAt > sentAt)) {
    return { kind: "queued" as const, at: requestedAt.toISOString(), to: clientEmail };
  }
  if (sentAt) {
    return { kind: "sent" as const, at: sentAt.toISOString(), to: gallery.invitationSentTo };
  }
  return { kind: "never" as const };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { gallery, header } = await requireGallery(params.id);
  const mail = await galleryInvitationEmail(gallery.id);
  if (!mail) throw new Error("a gallery found has an invitation");
  const counts = await galleryCounts(gallery.id);
  return {
    gallery: header,
    link: galleryLink(gallery.id),
    code: formatAccessCode(gallery.accessCode),
    invitation: invitationState(gallery, mail.to),
    ready: counts.ready,
    total: counts.total,
    mailConfigured: mailConfig() !== null,
    // The form's own id: the same form posted twice (a double click without JavaScript, a resent POST)
    // queues one e-mail; the page shown after a send has a new one, for a deliberate second send.
    sendToken: crypto.randomUUID(),
    preview: {
      to: mail.to,
      replyTo: mail.replyTo ? `${mail.replyTo.name} <${mail.replyTo.address}>` : null,
      subject: mail.subject,
      text: mail.text,
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const parsed = parseIntent(formData, ["send"]);
  if (!parsed.ok || parsed.id !== params.id) {
    return refusedIntent(parsed.ok ? "id" : parsed.reason, "Galerie inconnue");
  }
  const { gallery } = await requireGallery(params.id);
  const queued = await requestInvitation(gallery.id, formData.get("envoi"));
  return redirectWithToast(
    `/admin/galeries/${gallery.id}/envoyer`,
    !queued
      ? {
          type: "info",
          title: "E-mail déjà demandé",
          description: `Ce formulaire a déjà été envoyé : un seul e-mail part vers ${gallery.clientEmail}.`,
        }
      : mailConfig()
        ? {
            type: "success",
            title: "E-mail en route",
            description: `Le lien et le code partent vers ${gallery.clientEmail}.`,
          }
        : {
            type: "info",
            title: "E-mail en attente",
            description: `Il partira vers ${gallery.clientEmail} dès que l'envoi d'e-mails sera configuré (SMTP_URL).`,
          },
  );
}
