import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { loginSchema } from "~/lib/admin-schemas";

export { action, loader } from "./login.server";

export const meta: Route.MetaFunction = () => [
  { title: "Connexion - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/admin/login";
  const { errors, formRef: form, checkWith, clientAlert } = useSignInForm(actionData?.errors);
  useServerToast(loaderData.flash);
  useServerToast(actionData?.toast);

  const alert = clientAlert ?? actionData?.toast;

  return (
    <SignInShell title="Connexion">
      <Form
        ref={form}
        method="post"
        noValidate
        className="space-y-5"
        onSubmit={checkWith(loginSchema)}
      >
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
        <Field name="password" label="Mot de passe" error={errors.password}>
          {(props) => (
            <Input
              {...props}
              type="password"
              autoComplete="current-password"
              required
              minLength={6}
            />
          )}
        </Field>
        <FormAlert message={alert} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Connexion..." : "Se connecter"}
        </Button>
        <p className="text-center text-sm">
          <a
            href="/admin/mot-de-passe-oublie"
            className="inline-block py-1 underline underline-offset-4"
          >
            Mot de passe oublié ?
          </a>
        </p>
      </Form>
    </SignInShell>
  );
}
