import { Form } from "react-router";
import type { Route } from "./+types/paiement";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { documentFormState } from "~/components/admin/document-answer";
import { DocumentForm, useDocumentForm } from "~/components/admin/document-form";
import { ADMIN_FORM_ID, Field, Input, TableRows } from "~/components/admin/field";
import { RevisionHistory } from "~/components/admin/revision-history";
import { Button } from "~/components/ui/button";
import { formatLongDateTimeFr } from "~/lib/dates";
import type { FieldSpecs } from "~/lib/field-table";
import {
  PAYMENT_METHOD_FIELDS,
  PAYMENT_SALES_FIELDS,
  PAYMENT_TRANSFER_FIELDS,
  PAYMENT_VOUCHER_FIELDS,
} from "~/lib/payments/settings-form";

export { action, loader } from "./paiement.server";

export const meta: Route.MetaFunction = () => [
  { title: "Paiements et bons cadeaux - Administration" },
];

/** A table's fields with the surrounding document form's values and errors. */
function SettingsRows({ table }: { table: { fields: FieldSpecs; names: readonly string[] } }) {
  const { values, errors } = useDocumentForm();
  return <TableRows table={table} values={values} errors={errors} />;
}

function Section({
  title,
  children,
  description,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  return (
    <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
      <legend className="px-1 font-sans text-lg font-semibold">{title}</legend>
      {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      {children}
    </fieldset>
  );
}

type KeysAnswer = {
  keysForm: true;
  errors: Partial<Record<"secretKey" | "webhookSecret", string>>;
};

function isKeysAnswer(value: unknown): value is KeysAnswer {
  return typeof value === "object" && value !== null && "keysForm" in value;
}

export default function AdminPaymentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const state = documentFormState(
    "payments",
    loaderData.values,
    loaderData.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  const keysErrors = isKeysAnswer(actionData) ? actionData.errors : {};
  const { keys } = loaderData;
  return (
    <div className="space-y-8">
      <AdminPageHeader
        title="Paiements et bons cadeaux"
        summary="Ce que le site vend, comment vos clients paient, et les règles de vos bons cadeaux."
      />
      {keys.state === "set" && keys.mode === "test" ? (
        <p
          role="status"
          className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm font-medium text-amber-900"
        >
          Mode test : les paiements par carte passent par le mode test de Stripe, aucun paiement
          réel n'est encaissé.
        </p>
      ) : null}
      {loaderData.depositWarnings.length > 0 ? (
        <div
          role="status"
          className="space-y-2 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm font-medium text-amber-900"
        >
          {loaderData.depositWarnings.map((warning) => (
            <p key={warning}>{warning}</p>
          ))}
        </div>
      ) : null}

      <DocumentForm
        formId={ADMIN_FORM_ID}
        document="payments"
        title="Réglages de paiement"
        {...state}
        previews={[]}
      >
        <Section title="Vente en ligne">
          <SettingsRows table={PAYMENT_SALES_FIELDS} />
        </Section>
        <Section
          title="Moyens de paiement acceptés"
          description="Cochez ceux que vos clients peuvent choisir en commandant."
        >
          <SettingsRows table={PAYMENT_METHOD_FIELDS} />
        </Section>
        <Section
          title="Virement"
          description="Vos coordonnées bancaires, envoyées à l'acheteur qui choisit le virement."
        >
          <SettingsRows table={PAYMENT_TRANSFER_FIELDS} />
        </Section>
        <Section title="Bons cadeaux">
          <SettingsRows table={PAYMENT_VOUCHER_FIELDS} />
        </Section>
      </DocumentForm>

      <section
        aria-labelledby="cles-stripe"
        className="space-y-4 rounded-xl border border-border bg-white p-6"
      >
        <h2 id="cles-stripe" className="font-sans text-lg font-semibold">
          Paiement par carte : clés Stripe
        </h2>
        <p className="text-sm text-muted-foreground">
          Les clients paient sur la page sécurisée de Stripe ; l'argent arrive sur votre compte
          Stripe. Vos clés se trouvent dans le tableau de bord Stripe, rubrique Développeurs › Clés
          API. Elles sont conservées chiffrées et ne sont plus jamais affichées.
        </p>
        {keys.state === "set" && keys.refusedAt ? (
          <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm font-medium text-red-800">
            Stripe refuse cette clé secrète depuis le{" "}
            {formatLongDateTimeFr(new Date(keys.refusedAt))} : elle a sans doute été révoquée ou
            remplacée depuis votre tableau de bord Stripe. Vos clients ne peuvent pas payer par
            carte et les remboursements par carte ne partent pas.{" "}
            {keys.source === "environment"
              ? "Demandez à la personne qui s'occupe de l'hébergement du site de remplacer STRIPE_SECRET_KEY par la clé de votre tableau de bord Stripe (Développeurs › Clés API)."
              : "Copiez vos clés depuis votre tableau de bord Stripe (Développeurs › Clés API) et saisissez-les de nouveau ci-dessous."}
          </p>
        ) : null}
        {keys.state === "set" ? (
          <div className="space-y-2 rounded-lg bg-muted p-4 text-sm">
            <p>
              <span className="font-semibold">Clé enregistrée :</span> {keys.hint} (
              {keys.mode === "test" ? "mode test" : "mode réel"})
              {keys.savedAt ? `, le ${formatLongDateTimeFr(new Date(keys.savedAt))}` : ""}
            </p>
            <p>
              {keys.webhookSecret
                ? "Secret de signature des notifications enregistré."
                : "Pas de secret de signature des notifications : il est enregistré avec la clé."}
            </p>
            <p>
              {loaderData.lastEvent
                ? `Dernière notification de Stripe reçue le ${formatLongDateTimeFr(new Date(loaderData.lastEvent.receivedAt))}.`
                : "Aucune notification de Stripe reçue pour l'instant : la première arrive avec le premier paiement."}
            </p>
            {keys.source === "environment" ? (
              <p>
                Ces clés viennent de la configuration du serveur (STRIPE_SECRET_KEY) : elles se
                changent là.
              </p>
            ) : null}
          </div>
        ) : keys.state === "unreadable" ? (
          <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm font-medium text-red-800">
            Les clés enregistrées ne peuvent pas être lues par ce serveur (une sauvegarde restaurée
            d'un autre serveur ?) : saisissez-les à nouveau.
          </p>
        ) : (
          <p className="text-sm">Aucune clé enregistrée : le paiement par carte est impossible.</p>
        )}
        {keys.state === "set" && keys.source === "environment" ? null : (
          <Form method="post" noValidate className="space-y-4" aria-label="Clés Stripe">
            <input type="hidden" name="intent" value="save-keys" />
            <Field
              name="secretKey"
              label="Clé secrète"
              error={keysErrors.secretKey}
              hint="Commence par sk_live_ (paiements réels) ou sk_test_ (essais)."
            >
              {(props) => (
                <Input {...props} type="password" autoComplete="off" spellCheck={false} />
              )}
            </Field>
            <Field
              name="webhookSecret"
              label="Secret de signature des notifications (facultatif)"
              error={keysErrors.webhookSecret}
              hint="Commence par whsec_. Laissez vide : le site déclare lui-même son adresse de notification à Stripe."
            >
              {(props) => (
                <Input {...props} type="password" autoComplete="off" spellCheck={false} />
              )}
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit">Enregistrer les clés</Button>
            </div>
          </Form>
        )}
        {keys.state === "set" && keys.source === "admin" ? (
          <ConfirmedActionForm
            id="stripe"
            intent="remove-keys"
            param="retirer-cles"
            confirmation="Retirer les clés Stripe ? Le paiement par carte ne sera plus possible."
            label="Retirer les clés"
            variant="destructive"
          />
        ) : null}
      </section>

      <RevisionHistory history={loaderData.history} title="Historique des réglages de paiement" />
    </div>
  );
}
