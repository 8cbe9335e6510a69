import { ArrowRight, Pencil, Plus } from "lucide-react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/redirections";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DeleteForm } from "~/components/admin/delete-form";
import { Field, Input } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import type { FieldErrors } from "~/lib/forms";

export { action, loader } from "./redirections.server";

export const meta: Route.MetaFunction = () => [{ title: "Redirections - Administration" }];

/** The search parameter that opens a row's form (works without JavaScript). */
const EDIT_PARAM = "modifier";

function RedirectFields({
  prefix,
  values,
  errors,
}: {
  prefix: string;
  values: { from: string; to: string };
  errors: FieldErrors;
}) {
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <Field
        name={`${prefix}from`}
        label="Ancienne adresse"
        error={errors.from}
        hint="Le chemin seul, par exemple /ancienne-page."
      >
        {(props) => (
          <Input {...props} name="from" required maxLength={500} defaultValue={values.from} />
        )}
      </Field>
      <Field
        name={`${prefix}to`}
        label="Nouvelle adresse"
        error={errors.to}
        hint="Une page du site (/tarifs) ou une adresse https://"
      >
        {(props) => (
          <Input {...props} name="to" required maxLength={500} defaultValue={values.to} />
        )}
      </Field>
    </div>
  );
}

export default function Redirections({ loaderData, actionData }: Route.ComponentProps) {
  const { redirects } = loaderData;
  const answer = actionData && "status" in actionData ? actionData : undefined;
  useServerToast(answer?.toast);
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // A refused form is the one its answer names: a row's (its id) or the new one.
  const answeredId = answer?.values.id ?? null;
  const editing = answeredId ?? searchParams.get(EDIT_PARAM);
  const newValues =
    answer && answeredId === null
      ? { from: answer.values.from ?? "", to: answer.values.to ?? "" }
      : { from: "", to: "" };

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Redirections"
        summary="Les adresses de l'ancien site qui circulent encore (moteurs de recherche, liens partagés, flyers) mènent à leur nouvelle page."
      />
      <section
        aria-labelledby="nouvelle-redirection"
        className="space-y-4 rounded-xl border border-border bg-white p-6"
      >
        <h2 id="nouvelle-redirection" className="font-sans text-lg font-semibold">
          Ajouter une redirection
        </h2>
        <Form method="post" noValidate className="space-y-4">
          {answer && answeredId === null ? <FormAlert message={answer.toast} /> : null}
          <RedirectFields
            prefix=""
            values={newValues}
            errors={answer && answeredId === null ? (answer.errors ?? {}) : {}}
          />
          <Button type="submit" name="intent" value="create" disabled={busy}>
            <Plus aria-hidden="true" />
            Ajouter
          </Button>
        </Form>
        <p className="text-sm text-muted-foreground">
          Une page qui existe sur le site ne peut pas être redirigée. Une redirection vers une autre
          ancienne adresse est suivie jusqu'au bout ; une boucle est refusée.
        </p>
      </section>

      <section className="rounded-xl border border-border bg-white" aria-labelledby="liste">
        <h2 id="liste" className="px-5 pt-5 font-sans text-lg font-semibold">
          {redirects.length} redirection{redirects.length > 1 ? "s" : ""}
        </h2>
        <ul className="mt-3 divide-y divide-border">
          {redirects.map((row) =>
            editing === row.id ? (
              <li key={row.id} className="px-5 py-4">
                <Form method="post" noValidate className="space-y-3">
                  <input type="hidden" name="id" value={row.id} />
                  {answer && answeredId === row.id ? <FormAlert message={answer.toast} /> : null}
                  <RedirectFields
                    prefix={`${row.id}-`}
                    values={
                      answer && answeredId === row.id
                        ? { from: answer.values.from ?? "", to: answer.values.to ?? "" }
                        : row
                    }
                    errors={answer && answeredId === row.id ? (answer.errors ?? {}) : {}}
                  />
                  <div className="flex gap-2">
                    <Button type="submit" name="intent" value="update" disabled={busy}>
                      Enregistrer
                    </Button>
                    <Button asChild variant="ghost">
                      <Link to="/admin/redirections" preventScrollReset>
                        Annuler
                      </Link>
                    </Button>
                  </div>
                </Form>
              </li>
            ) : (
              <li
                key={row.id}
                className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center"
              >
                <p className="flex min-w-0 flex-1 flex-wrap items-center gap-2 text-sm break-all">
                  <span className="font-medium">{row.from}</span>
                  <ArrowRight aria-hidden="true" className="size-4 shrink-0" />
                  <span className="sr-only">mène à</span>
                  <span>{row.to}</span>
                </p>
                <div className="flex gap-2">
                  <Button asChild variant="ghost" size="sm">
                    <Link to={`?${EDIT_PARAM}=${row.id}`} preventScrollReset>
                      <Pencil aria-hidden="true" />
                      Modifier<span className="sr-only"> « {row.from} »</span>
                    </Link>
                  </Button>
                  <DeleteForm
                    id={row.id}
                    confirmation="Supprimer cette redirection ? L'ancienne adresse mènera à la page « introuvable »."
                    itemLabel={`${row.from} → ${row.to}`}
                  />
                </div>
              </li>
            ),
          )}
        </ul>
      </section>
    </div>
  );
}
