import type { Route } from "./+types/seances-a-offrir";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { documentFormState } from "~/components/admin/document-answer";
import {
  AddItemButton,
  DocumentForm,
  LIST_HINT,
  ListItem,
  PhotoField,
  PriceField,
  SelectField,
  TextAreaField,
  TextField,
} from "~/components/admin/document-form";
import { RevisionHistory } from "~/components/admin/revision-history";
import { TarifsNav } from "~/components/admin/tarifs-nav";
import { listLength } from "~/lib/forms";

export { action, loader } from "./seances-a-offrir.server";

export const meta: Route.MetaFunction = () => [{ title: "Séances à offrir - Administration" }];

export default function AdminGiftSessions({ loaderData, actionData }: Route.ComponentProps) {
  const state = documentFormState(
    "giftSessions",
    loaderData.values,
    loaderData.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  const count = listLength(state.values, "sessions");
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Séances à offrir"
        summary="Les séances de la page /seances-a-offrir : ajoutez-en, retirez-en, changez leur ordre, leurs textes et leurs photos."
      />
      <TarifsNav />
      <DocumentForm
        formId="cadeaux"
        document="giftSessions"
        title="Séances à offrir"
        {...state}
        previews={[{ path: "/seances-a-offrir", label: "Prévisualiser" }]}
      >
        <p className="text-sm text-muted-foreground">{LIST_HINT}</p>
        <section
          aria-label="Séances"
          className="space-y-4 rounded-xl border border-border bg-white p-6"
        >
          {Array.from({ length: count }, (_, index) => {
            const item = `sessions.${index}`;
            return (
              <ListItem
                key={item}
                path="sessions"
                index={index}
                length={count}
                heading={state.values[`${item}.title`] || `Séance ${index + 1}`}
              >
                <div className="grid gap-4 sm:grid-cols-2">
                  <TextField name={`${item}.title`} label="Titre" required maxLength={100} />
                  <PriceField name={`${item}.price`} />
                </div>
                <TextAreaField name={`${item}.description`} label="Description" required rows={2} />
                <TextField
                  name={`${item}.link`}
                  label="Lien vers le bon cadeau"
                  type="url"
                  required
                  hint="L'adresse complète de la page où l'on achète le bon (https://…)."
                />
                <PhotoField name={`${item}.photo`} photos={loaderData.photos} />
                <SelectField
                  name={`${item}.sessionType`}
                  label="Séance réservée avec le bon"
                  options={loaderData.sessionTypes}
                  hint="Avec un prix fixe, la séance se vend alors en bon cadeau sur le site, une fois la vente de bons cadeaux ouverte (Paiements)."
                />
              </ListItem>
            );
          })}
          <AddItemButton path="sessions" label="Ajouter une séance" />
        </section>
      </DocumentForm>
      <RevisionHistory history={loaderData.history} />
    </div>
  );
}
