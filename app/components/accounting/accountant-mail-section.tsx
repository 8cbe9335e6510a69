import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-table";
import { Field, Input } from "~/components/admin/field";
import { FormAlert } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { ACCOUNTANT_MAIL_FIELDS } from "~/lib/accounting/accountant-mail";
import { formatLongDateTimeFr } from "~/lib/dates";
import { ofName } from "~/lib/french";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

export type AccountantSetting = {
  email: string;
  monthly: boolean;
  /** `waiting`: not sent yet, still in the mail queue; not sent and not waiting: it will never leave. */
  lastMonthly: { month: string; sentAt: string | null; waiting: boolean } | null;
  /** Earlier months whose monthly e-mail will never leave (« novembre 2026 »), and the page at each. */
  notSent: { month: string; href: string }[];
  /** The last e-mail to the saved address the mail server gave up, and what it said (in French). */
  refused: { at: string; error: string } | null;
  mailConfigured: boolean;
};

/** What the page says of the mail server's last refusal of the saved address, or null. */
export function refusedSentence(refused: AccountantSetting["refused"]): string | null {
  if (!refused) return null;
  return `Le serveur d'e-mails a refusé un envoi à cette adresse le ${formatLongDateTimeFr(refused.at)} : ${refused.error} Vérifiez l'adresse de votre comptable, enregistrez-la, puis envoyez-lui les fichiers.`;
}

/**
 * The monthly e-mail's last month, as the page says it: its files sent, and when; waiting; or not sent
 * (refused, never answered, or stopped before it left), with how to send them.
 */
export function lastMonthlySentence(lastMonthly: AccountantSetting["lastMonthly"]): string {
  if (!lastMonthly) return "Aucun envoi mensuel pour l'instant.";
  if (lastMonthly.sentAt) {
    return `Dernier envoi mensuel : les fichiers ${ofName(lastMonthly.month)}, le ${formatLongDateTimeFr(lastMonthly.sentAt)}.`;
  }
  if (lastMonthly.waiting) {
    return `Envoi mensuel des fichiers ${ofName(lastMonthly.month)} en attente du serveur d'e-mails.`;
  }
  // Files sent from the page to another address than the accountant's leave the month told (decision
  // 0189, amended): the sentence says so, and how to send them so that they count.
  return `Les fichiers ${ofName(lastMonthly.month)} ne sont pas parvenus à votre comptable : le serveur d'e-mails a refusé l'adresse ou n'a pas répondu, ou l'envoi mensuel a été arrêté avant leur départ. Vérifiez l'adresse ci-dessus, enregistrez-la avec l'envoi mensuel coché, puis affichez la période ${ofName(lastMonthly.month)} en haut de cette page et cliquez sur « Envoyer maintenant les fichiers de la période ». Envoyés à une autre adresse, ils restent signalés ici.`;
}

/** What the page says of earlier months whose files did not reach the accountant, before their links, or null. */
export function notSentSentence(notSent: AccountantSetting["notSent"]): string | null {
  if (notSent.length === 0) return null;
  const one = notSent.length === 1;
  return `${one ? "Les fichiers d'un mois précédent" : `Les fichiers de ${notSent.length} mois précédents`} ne sont pas parvenus à votre comptable : le serveur d'e-mails a refusé l'adresse ou n'a pas répondu, ou l'envoi mensuel a été arrêté avant leur départ. L'adresse de votre comptable enregistrée ci-dessus avec l'envoi mensuel coché, ${one ? "affichez sa période" : "affichez la période de chacun"} et cliquez sur « Envoyer maintenant les fichiers de la période » (envoyés à une autre adresse, ils restent signalés ici) :`;
}

/**
 * The accountant's address and the switch of the monthly e-mail of her files (decision 0189). Works
 * without JavaScript (a field, a box and « Enregistrer »); a refusal keeps what was typed.
 */
export function AccountantMailSection({
  setting,
  period,
  answer,
}: {
  setting: AccountantSetting;
  /** The page's period, to come back to it after saving. */
  period: { from: string; to: string };
  /** What the action answered when it refused this form. */
  answer?: { values: Record<string, string>; errors?: FieldErrors; toast?: ToastMessage };
}) {
  const email = answer ? (answer.values.email ?? "") : setting.email;
  const monthly = answer ? answer.values.envoiMensuel === "on" : setting.monthly;
  return (
    <AdminSection id="cabinet-comptable" title="Envoi au cabinet comptable">
      <Form
        method="post"
        noValidate
        aria-label="Envoi au cabinet comptable"
        className="space-y-4 text-sm"
        // A refusal's values replace the saved ones in the fields.
        key={answer ? JSON.stringify(answer.values) : "saved"}
      >
        <FormAlert message={answer?.toast} />
        <input type="hidden" name="du" value={period.from} />
        <input type="hidden" name="au" value={period.to} />
        <Field
          name="email"
          label={ACCOUNTANT_MAIL_FIELDS.email}
          error={answer?.errors?.email}
          hint="Les quatre fichiers partent à cette adresse, en pièces jointes, quand vous cliquez sur « Envoyer maintenant » ou chaque mois si vous le demandez."
        >
          {(props) => (
            <Input
              {...props}
              type="email"
              autoComplete="off"
              spellCheck={false}
              defaultValue={email}
              className="max-w-md"
            />
          )}
        </Field>
        <div className="flex items-start gap-3">
          <input
            type="checkbox"
            id="champ-envoiMensuel"
            name="envoiMensuel"
            defaultChecked={monthly}
            aria-describedby="champ-envoiMensuel-aide"
            className="mt-0.5 size-5 shrink-0 accent-gold-dark"
          />
          <label htmlFor="champ-envoiMensuel" className="font-semibold">
            {ACCOUNTANT_MAIL_FIELDS.envoiMensuel}
          </label>
        </div>
        <p id="champ-envoiMensuel-aide" className="text-muted-foreground">
          Le 1er de chaque mois, vers 7 h, les fichiers du mois précédent partent une seule fois à
          votre comptable, même si l'identité du vendeur n'est pas encore complète. Si vous les lui
          avez déjà envoyés vous-même depuis cette page (le mois entier, l'envoi mensuel coché), ils
          ne repartent pas : cet envoi compte comme l'envoi mensuel de ce mois.
        </p>
        <p
          className={
            setting.lastMonthly && !setting.lastMonthly.sentAt && !setting.lastMonthly.waiting
              ? "font-medium text-amber-900"
              : undefined
          }
        >
          {lastMonthlySentence(setting.lastMonthly)}
        </p>
        {notSentSentence(setting.notSent) ? (
          <div className="font-medium text-amber-900">
            <p>{notSentSentence(setting.notSent)}</p>
            <ul className="mt-1 list-disc pl-5">
              {setting.notSent.map((month) => (
                <li key={month.href}>
                  <a href={month.href} className="underline">
                    {`Fichiers ${ofName(month.month)}`}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {refusedSentence(setting.refused) ? (
          <p className="font-medium text-amber-900">{refusedSentence(setting.refused)}</p>
        ) : null}
        {!setting.mailConfigured ? (
          <p className="font-medium text-amber-900">
            Les e-mails du site ne partent pas pour l'instant : demandez à la personne qui héberge
            le site de régler leur envoi (SMTP_URL).
          </p>
        ) : null}
        <Button type="submit" name="intent" value="accountant-mail" variant="outline">
          Enregistrer
        </Button>
      </Form>
    </AdminSection>
  );
}
