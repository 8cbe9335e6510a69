import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/administrateurs";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { emailOnlySchema } from "~/lib/admin-schemas";
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
import { signInRefusal } from "~/server/forms.server";

export const meta: Route.MetaFunction = () => [{ title: "Administrateurs - Administration" }];

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
  const formData = await request.formData();
  const submitted = formData.get("email");
  const email = typeof submitted === "string" ? submitted.slice(0, 300) : "";
  const parsed = emailOnlySchema.safeParse({
    email: typeof submitted === "string" ? submitted : "",
  });
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error, email), { status: 400 });
  }
  const outcome = await inviteAdministrator(await auth(), configuredMailer(), {
    email: parsed.data.email,
    invitedBy: admin.email,
    baseURL: env().SITE_URL,
  });
  switch (outcome.kind) {
    case "sent":
      throw await redirectWithToast("/admin/administrateurs", {
        type: "success",
        title: "Invitation envoyée",
        description: `Un e-mail a été envoyé à ${parsed.data.email} avec un lien pour choisir son mot de passe (valable 3 jours).`,
      });
    case "exists":
      return data<ActionResult>(
        {
          email,
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
          email,
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
          email,
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

export default function Administrators({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, clientErrors, formRef: form, checkWith } = useSignInForm(actionData?.errors);
  useServerToast(actionData?.toast);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Administrateurs"
        summary="Les personnes qui peuvent se connecter à l'administration du site."
      />
      <section className="overflow-x-auto rounded-xl border border-border bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Administrateurs du site</caption>
          <thead className="border-b border-border bg-muted/50">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Email
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Depuis le
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                État
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.administrators.map((row) => (
              <tr key={row.id} className="border-b border-border last:border-0">
                <td className="px-4 py-3 break-all">
                  {row.email}
                  {row.id === loaderData.me ? " (vous)" : ""}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{row.since}</td>
                <td className="px-4 py-3">
                  {!row.hasPassword
                    ? "Invitation en attente"
                    : row.twoFactorEnabled
                      ? "Actif, double authentification"
                      : "Actif"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="space-y-4 rounded-xl border border-border bg-white p-5 sm:p-6">
        <h2 className="text-xl font-semibold">Inviter un administrateur</h2>
        {loaderData.mailConfigured ? (
          <Form
            ref={form}
            method="post"
            noValidate
            className="max-w-sm space-y-4"
            onSubmit={checkWith(emailOnlySchema)}
          >
            <p className="text-sm text-muted-foreground">
              La personne reçoit un e-mail avec un lien pour choisir son mot de passe ; elle aura
              ensuite les mêmes droits que vous.
            </p>
            <Field name="email" label="Email" error={errors.email}>
              {(props) => (
                <Input
                  {...props}
                  type="email"
                  autoComplete="off"
                  required
                  defaultValue={actionData?.email ?? ""}
                />
              )}
            </Field>
            <FormAlert message={clientErrors ? null : actionData?.toast} />
            <Button type="submit" disabled={busy}>
              {busy ? "Envoi..." : "Envoyer l'invitation"}
            </Button>
          </Form>
        ) : (
          <MailNotConfigured>
            Les invitations sont envoyées par e-mail : elles seront possibles une fois l'envoi
            configuré.
          </MailNotConfigured>
        )}
      </section>
    </div>
  );
}
