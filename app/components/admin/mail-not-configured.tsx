import type { ReactNode } from "react";

/**
 * Shown by the pages that send e-mail (forgotten password, invitations) when SMTP_URL is not set: how to
 * configure it, rather than pretending to send.
 */
export function MailNotConfigured({
  title = "L'envoi d'e-mails n'est pas configuré",
  children,
}: {
  title?: string;
  children?: ReactNode;
}) {
  return (
    <div
      role="status"
      className="space-y-2 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p className="font-semibold">{title}</p>
      <p>
        Pour l'activer, définissez sur le serveur la variable d'environnement{" "}
        <code className="font-mono">SMTP_URL</code> (par exemple{" "}
        <code className="font-mono break-all">
          smtps://utilisateur:motdepasse@smtp.example.com:465
        </code>
        ) et, si besoin, <code className="font-mono">SMTP_FROM</code> (l'expéditeur, par exemple{" "}
        <code className="font-mono">Studio &lt;contact@example.com&gt;</code>), puis redémarrez le
        site.
      </p>
      {children ? <p>{children}</p> : null}
    </div>
  );
}
