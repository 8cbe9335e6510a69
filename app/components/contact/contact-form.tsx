import { CheckCircle2, CircleAlert } from "lucide-react";
import { useActionData } from "react-router";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot-field";
import {
  ErrorSummary,
  Field,
  fieldMeta,
  Input,
  Select,
  Textarea,
  type FieldMeta,
} from "~/components/ui/field";
import { MESSAGE_MAX_LENGTH, type ContactFormSettings, type Option } from "~/lib/contact-forms";
import type { FieldErrors } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { contactToasts, type ContactFormResult } from "../../lib/contact-outcome";

const FIELD_ORDER = ["shootingType", "prenom", "nom", "email", "telephone", "message", "source"];

const LABELS: Record<string, string> = {
  shootingType: "Type de séance",
  prenom: "Prénom",
  nom: "Nom",
  email: "Email",
  telephone: "Téléphone",
  message: "Votre message",
  source: "Comment nous avez-vous connus ?",
};

type ContactFormProps = {
  /** The studio's slug: names the form's fields (ids). */
  studio: string;
  /** The studio's shooting types, sources and required fields (edited with the studio). */
  settings: ContactFormSettings;
  /** Where to post when it is not the current page (e.g. /contact?studio=brive). */
  action?: string;
  className?: string;
};

/**
 * A studio's contact form (SPEC §2, §4, §5) on a light page (decision 0137): a plain form post, answered by
 * the page with the outcome under the form, the refused values at their fields (with a summary) and what
 * was typed in place. The light script (`data-in-place`, app/light-script.ts) posts the same body with
 * `fetch`, takes this same markup from the answered page, holds the outcome until 1 s after the click and
 * says « Envoi en cours... » meanwhile; the server's validation is the only one.
 */
export function ContactForm({ studio, settings, action, className }: ContactFormProps) {
  const hasTelephone = settings.telephone !== "none";
  const hasSource = settings.sources.length > 0;
  const shown = useActionData<ContactFormResult | undefined>();
  const errors: FieldErrors = shown && shown.status !== "sent" ? shown.errors : {};
  const values = shown && shown.status !== "sent" ? shown.values : {};
  const formId = `contact-${studio}`;
  const field = (name: string, required = true) => fieldMeta(formId, name, errors[name], required);
  const fields = {
    shootingType: field("shootingType"),
    prenom: field("prenom"),
    nom: field("nom"),
    email: field("email"),
    telephone: field("telephone", settings.telephone === "required"),
    message: field("message"),
    source: field("source", settings.sourceRequired),
  } satisfies Record<string, FieldMeta>;
  const summary = FIELD_ORDER.filter(
    (name) => (name !== "telephone" || hasTelephone) && (name !== "source" || hasSource),
  ).map((name) => ({
    field: fields[name as keyof typeof fields],
    label: LABELS[name] ?? name,
  }));
  // The outcome worth a sentence under the form: not a refusal, which the fields and summary describe.
  const outcome = shown && shown.status !== "invalid" ? shown : undefined;

  return (
    <form
      id={formId}
      method="post"
      action={action}
      noValidate
      aria-labelledby={`${formId}-titre`}
      className={cn("space-y-5", className)}
      data-in-place=""
      data-outcome={shown?.status}
      data-sending-label="Envoi en cours..."
    >
      <div data-fields="" className="space-y-5">
        <h2 id={`${formId}-titre`} className="text-2xl font-bold">
          Envoyez-nous un message
        </h2>
        <p className="text-sm text-muted-foreground">
          Les champs marqués d'un <span aria-hidden="true">*</span>
          <span className="sr-only">astérisque</span> sont obligatoires.
        </p>

        <ErrorSummary id={`${formId}-resume`} items={summary} />

        <Field field={fields.shootingType} label={LABELS.shootingType}>
          {(props) => (
            <Select {...props} defaultValue={values.shootingType ?? ""}>
              <option value="">Choisissez un type de séance</option>
              <Options options={settings.shootingTypes} />
            </Select>
          )}
        </Field>

        <div className="grid gap-5 sm:grid-cols-2">
          <Field field={fields.prenom} label={LABELS.prenom}>
            {(props) => (
              <Input
                {...props}
                defaultValue={values.prenom ?? ""}
                type="text"
                autoComplete="given-name"
                maxLength={100}
              />
            )}
          </Field>
          <Field field={fields.nom} label={LABELS.nom}>
            {(props) => (
              <Input
                {...props}
                defaultValue={values.nom ?? ""}
                type="text"
                autoComplete="family-name"
                maxLength={100}
              />
            )}
          </Field>
        </div>

        <div className={cn("grid gap-5", hasTelephone && "sm:grid-cols-2")}>
          <Field field={fields.email} label={LABELS.email}>
            {(props) => (
              <Input
                {...props}
                defaultValue={values.email ?? ""}
                type="email"
                autoComplete="email"
                maxLength={255}
              />
            )}
          </Field>
          {hasTelephone ? (
            <Field field={fields.telephone} label={LABELS.telephone}>
              {(props) => (
                <Input
                  {...props}
                  defaultValue={values.telephone ?? ""}
                  type="tel"
                  autoComplete="tel"
                  maxLength={30}
                />
              )}
            </Field>
          ) : null}
        </div>

        <Field field={fields.message} label={LABELS.message}>
          {(props) => (
            <Textarea
              {...props}
              defaultValue={values.message ?? ""}
              rows={5}
              maxLength={MESSAGE_MAX_LENGTH}
            />
          )}
        </Field>

        {hasSource ? (
          <Field field={fields.source} label={LABELS.source}>
            {(props) => (
              <Select {...props} defaultValue={values.source ?? ""}>
                <option value="">Choisissez une réponse</option>
                <Options options={settings.sources} />
              </Select>
            )}
          </Field>
        ) : null}

        <HoneypotField formId={formId} />
      </div>

      <div role="status" aria-live="polite">
        {outcome ? <Outcome result={outcome} /> : null}
      </div>
      {/* What the light script says when no answer came (offline, connection cut), what was typed kept. */}
      <template data-failed="">
        <Outcome result={{ toast: contactToasts.failed, status: "failed" }} />
      </template>

      <Button type="submit" size="lg" className="w-full sm:w-auto">
        Envoyer le message
      </Button>
      <p className="text-xs text-muted-foreground">
        Vos informations servent uniquement à répondre à votre demande. Voir nos{" "}
        <a href="/donnees-personnelles" className="underline hover:text-foreground">
          données personnelles
        </a>
        .
      </p>
    </form>
  );
}

function Options({ options }: { options: Option[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

function Outcome({ result }: { result: Pick<ContactFormResult, "status" | "toast"> }) {
  const sent = result.status === "sent";
  const Icon = sent ? CheckCircle2 : CircleAlert;
  return (
    <p
      className={cn(
        "flex items-start gap-3 rounded-lg border p-4 text-sm",
        sent
          ? "border-emerald-300 bg-emerald-50 text-emerald-900"
          : "border-red-300 bg-red-50 text-red-900",
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>
        <strong className="block">{result.toast.title}</strong>
        {result.toast.description}
      </span>
    </p>
  );
}
