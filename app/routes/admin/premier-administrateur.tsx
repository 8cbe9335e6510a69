import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/premier-administrateur";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { ExpiredLink, NewPasswordFields } from "~/components/admin/new-password";
import { Button } from "~/components/ui/button";
import { firstAdministratorSchema } from "~/lib/admin-schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import {
  createFirstAdministrator,
  firstAdministratorTokenState,
} from "~/server/admin/first-administrator.server";
import { signInAdministrator } from "~/server/admin/sign-in.server";
import { auth } from "~/server/auth/auth.server";
import { clientAddressContext } from "~/server/context";
import { redirectWithToast } from "~/server/toast.server";
import { signInRefusal } from "~/server/forms.server";

/*
 * /admin/premier-administrateur?jeton=… : the first administrator of a new site, from the link the server
 * prints at start while there is none (first-administrator.server.ts). Any other time the page says the
 * link no longer works and where to go.
 */

export const meta: Route.MetaFunction = () => [
  { title: "Premier administrateur - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("jeton") ?? "";
  const state = await firstAdministratorTokenState(token);
  return data(
    { token: state === "valid" ? token : "", state },
    // The address holds a secret: never stored by a cache, never sent as a referrer (same-origin: see
    // reinitialiser-mot-de-passe.tsx).
    {
      status: state === "valid" ? 200 : 410,
      headers: { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" },
    },
  );
}

// Headers given to data() reach the document only through this export.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type ActionResult = {
  errors?: FieldErrors;
  toast?: ToastMessage;
  email?: string;
  state?: "invalid" | "used";
};

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const parsed = firstAdministratorSchema.safeParse({
    email: text("email"),
    password: text("password"),
    confirmation: text("confirmation"),
  });
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error, text("email")), { status: 400 });
  }
  const outcome = await createFirstAdministrator(await auth(), {
    token: text("token"),
    email: parsed.data.email,
    password: parsed.data.password,
  });
  if (outcome !== "created") return data<ActionResult>({ state: outcome }, { status: 410 });
  // She has just typed her password twice: she is signed in with it, as the login form would (its limits,
  // its known device), and lands on the dashboard.
  const signIn = await signInAdministrator(request, {
    ...parsed.data,
    client: context.get(clientAddressContext),
  });
  if (signIn.kind === "signed-in") {
    throw await redirectWithToast(
      "/admin/dashboard",
      {
        type: "success",
        title: "Administrateur créé",
        description: "Vous êtes connecté·e. Bienvenue dans l'administration du site.",
      },
      { headers: signIn.headers },
    );
  }
  throw await redirectWithToast("/admin/login", {
    type: "success",
    title: "Administrateur créé",
    description: "Connectez-vous avec votre adresse e-mail et votre mot de passe.",
  });
}

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
