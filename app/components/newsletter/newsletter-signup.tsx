import { Mail } from "lucide-react";
import { useId } from "react";
import { Form, useActionData } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldMeta } from "~/components/ui/field";
import {
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
 * The newsletter block (SPEC §4, §5, §8) of the blog's pages, which are light (decision 0137): a plain form
 * post to the action of the page that shows it (`handleNewsletterSubmission`), and the page comes back
 * with the outcome written in the block. The focus goes, without any script (`autofocus`, which also
 * brings it into view), to the refused field, whose message is under it with the address kept, or to the
 * outcome: after a sign-up, that the address still has to be confirmed from the e-mail (double opt-in,
 * decision records 0081 and 0112). The light script holds a second click while the post is under way.
 */
export function NewsletterSignup({ source, className }: NewsletterSignupProps) {
  const result = useActionData<NewsletterResult | undefined>()?.newsletter;
  const id = useId();
  const invalid = result?.outcome === "invalid";
  const email = fieldMeta(id, "email", invalid ? result.toast.description : undefined, true);
  // Everything else (success included) is written in the block.
  const status = result && !invalid ? result.toast : undefined;

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
        <Form
          method="post"
          noValidate
          data-sending-label="..."
          className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-start"
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
                defaultValue={result?.email ?? ""}
                // Only in the answer to the visitor's own post: back to what to correct (see above).
                // eslint-disable-next-line jsx-a11y/no-autofocus
                autoFocus={invalid}
                className="h-12 w-full rounded-full border border-white/30 bg-white px-5 text-foreground placeholder:text-stone-500"
              />
            )}
          </Field>
          <Button type="submit" variant="gold" size="lg-field">
            S'inscrire
          </Button>
        </Form>
        <div
          role="status"
          aria-live="polite"
          tabIndex={status ? -1 : undefined}
          // Only in the answer to the visitor's own post: its outcome, read and in view (see above).
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus={status !== undefined}
          className="mt-4 text-sm text-stone-100 focus:outline-none"
        >
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
