import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/administrateurs";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Input } from "~/components/admin/field";
import { useSignInForm } from "~/components/admin/sign-in-form";
import { FormAlert } from "~/components/admin/form-alert";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { emailOnlySchema } from "~/lib/admin-schemas";

export { action, loader } from "./administrateurs.server";

export const meta: Route.MetaFunction = () => [{ title: "Administrateurs - Administration" }];

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
