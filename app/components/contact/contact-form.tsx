import { CheckCircle2, CircleAlert } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import type { StudioId } from "~/content/studios";
import { contactForms, HONEYPOT_FIELD, MESSAGE_MAX_LENGTH, type Option } from "~/lib/contact-forms";
import { fieldErrors, type FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { cn } from "~/lib/utils";
import type { ContactFormResult } from "~/server/contact-form.server";

/** SPEC §9: the confirmation appears no sooner than 1 s after submitting. */
export const CONFIRMATION_DELAY_MS = 1000;

const FIELD_ORDER = ["shootingType", "prenom", "nom", "email", "telephone", "message", "source"];

const invalidToast: ToastMessage = {
  type: "error",
  title: "Erreur",
  description: "Une erreur est survenue. Veuillez réessayer.",
};

type ContactFormProps = {
  studio: StudioId;
  /** Where to post when it is not the current page (e.g. /contact?studio=brive). */
  action?: string;
  className?: string;
};

const loadContactSchema = () => import("~/lib/contact-schema");

/**
 * A studio's contact form (SPEC §2, §4, §5). With JavaScript it validates at once with the studio's zod
 * schema (loaded when the visitor starts on the form), posts through a fetcher and reveals the server's answer (toast + inline status) no sooner than
 * 1 s after submitting, then empties itself on success. Without JavaScript it is a plain form post and the
 * page comes back with the outcome written above the button and the typed values in place.
 */
export function ContactForm({ studio, action, className }: ContactFormProps) {
  const definition = contactForms[studio];
  const fetcher = useFetcher<ContactFormResult>({ key: `contact-${studio}` });
  // Filled only after a post without JavaScript (a fetcher never fills the page's action data).
  const documentResult = useActionData<ContactFormResult | undefined>();
  const [shown, setShown] = useState<ContactFormResult | undefined>(documentResult);
  const [toastToShow, setToastToShow] = useState<ToastMessage | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const submittedAt = useRef<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useServerToast(toastToShow);

  const answer = fetcher.data;
  useEffect(() => {
    if (!answer || submittedAt.current === null) return;
    const delay = Math.max(0, CONFIRMATION_DELAY_MS - (Date.now() - submittedAt.current));
    const timer = setTimeout(() => {
      submittedAt.current = null;
      setWaiting(false);
      setShown(answer);
      setToastToShow(answer.toast);
      if (answer.status === "sent") setFormKey((key) => key + 1);
      else focusFirstInvalid(formRef.current, answer.errors);
    }, delay);
    return () => clearTimeout(timer);
  }, [answer]);

  const serverErrors = shown && shown.status !== "sent" ? shown.errors : {};
  const errors: FieldErrors = clientErrors ?? serverErrors;
  const values = shown && shown.status !== "sent" ? shown.values : {};
  const busy = waiting || fetcher.state !== "idle";
  const id = (field: string) => `contact-${studio}-${field}`;

  const fieldProps = (name: string) => ({
    id: id(name),
    name,
    defaultValue: values[name] ?? "",
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? id(`${name}-erreur`) : undefined,
  });

  return (
    <fetcher.Form
      key={formKey}
      ref={formRef}
      method="post"
      action={action}
      noValidate
      aria-labelledby={id("titre")}
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
        const data = Object.fromEntries(formData);
        setWaiting(true);
        void loadContactSchema()
          .then(({ parseContactForm }) => {
            const parsed = parseContactForm(studio, data);
            if (!parsed.success) {
              const found = fieldErrors(parsed.error);
              setWaiting(false);
              setClientErrors(found);
              setShown(undefined);
              setToastToShow({ ...invalidToast });
              focusFirstInvalid(form, found);
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
            submittedAt.current = Date.now();
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
          const parsed = parseContactForm(studio, data);
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
      <h2 id={id("titre")} className="text-2xl font-bold">
        Envoyez-nous un message
      </h2>
      <p className="text-sm text-muted-foreground">
        Les champs marqués d'un <span aria-hidden="true">*</span>
        <span className="sr-only">astérisque</span> sont obligatoires.
      </p>

      <Field
        label="Type de séance"
        required
        htmlFor={id("shootingType")}
        error={errors.shootingType}
        errorId={id("shootingType-erreur")}
      >
        <select {...fieldProps("shootingType")} required className={controlClass}>
          <option value="">Choisissez un type de séance</option>
          <Options options={definition.shootingTypes} />
        </select>
      </Field>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Prénom"
          required
          htmlFor={id("prenom")}
          error={errors.prenom}
          errorId={id("prenom-erreur")}
        >
          <input
            {...fieldProps("prenom")}
            type="text"
            required
            autoComplete="given-name"
            maxLength={100}
            className={controlClass}
          />
        </Field>
        <Field
          label="Nom"
          required
          htmlFor={id("nom")}
          error={errors.nom}
          errorId={id("nom-erreur")}
        >
          <input
            {...fieldProps("nom")}
            type="text"
            required
            autoComplete="family-name"
            maxLength={100}
            className={controlClass}
          />
        </Field>
      </div>

      <div className={cn("grid gap-5", definition.hasTelephone && "sm:grid-cols-2")}>
        <Field
          label="Email"
          required
          htmlFor={id("email")}
          error={errors.email}
          errorId={id("email-erreur")}
        >
          <input
            {...fieldProps("email")}
            type="email"
            required
            autoComplete="email"
            maxLength={255}
            className={controlClass}
          />
        </Field>
        {definition.hasTelephone ? (
          <Field
            label="Téléphone"
            required
            htmlFor={id("telephone")}
            error={errors.telephone}
            errorId={id("telephone-erreur")}
          >
            <input
              {...fieldProps("telephone")}
              type="tel"
              required
              autoComplete="tel"
              maxLength={30}
              className={controlClass}
            />
          </Field>
        ) : null}
      </div>

      <Field
        label="Votre message"
        required
        htmlFor={id("message")}
        error={errors.message}
        errorId={id("message-erreur")}
      >
        <textarea
          {...fieldProps("message")}
          rows={5}
          required
          maxLength={MESSAGE_MAX_LENGTH}
          className={messageClass}
        />
      </Field>

      <Field
        label="Comment nous avez-vous connus ?"
        required={definition.sourceRequired}
        htmlFor={id("source")}
        error={errors.source}
        errorId={id("source-erreur")}
      >
        <select
          {...fieldProps("source")}
          required={definition.sourceRequired}
          className={controlClass}
        >
          <option value="">Choisissez une réponse</option>
          <Options options={definition.sources} />
        </select>
      </Field>

      {/* Spam trap: people never see nor reach it; bots fill in every field. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={id(HONEYPOT_FIELD)}>Ne pas remplir ce champ</label>
        <input
          id={id(HONEYPOT_FIELD)}
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>

      <div role="status" aria-live="polite">
        {shown ? <Outcome result={shown} /> : null}
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

const controlLook =
  "block w-full rounded-lg border border-stone-300 bg-white px-3 text-base text-foreground shadow-sm focus-visible:border-gold-dark focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-gold-dark aria-invalid:border-destructive";
/** Inputs and selects: one line high. */
const controlClass = `${controlLook} h-11`;
/** The message: as high as its rows. */
const messageClass = `${controlLook} py-2`;

function Options({ options }: { options: Option[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

function Field({
  label,
  required,
  htmlFor,
  error,
  errorId,
  children,
}: {
  label: string;
  required: boolean;
  htmlFor: string;
  error: string | undefined;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-semibold">
        {label}
        {required ? (
          <span aria-hidden="true" className="text-destructive">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
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

function focusFirstInvalid(form: HTMLFormElement | null, errors: FieldErrors) {
  const field = FIELD_ORDER.find((name) => errors[name]);
  if (!form || !field) return;
  const element = form.elements.namedItem(field);
  if (element instanceof HTMLElement) element.focus();
}
