import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/reinitialiser-mot-de-passe";
import { SignInShell } from "~/components/admin/admin-shell";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { ExpiredLink, NewPasswordFields } from "~/components/admin/new-password";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { newPasswordSchema } from "~/lib/admin-schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { isResetTokenValid, resetPasswordWithToken } from "~/server/admin/password-reset.server";
import { tooManyAttempts } from "~/server/admin/sign-in.server";
import { auth } from "~/server/auth/auth.server";
import { clientAddressContext } from "~/server/context";
import { redirectWithToast } from "~/server/toast.server";
import { signInRefusal } from "~/server/forms.server";

export const meta: Route.MetaFunction = () => [
  { title: "Nouveau mot de passe - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await isResetTokenValid(await auth(), token);
  return data(
    { token: valid ? token : "", valid },
    // The address holds a secret: never stored by a cache, never sent as a referrer (`same-origin`, not
    // `no-referrer`: with it a browser posts the form without JavaScript with `Origin: null`, which the
    // same-origin check refuses; see http/cache-policy.server.ts).
    { headers: { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" } },
  );
}

// Headers given to data() reach the document only through this export.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type ActionResult = { errors?: FieldErrors; toast?: ToastMessage; expired?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const parsed = newPasswordSchema.safeParse({
    password: text("password"),
    confirmation: text("confirmation"),
  });
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error), { status: 400 });
  }
  const outcome = await resetPasswordWithToken(await auth(), {
    token: text("token"),
    password: parsed.data.password,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "rate-limited") {
    return data<ActionResult>({ toast: tooManyAttempts(15 * 60) }, { status: 429 });
  }
  if (outcome.kind === "invalid-token") {
    return data<ActionResult>({ expired: true }, { status: 400 });
  }
  throw await redirectWithToast("/admin/login", {
    type: "success",
    title: "Mot de passe enregistré",
    description: "Connectez-vous avec votre nouveau mot de passe.",
  });
}

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
