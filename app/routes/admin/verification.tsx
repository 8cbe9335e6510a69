import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/verification";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { FormAlert } from "~/components/admin/form-alert";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import type { ToastMessage } from "~/lib/toast";
import { getAdmin } from "~/server/admin/guard.server";
import { hasTwoFactorChallenge, verifySecondFactor } from "~/server/admin/two-factor.server";
import { clientAddressContext } from "~/server/context";
import { returnPathOf, withReturnPath } from "~/server/admin/return-path.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = () => [
  { title: "Vérification en deux étapes - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader({ request }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw redirect(returnPathOf(request) ?? "/admin/dashboard");
  if (!hasTwoFactorChallenge(request)) throw redirect("/admin/login");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const code = String(formData.get("code") ?? "").trim();
  if (!code) {
    return data(
      {
        toast: {
          type: "error",
          title: "Erreur de validation",
          description: "Le code est requis",
        } as ToastMessage,
      },
      { status: 400 },
    );
  }
  const outcome = await verifySecondFactor(request, {
    code,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "refused") return data({ toast: outcome.toast }, { status: outcome.status });
  if (outcome.kind === "two-factor")
    throw redirect(withReturnPath("/admin/verification", returnPathOf(request)), {
      headers: outcome.headers,
    });
  // Back to the e-mailed link she opened signed out (decision 0139), without a toast for a download.
  const returnPath = returnPathOf(request);
  if (returnPath) throw redirect(returnPath, { headers: outcome.headers });
  throw await redirectWithToast(
    "/admin/dashboard",
    {
      type: "success",
      title: "Connexion réussie",
      description: "Redirection vers le tableau de bord...",
    },
    { headers: outcome.headers },
  );
}

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
