import { SignInShell } from "./admin-shell";
import { Field, Input } from "./field";
import { FormAlert } from "./form-alert";

/**
 * The pages a link e-mailed or printed opens to choose a password (reset, invitation, first administrator):
 * the password typed twice, and what the page says once the link no longer works.
 */

/** « Nouveau mot de passe » and its confirmation, with the login's rule (at least 6 characters). */
export function NewPasswordFields({
  errors,
  label = "Nouveau mot de passe",
}: {
  errors: { password?: string; confirmation?: string };
  label?: string;
}) {
  return (
    <>
      <Field name="password" label={label} error={errors.password}>
        {(props) => (
          <Input {...props} type="password" autoComplete="new-password" required minLength={6} />
        )}
      </Field>
      <Field name="confirmation" label="Confirmez le mot de passe" error={errors.confirmation}>
        {(props) => <Input {...props} type="password" autoComplete="new-password" required />}
      </Field>
    </>
  );
}

/** « Ce lien n'est plus valable »: why, and where to go from there. */
export function ExpiredLink({
  description,
  href,
  linkText,
}: {
  description: string;
  href: string;
  linkText: string;
}) {
  return (
    <SignInShell title="Lien expiré">
      <div className="space-y-4">
        <FormAlert message={{ type: "error", title: "Ce lien n'est plus valable", description }} />
        <p className="text-center text-sm">
          <a href={href} className="inline-block py-1 underline underline-offset-4">
            {linkText}
          </a>
        </p>
      </div>
    </SignInShell>
  );
}
