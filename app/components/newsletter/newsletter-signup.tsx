import { Mail } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { useServerToast } from "~/components/ui/server-toast";
import { Button } from "~/components/ui/button";
import { Field, fieldMeta } from "~/components/ui/field";
import { firstError } from "~/lib/forms";
import {
  invalidEmailToast,
  NEWSLETTER_CONSENT_TEXT,
  type NewsletterResult,
  type NewsletterSource,
} from "~/lib/newsletter";
import { cn } from "~/lib/utils";

type NewsletterSignupProps = {
  /** Which form the visitor consents on, stored with the subscription. */
  source: NewsletterSource;
  className?: string;
};

/**
 * The newsletter block (SPEC §4, §5, §8). It posts to the action of the page that shows it (which calls
 * `handleNewsletterSubmission`). With JavaScript: a fetcher, a toast, and the same outcome written in the
 * block (a polite live region), the field emptied on success; a refused address is also said under the
 * field, which gets the focus. Without JavaScript: a normal form post, and the page comes back with the
 * outcome written in the block. After a sign-up both say that the address still has to be confirmed from
 * the e-mail (double opt-in, decision records 0081 and 0112).
 */
export function NewsletterSignup({ source, className }: NewsletterSignupProps) {
  const fetcher = useFetcher<NewsletterResult>({ key: `newsletter-${source}` });
  // Set only after a post without JavaScript (a fetcher never fills the page's action data).
  const documentResult = useActionData<NewsletterResult | undefined>()?.newsletter;
  const formRef = useRef<HTMLFormElement>(null);
  const [clientError, setClientError] = useState<string | null>(null);
  const id = useId();
  // Between the click and the post, the schema may still be loading: that counts as sending too.
  const [checking, setChecking] = useState(false);
  const sending = checking || fetcher.state !== "idle";
  const result = fetcher.data?.newsletter;
  const latest = result ?? documentResult;

  // One toast per block: each outcome replaces the previous one, so an earlier refusal cannot stay on
  // screen under a sign-up that went through.
  const toastId = `newsletter-${source}`;
  useServerToast(result?.toast, toastId);
  useEffect(() => {
    if (result?.outcome === "subscribed") formRef.current?.reset();
    else if (result?.outcome === "invalid") {
      formRef.current?.querySelector<HTMLInputElement>("input[name=email]")?.focus();
    }
  }, [result]);

  // A message under the field: the browser's own check, or the server's refusal until the next try.
  const fieldError =
    clientError ?? (latest?.outcome === "invalid" ? latest.toast.description : undefined);
  const email = fieldMeta(id, "email", fieldError, true);
  // Everything else (success included) is written in the block as well as in the toast.
  const outcome = clientError === null && latest?.outcome !== "invalid" ? latest : undefined;
  const status = outcome?.toast;

  return (
    <section
      aria-labelledby={`${id}-titre`}
      className={cn("rounded-3xl bg-stone-900 px-6 py-12 text-white sm:px-12", className)}
    >
      <div className="mx-auto max-w-2xl text-center">
        <Mail aria-hidden="true" className="mx-auto size-10 text-gold" />
        <h2 id={`${id}-titre`} className="mt-4 text-3xl font-bold">
          Restez inspiré·e
        </h2>
        <p className="mt-3 text-stone-200">
          Recevez nos nouveaux articles, conseils et coulisses directement par email. Un email à
          chaque article, désinscription en un clic.
        </p>
        <fetcher.Form
          ref={formRef}
          method="post"
          noValidate
          className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-start"
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const field = form.querySelector<HTMLInputElement>("input[name=email]");
            const value = new FormData(form).get("email");
            setChecking(true);
            void import("~/lib/newsletter-schema")
              .then(({ newsletterSchema }) => {
                const parsed = newsletterSchema.safeParse({ email: value });
                if (!parsed.success) {
                  const message = firstError(parsed.error);
                  setClientError(message);
                  field?.focus();
                  const { title, description } = invalidEmailToast(message);
                  toast.error(title, { description, id: toastId });
                  return;
                }
                setClientError(null);
                void fetcher.submit(form);
              })
              // Offline or a failed chunk: let the server, the authority, judge.
              .catch(() => void fetcher.submit(form))
              .finally(() => setChecking(false));
          }}
        >
          <input type="hidden" name="source" value={source} />
          <Field
            field={email}
            label="Votre adresse email"
            labelClassName="sr-only"
            surface="dark"
            className="flex-1 text-left"
          >
            {(props) => (
              <input
                {...props}
                type="email"
                autoComplete="email"
                maxLength={255}
                placeholder="votre@email.fr"
                defaultValue={documentResult?.email ?? ""}
                onChange={() => setClientError(null)}
                className="h-12 w-full rounded-full border border-white/30 bg-white px-5 text-foreground placeholder:text-stone-500"
              />
            )}
          </Field>
          <Button type="submit" variant="gold" size="lg-field" disabled={sending}>
            {sending ? "..." : "S'inscrire"}
          </Button>
        </fetcher.Form>
        <div role="status" aria-live="polite" className="mt-4 text-sm text-stone-100">
          {status ? (
            <p>
              <strong>{status.title}</strong> {status.description}
            </p>
          ) : null}
        </div>
        <p className="mt-4 text-xs text-stone-300">
          {NEWSLETTER_CONSENT_TEXT} Voir nos{" "}
          <a href="/donnees-personnelles" className="underline hover:text-white">
            données personnelles
          </a>
          .
        </p>
      </div>
    </section>
  );
}
