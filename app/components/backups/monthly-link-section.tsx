import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-table";
import { Button } from "~/components/ui/button";
import { formatLongDateTimeFr } from "~/lib/dates";

/**
 * The e-mail of each month (decision 0139): a link to download the latest backup, to keep one away from
 * the server. Works without JavaScript (a box and a button).
 */
export function MonthlyLinkSection({
  setting,
  busy,
}: {
  setting: { enabled: boolean; email: string; lastSentAt: string | null; mailConfigured: boolean };
  busy: boolean;
}) {
  return (
    <AdminSection id="lien-mensuel" title="Une sauvegarde chez vous chaque mois">
      <Form method="post" className="space-y-3 text-sm">
        <div className="flex items-start gap-3">
          <input
            type="checkbox"
            id="lien-mensuel-envoyer"
            name="envoyer"
            defaultChecked={setting.enabled}
            aria-describedby="lien-mensuel-aide"
            className="mt-0.5 size-5 shrink-0 accent-gold-dark"
          />
          <label htmlFor="lien-mensuel-envoyer" className="font-semibold">
            M'envoyer chaque mois un lien pour télécharger une sauvegarde
          </label>
        </div>
        <p id="lien-mensuel-aide" className="text-muted-foreground">
          À l'adresse {setting.email}. Le lien sert 7 jours, et seulement une fois connectée à
          l'administration : quelqu'un qui lirait l'e-mail ne pourrait rien en faire.
        </p>
        <p>
          {setting.lastSentAt
            ? `Dernier e-mail envoyé le ${formatLongDateTimeFr(setting.lastSentAt)}.`
            : setting.enabled
              ? "Aucun e-mail envoyé pour l'instant : le premier part vers 10 h, dès qu'une sauvegarde existe."
              : "Aucun e-mail envoyé."}
        </p>
        {setting.enabled && !setting.mailConfigured ? (
          <p className="font-medium text-amber-900">
            Les e-mails du site ne partent pas pour l'instant : demandez à la personne qui héberge
            le site de régler leur envoi (SMTP_URL).
          </p>
        ) : null}
        <Button type="submit" name="intent" value="monthly-link" variant="outline" disabled={busy}>
          Enregistrer
        </Button>
      </Form>
    </AdminSection>
  );
}
