import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { documentFormState } from "~/components/admin/document-answer";
import {
  AddItemButton,
  DocumentForm,
  FeaturesField,
  IconField,
  LIST_HINT,
  ListItem,
  PriceField,
  SelectField,
  TextField,
  useDocumentForm,
  useFormField,
} from "~/components/admin/document-form";
import { RevisionHistory } from "~/components/admin/revision-history";
import { TarifsNav } from "~/components/admin/tarifs-nav";
import { listLength } from "~/lib/forms";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Tarifs - Administration" }];

type Option = { value: string; label: string };

function TabSection({
  tab,
  pagesListId,
  sessionTypes,
}: {
  tab: number;
  pagesListId: string;
  sessionTypes: readonly Option[];
}) {
  const { value: label } = useFormField(`tabs.${tab}.label`);
  const { formId, values } = useDocumentForm();
  const path = `tabs.${tab}.cards`;
  const count = listLength(values, path);
  return (
    <section
      aria-labelledby={`${formId}-onglet-${tab}`}
      className="space-y-4 rounded-xl border border-border bg-white p-6"
    >
      <h2 id={`${formId}-onglet-${tab}`} className="font-sans text-xl font-semibold">
        Onglet « {label} »
      </h2>
      <input type="hidden" name={`tabs.${tab}.id`} value={values[`tabs.${tab}.id`] ?? ""} />
      <TextField name={`tabs.${tab}.label`} label="Nom de l'onglet" required maxLength={60} />
      {Array.from({ length: count }, (_, index) => {
        const card = `${path}.${index}`;
        return (
          <ListItem
            key={card}
            path={path}
            index={index}
            length={count}
            heading={values[`${card}.title`] || `Carte ${index + 1}`}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name={`${card}.title`} label="Titre" required maxLength={100} />
              <PriceField name={`${card}.price`} />
              <IconField name={`${card}.icon`} />
              <TextField
                name={`${card}.badge`}
                label="Badge (facultatif)"
                hint="Par exemple « Meilleur Prix »."
                maxLength={40}
              />
            </div>
            <FeaturesField name={`${card}.features`} />
            <TextField
              name={`${card}.link`}
              label="Lien « En savoir plus »"
              required
              list={pagesListId}
              hint="Choisissez une page du site, ou écrivez une adresse (/ma-page ou https://…)."
            />
            <SelectField
              name={`${card}.sessionType`}
              label="Séance réservable en ligne"
              options={sessionTypes}
              hint="La carte affiche alors « Réserver », et la séance est vendue au prix de la carte, avec ses lignes comme « ce qui est compris »."
            />
          </ListItem>
        );
      })}
      <AddItemButton path={path} label="Ajouter une carte" />
    </section>
  );
}

export default function AdminTarifs({ loaderData, actionData }: Route.ComponentProps) {
  const { values, errors, nonce, message } = documentFormState(
    "prices",
    loaderData.values,
    loaderData.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  const pagesListId = "pages-du-site";
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Tarifs"
        summary="Les cartes de la page /tarifs, dans ses deux onglets."
      />
      <TarifsNav />
      <datalist id={pagesListId}>
        {loaderData.pages.map((page) => (
          <option key={page.path} value={page.path} label={page.label} />
        ))}
      </datalist>
      <DocumentForm
        formId="tarifs"
        document="prices"
        title="Tarifs"
        values={values}
        errors={errors}
        nonce={nonce}
        message={message}
        previews={[{ path: "/tarifs", label: "Prévisualiser" }]}
      >
        <p className="text-sm text-muted-foreground">{LIST_HINT}</p>
        <TabSection tab={0} pagesListId={pagesListId} sessionTypes={loaderData.sessionTypes} />
        <TabSection tab={1} pagesListId={pagesListId} sessionTypes={loaderData.sessionTypes} />
      </DocumentForm>
      <RevisionHistory history={loaderData.history} />
    </div>
  );
}
