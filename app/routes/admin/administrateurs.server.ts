import { data } from "react-router";
import type { Route } from "./+types/administrateurs";
import { formatDateFr } from "~/lib/dates";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { listAdministrators } from "~/server/admin/administrators.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { inviteAdministrator } from "~/server/admin/password-reset.server";
import { auth } from "~/server/auth/auth.server";
import { env } from "~/server/env.server";
import { configuredMailer } from "~/server/admin/mailer.server";
import { mailConfig } from "~/server/mail/transport.server";
import { redirectWithToast } from "~/server/toast.server";
import { readAddressForm } from "~/server/forms.server";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const administrators = await listAdministrators();
  return {
    me: admin.id,
    mailConfigured: mailConfig() !== null,
    administrators: administrators.map((row) => ({
      id: row.id,
      email: row.email,
      since: formatDateFr(row.createdAt),
      hasPassword: row.hasPassword,
      twoFactorEnabled: row.twoFactorEnabled,
    })),
  };
}

type ActionResult = { errors?: FieldErrors; email?: string; toast?: ToastMessage };

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const address = readAddressForm(await request.formData());
  if (!address.ok) return data<ActionResult>(address.refusal, { status: 400 });
  const outcome = await inviteAdministrator(await auth(), configuredMailer(), {
    email: address.email,
    invitedBy: admin.email,
    baseURL: env().SITE_URL,
  });
  switch (outcome.kind) {
    case "sent":
      throw await redirectWithToast("/admin/administrateurs", {
        type: "success",
        title: "Invitation envoyée",
        description: `Un e-mail a été envoyé à ${address.email} avec un lien pour choisir son mot de passe (valable 3 jours).`,
      });
    case "exists":
      return data<ActionResult>(
        {
          email: address.typed,
          errors: { email: "Un compte existe déjà pour cette adresse" },
          toast: {
            type: "error",
            title: "Erreur",
            description: "Un compte existe déjà pour cette adresse",
          },
        },
        { status: 409 },
      );
    case "not-configured":
      return data<ActionResult>(
        {
          email: address.typed,
          toast: {
            type: "error",
            title: "Erreur",
            description: "L'envoi d'e-mails n'est pas configuré (SMTP_URL).",
          },
        },
        { status: 503 },
      );
    case "failed":
      return data<ActionResult>(
        {
          email: address.typed,
          toast: {
            type: "error",
            title: "Erreur",
            description:
              "L'e-mail d'invitation n'a pas pu être envoyé. Vérifiez la configuration SMTP puis réessayez.",
          },
        },
        { status: 502 },
      );
  }
}
