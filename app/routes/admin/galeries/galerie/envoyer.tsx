import { Send } from "lucide-react";
import { useEffect } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/envoyer";
import { CopyField } from "~/components/admin/copy-field";
import { GalleryHeader } from "~/components/gallery-admin/gallery-header";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { Button } from "~/components/ui/button";
import { formatLongDateTimeFr } from "~/lib/dates";
import { POLL_INTERVAL_MS } from "~/lib/use-polled";

export { action, loader } from "./envoyer.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Envoyer « ${loaderData?.gallery.title ?? "Galerie"} » - Administration` },
];

/** The sentence that says where the invitation stands. */
function invitationSentence(
  invitation: Route.ComponentProps["loaderData"]["invitation"],
  mailConfigured: boolean,
): string {
  if (invitation.kind === "never") return "Le lien n'a pas encore été envoyé.";
  const at = formatLongDateTimeFr(invitation.at);
  if (invitation.kind === "sent") {
    // Sent before the address was recorded with it: the date alone.
    return invitation.to ? `Lien envoyé le ${at} à ${invitation.to}.` : `Lien envoyé le ${at}.`;
  }
  return mailConfigured
    ? `Lien envoyé le ${at} à ${invitation.to} : l'e-mail est en route.`
    : `Envoi demandé le ${at} pour ${invitation.to} : l'e-mail partira dès que l'envoi d'e-mails sera configuré.`;
}

/**
 * While the invitation waits in the mail queue (and e-mail is configured, so it will leave), the page reads
 * its loader again every POLL_INTERVAL_MS, only while the tab is in view: « l'e-mail est en route » becomes
 * « Lien envoyé le … à … » and the header's « Lien envoyé » without a reload.
 */
function useRefreshedWhileQueued(queued: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    // Started again after each reading (`state` back to idle).
    if (!queued || state !== "idle") return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "hidden") void revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [queued, revalidate, state]);
}

export default function GallerySend({ loaderData }: Route.ComponentProps) {
  const { gallery, link, code, invitation, ready, total, mailConfigured, preview } = loaderData;
  const busy = useNavigation().state === "submitting";
  useRefreshedWhileQueued(invitation.kind === "queued" && mailConfigured);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <GalleryHeader gallery={gallery} />
      <section
        aria-labelledby="acces-titre"
        className="space-y-4 rounded-xl border border-border bg-white p-6"
      >
        <h2 id="acces-titre" className="font-sans text-lg font-semibold">
          Le lien et le code
        </h2>
        <CopyField id="lien-galerie" label="Lien de la galerie" value={link} />
        <CopyField id="code-galerie" label="Code d'accès" value={code} />
      </section>
      <section
        aria-labelledby="envoi-titre"
        className="space-y-4 rounded-xl border border-border bg-white p-6"
      >
        <h2 id="envoi-titre" className="font-sans text-lg font-semibold">
          L'e-mail au client
        </h2>
        {mailConfigured ? null : (
          <MailNotConfigured>
            L'e-mail partira dès que l'envoi sera configuré ; en attendant, copiez le lien et le
            code ci-dessus.
          </MailNotConfigured>
        )}
        <p className="text-sm">
          {invitationSentence(invitation, mailConfigured)}{" "}
          {ready < total || total === 0
            ? `Photos prêtes : ${ready} sur ${total}.`
            : `Les ${total} photos sont prêtes.`}
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold">À</dt>
          <dd>{preview.to}</dd>
          {preview.replyTo ? (
            <>
              <dt className="font-semibold">Réponses à</dt>
              <dd>{preview.replyTo}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Objet</dt>
          <dd>{preview.subject}</dd>
        </dl>
        <figure className="space-y-1">
          <figcaption className="text-sm font-semibold">Aperçu du texte</figcaption>
          <pre className="overflow-x-auto rounded-md border border-border bg-muted/50 p-4 font-sans text-sm whitespace-pre-wrap">
            {preview.text}
          </pre>
        </figure>
        <Form method="post">
          <input type="hidden" name="id" value={gallery.id} />
          <input type="hidden" name="envoi" value={loaderData.sendToken} />
          <Button type="submit" name="intent" value="send" disabled={busy}>
            <Send aria-hidden="true" />
            {invitation.kind === "never"
              ? "Envoyer le lien au client"
              : "Envoyer de nouveau le lien au client"}
          </Button>
        </Form>
      </section>
    </div>
  );
}
