import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/reinitialiser-mot-de-passe";
import { SignInShell } from "~/components/admin/admin-shell";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { ExpiredLink, NewPasswordFields } from "~/components/admin/new-password";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { newPasswordSchema } from "~/lib/admin-schemas";

export { action, headers, loader } from "./reinitialiser-mot-de-passe.server";

export const meta: Route.MetaFunction = () => [
  { title: "Nouveau mot de passe - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { errors, clientErrors, formRef: form, checkWith } = useSignInForm(actionData?.errors);
  useServerToast(actionData?.toast);

  if (!loaderData.valid || actionData?.expired) {
    return (
      <ExpiredLink
        description="Il a déjà servi ou a expiré. Demandez un nouveau lien pour choisir votre mot de passe."
        href="/admin/mot-de-passe-oublie"
        linkText="Demander un nouveau lien"
      />
    );
  }

  return (
    <SignInShell title="Nouveau mot de passe">
      <Form
        ref={form}
        method="post"
        noValidate
        className="space-y-5"
        onSubmit={checkWith(newPasswordSchema)}
      >
        <input type="hidden" name="token" value={loaderData.token} />
        <p className="text-sm text-muted-foreground">
          Choisissez votre mot de passe (au moins 6 caractères). Les autres appareils connectés à ce
          compte seront déconnectés.
        </p>
        <NewPasswordFields errors={errors} />
        <FormAlert message={clientErrors ? null : actionData?.toast} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Enregistrement..." : "Enregistrer le mot de passe"}
        </Button>
      </Form>
    </SignInShell>
  );
}
