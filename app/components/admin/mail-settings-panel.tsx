import { CheckCircle2, CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import {
  emailCount,
  formatCount,
  ratePerMinute,
  type MailSettings,
  type WaitingMail,
} from "~/lib/newsletter-admin";

/** What waits in the queue, in one sentence. */
export function waitingSentence(waiting: WaitingMail | null): string {
  if (!waiting) return "Impossible de lire la file d'attente pour l'instant.";
  const parts = [
    waiting.messages > 0
      ? `${emailCount(waiting.messages)} (confirmations d'inscription, messages de contact, liens d'administration)`
      : null,
    waiting.newsletterEmails > 0
      ? `${emailCount(waiting.newsletterEmails)} de newsletter (${formatCount(waiting.newsletterBatches)} lot${waiting.newsletterBatches > 1 ? "s" : ""} dans la file)`
      : null,
  ].filter(Boolean);
  return parts.length === 0
    ? "Aucun e-mail n'attend d'être envoyé."
    : `En attente d'envoi : ${parts.join(" et ")}.`;
}

function Setting({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[14rem_1fr] sm:gap-4">
      <dt className="font-semibold">{term}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/**
 * /admin/newsletter's settings check: whether e-mail leaves (SMTP_URL), from whom, signed or not (DKIM), at
 * what pace, and what waits in the queue. Without SMTP_URL it says what to set, and that nothing is lost.
 */
export function MailSettingsPanel({
  settings,
  waiting,
}: {
  settings: MailSettings;
  /** Null when the queue could not be read. */
  waiting: WaitingMail | null;
}) {
  return (
    <div className="space-y-4">
      {settings.enabled ? (
        <p className="flex items-center gap-2 font-semibold text-emerald-900">
          <CheckCircle2 aria-hidden="true" className="size-5" />
          L'envoi d'e-mails est activé.
        </p>
      ) : (
        <MailNotConfigured title="L'envoi d'e-mails est désactivé">
          Rien n'est perdu : les e-mails (confirmations d'inscription, messages de contact,
          newsletters) attendent dans la file et partiront dès que le site aura redémarré avec{" "}
          <code className="font-mono">SMTP_URL</code> (les newsletters pendant un an, les autres
          e-mails pendant 30 jours ; les messages de contact restent de toute façon dans « Messages
          »). {waitingSentence(waiting)}
        </MailNotConfigured>
      )}
      <dl className="divide-y divide-border text-sm">
        <Setting term="Serveur d'envoi">
          {settings.server ? (
            <>
              <code className="font-mono">{settings.server}</code>{" "}
              {settings.secure
                ? "(connexion chiffrée SMTPS)"
                : "(STARTTLS si le serveur le propose)"}
            </>
          ) : (
            <span className="inline-flex items-center gap-1.5">
              <CircleAlert aria-hidden="true" className="size-4 text-amber-700" />
              Aucun : <code className="font-mono">SMTP_URL</code> n'est pas défini
            </span>
          )}
        </Setting>
        <Setting term="Expéditeur">
          {settings.sender}
          <span className="block text-muted-foreground">
            {settings.senderFromEnvironment ? (
              "Défini par SMTP_FROM."
            ) : (
              <>
                Nom et adresse de l'
                <a href="/admin/site#identite" className="underline underline-offset-2">
                  identité du site
                </a>{" "}
                : SMTP_FROM n'est pas défini.
              </>
            )}
          </span>
        </Setting>
        <Setting term="Signature DKIM">
          {settings.dkim ? (
            <>
              Activée : domaine <code className="font-mono">{settings.dkim.domain}</code>, sélecteur{" "}
              <code className="font-mono">{settings.dkim.selector}</code>
            </>
          ) : (
            <>
              Désactivée
              <span className="block text-muted-foreground">
                Facultative, elle aide les e-mails à ne pas finir en indésirables : définissez
                DKIM_DOMAIN, DKIM_SELECTOR et DKIM_PRIVATE_KEY.
              </span>
            </>
          )}
        </Setting>
        <Setting term="Rythme d'envoi">
          {ratePerMinute(settings.ratePerMinute)}
          <span className="block text-muted-foreground">Réglable par MAIL_RATE_PER_MINUTE.</span>
        </Setting>
        {/* Without SMTP_URL the box above says what waits. */}
        {settings.enabled ? (
          <Setting term="File d'attente">{waitingSentence(waiting)}</Setting>
        ) : null}
      </dl>
    </div>
  );
}
