import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/mot-de-passe-oublie";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { emailOnlySchema } from "~/lib/admin-schemas";

export { action, loader } from "./mot-de-passe-oublie.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mot de passe oublié - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function ForgottenPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { errors, clientErrors, formRef: form, checkWith } = useSignInForm(actionData?.errors);
  useServerToast(actionData?.toast);

  const mailConfigured = loaderData.mailConfigured && actionData?.mailConfigured !== false;

  return (
    <SignInShell title="Mot de passe oublié">
      {!mailConfigured ? (
        <div className="space-y-4">
          <MailNotConfigured>
            Le lien de réinitialisation ne peut donc pas être envoyé. En attendant, la personne qui
            gère le serveur peut choisir un nouveau mot de passe avec la commande{" "}
            <code className="font-mono">npm run admin:create</code>.
          </MailNotConfigured>
          <BackToLogin />
        </div>
      ) : actionData?.sent ? (
        <div className="space-y-4">
          <FormAlert message={actionData.toast} />
          <BackToLogin />
        </div>
      ) : (
        <Form
          ref={form}
          method="post"
          noValidate
          className="space-y-5"
          onSubmit={checkWith(emailOnlySchema)}
        >
          <p className="text-sm text-muted-foreground">
            Indiquez l'adresse e-mail de votre compte : vous recevrez un lien pour choisir un
            nouveau mot de passe.
          </p>
          <Field name="email" label="Email" error={errors.email}>
            {(props) => (
              <Input
                {...props}
                type="email"
                autoComplete="username"
                required
                defaultValue={actionData?.email ?? ""}
              />
            )}
          </Field>
          <FormAlert message={clientErrors ? null : actionData?.toast} />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Envoi..." : "Recevoir un lien"}
          </Button>
          <BackToLogin />
        </Form>
      )}
    </SignInShell>
  );
}

function BackToLogin() {
  return (
    <p className="text-center text-sm">
      <a href="/admin/login" className="inline-block py-1 underline underline-offset-4">
        Retour à la connexion
      </a>
    </p>
  );
}
