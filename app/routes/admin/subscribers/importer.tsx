import { Upload } from "lucide-react";
import { useEffect } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/importer";
import { Field } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { ErrorList, fieldMeta, useFormErrors } from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import { formatCount } from "~/lib/newsletter-admin";
import { formatSize } from "~/lib/sizes";
import {
  IMPORT_ATTESTATION,
  importFormErrors,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_LINES,
  type ImportSummary,
} from "~/lib/subscriber-import";

export { action, loader } from "./importer.server";

/*
 * The owner imports people who already consented, with the consent date (decision 0084). The file is
 * read and the valid lines added in one go; the page then says what happened to each line. Posting the same
 * file again changes nothing: its addresses are then already present.
 */

export const meta: Route.MetaFunction = () => [{ title: "Importer des abonnés - Administration" }];

/** « 1 adresse ajoutée », « 3 adresses ajoutées ». */
function counted(count: number, singular: string, plural: string): string {
  return `${formatCount(count)} ${count > 1 ? plural : singular}`;
}

function Summary({ summary }: { summary: ImportSummary }) {
  const hidden = summary.invalidCount - summary.invalid.length;
  return (
    <section
      aria-labelledby="bilan-titre"
      className="space-y-4 rounded-xl border border-emerald-200 bg-white p-6"
    >
      <h2 id="bilan-titre" className="text-xl font-semibold">
        Import du fichier « {summary.fileName} » terminé
      </h2>
      <p role="status" className="sr-only">
        Import terminé : {counted(summary.added, "adresse ajoutée", "adresses ajoutées")},{" "}
        {counted(summary.invalidCount, "ligne invalide", "lignes invalides")}.
      </p>
      <ul className="space-y-1">
        <li>
          <strong>{counted(summary.added, "adresse ajoutée", "adresses ajoutées")}</strong>{" "}
          (abonnées, avec la date de consentement du fichier)
        </li>
        <li>
          {counted(
            summary.alreadyPresent,
            "déjà présente (inchangée)",
            "déjà présentes (inchangées)",
          )}
        </li>
        <li>{formatCount(summary.unsubscribed)} désabonné·e·s, non réinscrit·e·s</li>
        <li>{counted(summary.invalidCount, "ligne invalide", "lignes invalides")}</li>
      </ul>
      {summary.invalid.length > 0 ? (
        <div>
          <h3 className="font-sans text-base font-semibold">Lignes invalides (non importées)</h3>
          <ul className="mt-2 space-y-1 text-sm">
            {summary.invalid.map((line) => (
              <li key={line.line}>
                Ligne {line.line} : {line.reason}
              </li>
            ))}
          </ul>
          {hidden > 0 ? (
            <p className="mt-2 text-sm">
              … et {counted(hidden, "autre ligne invalide", "autres lignes invalides")}.
            </p>
          ) : null}
          <p className="mt-2 text-sm text-muted-foreground">
            Corrigez ces lignes et importez le fichier de nouveau : les adresses déjà ajoutées
            resteront inchangées.
          </p>
        </div>
      ) : null}
      <p>
        <Link to="/admin/subscribers" className="underline underline-offset-4">
          Voir les abonnés
        </Link>
      </p>
    </section>
  );
}

export default function SubscribersImport({ loaderData, actionData }: Route.ComponentProps) {
  const summary = actionData && "summary" in actionData ? actionData.summary : null;
  const answer = actionData && !("summary" in actionData) ? actionData : undefined;
  useServerToast(answer?.toast);
  const { errors, setClientErrors, formRef } = useFormErrors(answer?.errors);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const attestation = fieldMeta("champ", "attestation", errors.attestation, true);
  // After an import the form is emptied: the next file starts from scratch.
  useEffect(() => {
    if (summary) formRef.current?.reset();
  }, [summary, formRef]);

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/admin/subscribers" className="underline-offset-4 hover:underline">
            ← Abonnés
          </Link>
        </p>
        <h1 id="importer-titre" className="mt-1 text-3xl font-bold">
          Importer des abonnés
        </h1>
      </div>

      {summary ? <Summary summary={summary} /> : null}

      <section className="space-y-3 rounded-xl border border-border bg-white p-6 text-sm">
        <h2 className="text-lg font-semibold">Le fichier attendu</h2>
        <p>
          Un fichier CSV (colonnes séparées par des virgules ou des points-virgules, encodé en
          UTF-8) de personnes qui ont <strong>déjà accepté</strong> de recevoir la newsletter, par
          exemple une liste tenue dans un autre outil. Sa première ligne nomme les colonnes{" "}
          <code className="font-mono">email</code> et{" "}
          <code className="font-mono">date_consentement</code> ; les dates s'écrivent JJ/MM/AAAA ou
          AAAA-MM-JJ.
        </p>
        <pre className="rounded-md bg-muted px-4 py-3 font-mono text-sm">
          {"email;date_consentement\nmarie@example.fr;05/03/2025\njean@example.fr;2025-04-18"}
        </pre>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            Les personnes importées deviennent abonnées sans recevoir d'e-mail de confirmation :
            votre attestation est enregistrée avec chaque adresse comme preuve de leur accord.
          </li>
          <li>
            Les adresses déjà connues restent inchangées ; une personne qui s'est désabonnée n'est
            jamais réinscrite.
          </li>
          <li>
            Un consentement de plus de {loaderData.retentionMonths} mois n'est pas importé : c'est
            la durée de conservation des données du site.
          </li>
          <li>
            {formatSize(MAX_IMPORT_BYTES)} et {formatCount(MAX_IMPORT_LINES)} lignes au plus par
            fichier.
          </li>
        </ul>
      </section>

      <section className="rounded-xl border border-border bg-white p-6">
        <Form
          ref={formRef}
          method="post"
          encType="multipart/form-data"
          noValidate
          aria-labelledby="importer-titre"
          className="space-y-5"
          onSubmit={(event) => {
            const form = new FormData(event.currentTarget);
            const file = form.get("fichier");
            const found = importFormErrors(
              file instanceof File ? file : null,
              form.get("attestation") === "on",
            );
            if (Object.keys(found).length > 0) {
              event.preventDefault();
              setClientErrors(found);
            } else setClientErrors(null);
          }}
        >
          <Field name="fichier" label="Fichier CSV" error={errors.fichier}>
            {(props) => (
              <input
                {...props}
                type="file"
                accept=".csv,text/csv"
                required
                disabled={busy}
                className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-full file:border file:border-stone-400 file:bg-white file:px-4 file:font-semibold"
              />
            )}
          </Field>
          <div>
            <div className="flex items-start gap-3">
              <input
                // A new answer (a refusal) sets the box as it was posted.
                key={answer?.values.attestation ?? ""}
                type="checkbox"
                id={attestation.id}
                name="attestation"
                required
                defaultChecked={answer?.values.attestation === "on"}
                aria-invalid={attestation.errors ? true : undefined}
                aria-describedby={attestation.errors ? attestation.errorId : undefined}
                className="mt-0.5 size-5 shrink-0 accent-gold-dark"
              />
              <label htmlFor={attestation.id} className="font-semibold">
                {IMPORT_ATTESTATION}
                <span aria-hidden="true" className="text-destructive">
                  {" "}
                  *
                </span>
              </label>
            </div>
            <ErrorList id={attestation.errorId} errors={attestation.errors} />
          </div>
          <Button type="submit" disabled={busy}>
            <Upload aria-hidden="true" />
            {busy ? "Import en cours..." : "Importer"}
          </Button>
        </Form>
      </section>
    </div>
  );
}
