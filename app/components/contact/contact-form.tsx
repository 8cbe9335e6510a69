import { CheckCircle2, CircleAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot-field";
import {
  ErrorSummary,
  Field,
  fieldMeta,
  focusFirstInvalid,
  Input,
  Select,
  Textarea,
  type FieldMeta,
} from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import { MESSAGE_MAX_LENGTH, type ContactFormSettings, type Option } from "~/lib/contact-forms";
import { fieldErrors, type FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { cn } from "~/lib/utils";
import type { ContactFormResult } from "./contact-outcome";

/** SPEC §9: the confirmation appears no sooner than 1 s after submitting. */
export const CONFIRMATION_DELAY_MS = 1000;

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

/** The values a form holds now, to tell whether the visitor typed on after submitting. */
function snapshot(form: HTMLFormElement | null): string {
  return form ? JSON.stringify([...new FormData(form)]) : "";
}

type ContactFormProps = {
  /** The studio's slug: names the form's fields (ids) and its fetcher. */
  studio: string;
  /** The studio's shooting types, sources and required fields (edited with the studio). */
  settings: ContactFormSettings;
  /** Where to post when it is not the current page (e.g. /contact?studio=brive). */
  action?: string;
  className?: string;
};

const loadContactSchema = () => import("~/lib/contact-schema");

/**
 * A studio's contact form (SPEC §2, §4, §5). With JavaScript it validates at once with the studio's zod
 * schema (loaded when the visitor starts on the form), posts through a fetcher and reveals the server's
 * answer (toast + inline status) no sooner than 1 s after submitting, then empties itself on success.
 * Refused values are shown at their fields, with a summary and the focus on the first one, never as a
 * toast: the toast is for the outcome (sent, too many attempts, a real failure). Without JavaScript it is
 * a plain form post and the page comes back with the same messages and the typed values in place.
 */
export function ContactForm({ studio, settings, action, className }: ContactFormProps) {
  const hasTelephone = settings.telephone !== "none";
  const hasSource = settings.sources.length > 0;
  const fetcher = useFetcher<ContactFormResult>({ key: `contact-${studio}` });
  // Filled only after a post without JavaScript (a fetcher never fills the page's action data).
  const documentResult = useActionData<ContactFormResult | undefined>();
  const [shown, setShown] = useState<ContactFormResult | undefined>(documentResult);
  const [toastToShow, setToastToShow] = useState<ToastMessage | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const submitted = useRef<{ at: number; values: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useServerToast(toastToShow);

  const answer = fetcher.data;
  useEffect(() => {
    if (!answer || submitted.current === null) return;
    const { at, values: sentValues } = submitted.current;
    const delay = Math.max(0, CONFIRMATION_DELAY_MS - (Date.now() - at));
    const timer = setTimeout(() => {
      submitted.current = null;
      setWaiting(false);
      setShown(answer);
      if (answer.status === "invalid") {
        // The fields say what to correct; no toast over the form.
        setToastToShow(null);
        focusFirstInvalid(formRef.current, FIELD_ORDER, answer.errors);
        return;
      }
      setToastToShow(answer.toast);
      // Emptied once sent (SPEC §4), unless the visitor has started writing again meanwhile: a new
      // message begun during the wait is never wiped.
      if (answer.status === "sent" && snapshot(formRef.current) === sentValues) {
        setFormKey((key) => key + 1);
      }
    }, delay);
    return () => clearTimeout(timer);
  }, [answer]);

  const serverErrors = shown && shown.status !== "sent" ? shown.errors : {};
  const errors: FieldErrors = clientErrors ?? serverErrors;
  const values = shown && shown.status !== "sent" ? shown.values : {};
  const busy = waiting || fetcher.state !== "idle";
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
    <fetcher.Form
      key={formKey}
      ref={formRef}
      method="post"
      action={action}
      noValidate
      aria-labelledby={`${formId}-titre`}
      className={cn("space-y-5", className)}
      // The studio's schema (with zod) loads when the visitor starts on the form; submitting waits for it.
      onFocus={() => void loadContactSchema()}
      onSubmit={(event) => {
        event.preventDefault();
        // One submission at a time; the button says so from the click on.
        if (busy) return;
        const form = event.currentTarget;
        // What is validated is what is sent, even if the visitor types on while the schema loads.
        const formData = new FormData(form);
        const sentValues = snapshot(form);
        const data = Object.fromEntries(formData);
        setWaiting(true);
        void loadContactSchema()
          .then(({ parseContactForm }) => {
            const parsed = parseContactForm(settings, data);
            if (!parsed.success) {
              const found = fieldErrors(parsed.error);
              setWaiting(false);
              setClientErrors(found);
              setShown(undefined);
              focusFirstInvalid(form, FIELD_ORDER, found);
              return false;
            }
            return true;
          })
          // Offline or a failed chunk: let the server, the authority, judge.
          .catch(() => true)
          .then((send) => {
            if (!send) return;
            setClientErrors(null);
            setShown(undefined);
            submitted.current = { at: Date.now(), values: sentValues };
            void fetcher.submit(formData, { method: "post", action });
          });
      }}
      onChange={(event) => {
        // Once a field has been refused, its message follows what the visitor types.
        const name = (event.target as EventTarget & { name?: string }).name ?? "";
        if (!clientErrors?.[name] && !serverErrors[name]) return;
        const data = Object.fromEntries(new FormData(event.currentTarget));
        const shownBefore = clientErrors ?? serverErrors;
        void loadContactSchema().then(({ parseContactForm }) => {
          const parsed = parseContactForm(settings, data);
          const now = parsed.success ? {} : fieldErrors(parsed.error);
          setClientErrors(
            Object.fromEntries(
              Object.keys(shownBefore)
                .filter((field) => now[field])
                .map((field) => [field, now[field]]),
            ),
          );
        });
      }}
    >
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

      <div role="status" aria-live="polite">
        {outcome ? <Outcome result={outcome} /> : null}
      </div>

      <Button type="submit" size="lg" disabled={busy} className="w-full sm:w-auto">
        {busy ? "Envoi en cours..." : "Envoyer le message"}
      </Button>
      <p className="text-xs text-muted-foreground">
        Vos informations servent uniquement à répondre à votre demande. Voir nos{" "}
        <a href="/donnees-personnelles" className="underline hover:text-foreground">
          données personnelles
        </a>
        .
      </p>
    </fetcher.Form>
  );
}

function Options({ options }: { options: Option[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

function Outcome({ result }: { result: ContactFormResult }) {
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
