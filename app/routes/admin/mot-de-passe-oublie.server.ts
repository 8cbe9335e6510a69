import { data } from "react-router";
import type { Route } from "./+types/mot-de-passe-oublie";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { requestPasswordResetLink } from "~/server/admin/password-reset.server";
import { tooManyAttempts } from "~/server/admin/sign-in.server";
import { auth } from "~/server/auth/auth.server";
import { clientAddressContext } from "~/server/context";
import { configuredMailer } from "~/server/admin/mailer.server";
import { mailConfig } from "~/server/mail/transport.server";
import { readAddressForm } from "~/server/forms.server";

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
  const address = readAddressForm(await request.formData());
  if (!address.ok) return data<ActionResult>(address.refusal, { status: 400 });
  const outcome = await requestPasswordResetLink(await auth(), configuredMailer(), {
    email: address.email,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "not-configured") {
    return data<ActionResult>({ mailConfigured: false }, { status: 503 });
  }
  if (outcome.kind === "rate-limited") {
    return data<ActionResult>(
      { email: address.typed, toast: tooManyAttempts(outcome.retryAfterSeconds) },
      { status: 429 },
    );
  }
  return data<ActionResult>({ sent: true, toast: SENT });
}
