import { Mail } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { useServerToast } from "~/components/ui/server-toast";
import { Button } from "~/components/ui/button";
import { firstError } from "~/lib/forms";
import { invalidEmailToast, type NewsletterResult, type NewsletterSource } from "~/lib/newsletter";
import { cn } from "~/lib/utils";

type NewsletterSignupProps = {
  /** Which form the visitor consents on, stored with the subscription. */
  source: NewsletterSource;
  className?: string;
};

/**
 * The newsletter block (SPEC §4, §5, §8). It posts to the action of the page that shows it (which calls
 * `handleNewsletterSubmission`). With JavaScript: a fetcher, a toast, the field empties on success. Without:
 * a normal form post, and the page comes back with the outcome written under the field.
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

  useServerToast(result?.toast);
  useEffect(() => {
    if (result?.outcome === "subscribed") formRef.current?.reset();
  }, [result]);

  const invalid = clientError ?? (result ?? documentResult)?.outcome === "invalid";

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
          className="mt-8 flex flex-col gap-3 sm:flex-row"
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const email = new FormData(form).get("email");
            setChecking(true);
            void import("~/lib/newsletter-schema")
              .then(({ newsletterSchema }) => {
                const parsed = newsletterSchema.safeParse({ email });
                if (!parsed.success) {
                  const message = firstError(parsed.error);
                  setClientError(message);
                  const { title, description } = invalidEmailToast(message);
                  toast.error(title, { description });
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
          <label htmlFor={`${id}-email`} className="sr-only">
            Votre adresse email
          </label>
          <input
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="email"
            maxLength={255}
            placeholder="votre@email.fr"
            defaultValue={documentResult?.email ?? ""}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={documentResult ? `${id}-resultat` : undefined}
            onChange={() => setClientError(null)}
            className="h-12 flex-1 rounded-full border border-white/30 bg-white px-5 text-foreground placeholder:text-stone-500"
          />
          <Button type="submit" variant="gold" size="lg-field" disabled={sending}>
            {sending ? "..." : "S'inscrire"}
          </Button>
        </fetcher.Form>
        {documentResult ? (
          <p id={`${id}-resultat`} role="status" className="mt-4 text-sm text-stone-100">
            <strong>{documentResult.toast.title}</strong> {documentResult.toast.description}
          </p>
        ) : null}
        <p className="mt-4 text-xs text-stone-300">
          En vous inscrivant, vous acceptez de recevoir nos articles par email. Voir nos{" "}
          <a href="/donnees-personnelles" className="underline hover:text-white">
            données personnelles
          </a>
          .
        </p>
      </div>
    </section>
  );
}
