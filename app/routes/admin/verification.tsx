import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/verification";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { FormAlert } from "~/components/admin/form-alert";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";

export { action, loader } from "./verification.server";

export const meta: Route.MetaFunction = () => [
  { title: "Vérification en deux étapes - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function TwoFactorVerification({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  useServerToast(actionData?.toast);
  return (
    <SignInShell title="Vérification en deux étapes">
      <Form method="post" className="space-y-5">
        <Field
          name="code"
          label="Code de vérification"
          hint="Le code à 6 chiffres de votre application d'authentification, ou un code de secours."
        >
          {(props) => (
            <Input
              {...props}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={20}
            />
          )}
        </Field>
        <FormAlert message={actionData?.toast} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Vérification..." : "Vérifier"}
        </Button>
        <p className="text-center text-sm">
          <a href="/admin/login" className="underline underline-offset-4">
            Retour à la connexion
          </a>
        </p>
      </Form>
    </SignInShell>
  );
}
