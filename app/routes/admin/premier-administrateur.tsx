import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/premier-administrateur";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { ExpiredLink, NewPasswordFields } from "~/components/admin/new-password";
import { Button } from "~/components/ui/button";
import { firstAdministratorSchema } from "~/lib/admin-schemas";

export { action, headers, loader } from "./premier-administrateur.server";

/*
 * /admin/premier-administrateur?jeton=… : the first administrator of a new site, from the link the server
 * prints at start while there is none (first-administrator.server.ts). Any other time the page says the
 * link no longer works and where to go.
 */

export const meta: Route.MetaFunction = () => [
  { title: "Premier administrateur - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function FirstAdministrator({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { errors, clientErrors, formRef: form, checkWith } = useSignInForm(actionData?.errors);
  const state = actionData?.state ?? loaderData.state;

  if (state !== "valid") {
    return (
      <ExpiredLink
        description={
          state === "used"
            ? "Le site a déjà un administrateur : connectez-vous, ou demandez-lui une invitation."
            : "Il a expiré ou il est incomplet. Redémarrez le site pour en afficher un nouveau, ou créez un administrateur avec « npm run admin:create »."
        }
        href="/admin/login"
        linkText="Aller à la page de connexion"
      />
    );
  }

  return (
    <SignInShell title="Premier administrateur">
      <Form
        ref={form}
        method="post"
        noValidate
        className="space-y-5"
        onSubmit={checkWith(firstAdministratorSchema)}
      >
        <input type="hidden" name="token" value={loaderData.token} />
        <p className="text-sm text-muted-foreground">
          Créez le compte qui administre le site : votre adresse e-mail et un mot de passe (au moins
          6 caractères). Vous pourrez ensuite inviter d'autres administrateurs.
        </p>
        <Field name="email" label="Adresse e-mail" error={errors.email}>
          {(props) => (
            <Input
              {...props}
              type="email"
              autoComplete="email"
              required
              defaultValue={actionData?.email}
            />
          )}
        </Field>
        <NewPasswordFields errors={errors} label="Mot de passe" />
        <FormAlert message={clientErrors ? null : actionData?.toast} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Création..." : "Créer l'administrateur"}
        </Button>
      </Form>
    </SignInShell>
  );
}
