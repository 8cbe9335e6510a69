import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/mot-de-passe-oublie";
import { SignInShell } from "~/components/admin/admin-shell";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { emailOnlySchema } from "~/lib/admin-schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { requestPasswordResetLink } from "~/server/admin/password-reset.server";
import { tooManyAttempts } from "~/server/admin/sign-in.server";
import { auth } from "~/server/auth/auth.server";
import { clientAddressContext } from "~/server/context";
import { configuredMailer } from "~/server/admin/mailer.server";
import { mailConfig } from "~/server/mail/transport.server";
import { signInRefusal } from "~/server/forms.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mot de passe oublié - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export function loader() {
  return data(
    { mailConfigured: mailConfig() !== null },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The same answer whether or not the address is an administrator's. */
const SENT: ToastMessage = {
  type: "success",
  title: "Demande enregistrée",
  description:
    "Si cette adresse est celle d'un compte administrateur, un e-mail vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Le lien est valable une heure et ne fonctionne qu'une fois.",
};

type ActionResult = {
  errors?: FieldErrors;
  email?: string;
  toast?: ToastMessage;
  sent?: boolean;
  mailConfigured?: boolean;
};

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submitted = formData.get("email");
  const email = typeof submitted === "string" ? submitted.slice(0, 300) : "";
  const parsed = emailOnlySchema.safeParse({
    email: typeof submitted === "string" ? submitted : "",
  });
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error, email), { status: 400 });
  }
  const outcome = await requestPasswordResetLink(await auth(), configuredMailer(), {
    email: parsed.data.email,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "not-configured") {
    return data<ActionResult>({ mailConfigured: false }, { status: 503 });
  }
  if (outcome.kind === "rate-limited") {
    return data<ActionResult>(
      { email, toast: tooManyAttempts(outcome.retryAfterSeconds) },
      { status: 429 },
    );
  }
  return data<ActionResult>({ sent: true, toast: SENT });
}

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
