import { Form } from "react-router";
import type { Route } from "./+types/index";
import { AccountantMailSection } from "~/components/accounting/accountant-mail-section";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Input } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Comptabilité - Administration" }];

export default function Accounting({ loaderData, actionData }: Route.ComponentProps) {
  const { typed, errors, files, accountant } = loaderData;
  const sendRefused = actionData?.form === "send-now" ? actionData : undefined;
  const settingRefused = actionData?.form === "accountant-mail" ? actionData : undefined;
  const errorOf = (name: "du" | "au") => (errors as Partial<Record<"du" | "au", string>>)[name];
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Comptabilité"
        summary="Les fichiers de votre comptable pour une période : ils s'ouvrent dans un tableur (Excel, LibreOffice), montants en euros avec une virgule."
      />
      <Form
        method="get"
        aria-label="Période"
        className="flex flex-wrap items-end gap-3 rounded-xl border border-border bg-white p-4"
      >
        <Field name="du" label="Du" error={errorOf("du")}>
          {(props) => <Input {...props} type="date" required defaultValue={typed.from} />}
        </Field>
        <Field name="au" label="Au (inclus)" error={errorOf("au")}>
          {(props) => <Input {...props} type="date" required defaultValue={typed.to} />}
        </Field>
        <Button type="submit" variant="outline">
          Afficher la période
        </Button>
      </Form>
      {files.length > 0 ? (
        <ul className="space-y-2" aria-label="Fichiers du comptable">
          {files.map((file) => (
            <li
              key={file.file}
              className="rounded-xl border border-border bg-white p-4 sm:grid sm:grid-cols-[1fr_auto] sm:gap-4"
            >
              <div className="min-w-0 space-y-1">
                <p className="font-semibold">{file.title}</p>
                <p className="text-sm">{file.about}</p>
                <p className="text-sm text-muted-foreground">
                  {file.rows} ligne{file.rows > 1 ? "s" : ""} · total {file.total}
                </p>
              </div>
              <Button asChild variant="outline" className="mt-2 sm:mt-0">
                <a href={file.href} download>
                  Télécharger
                  <span className="sr-only"> : {file.title} (CSV)</span>
                </a>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {files.length > 0 ? (
        <Form
          method="post"
          aria-label="Envoi des fichiers de la période"
          className="space-y-3 rounded-xl border border-border bg-white p-4 text-sm"
        >
          <FormAlert message={sendRefused?.toast} />
          <input type="hidden" name="du" value={typed.from} />
          <input type="hidden" name="au" value={typed.to} />
          <p>
            {accountant.email
              ? `Les quatre fichiers de cette période, en pièces jointes d'un e-mail à ${accountant.email}.`
              : "Indiquez d'abord l'adresse de votre cabinet comptable, plus bas, pour lui envoyer les fichiers."}
          </p>
          <Button type="submit" name="intent" value="send-now">
            Envoyer maintenant les fichiers de la période
          </Button>
        </Form>
      ) : null}
      <AccountantMailSection setting={accountant} period={typed} answer={settingRefused} />
    </div>
  );
}
