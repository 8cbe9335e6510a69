import type { Route } from "./+types/gendarmerie";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { documentFormState } from "~/components/admin/document-answer";
import {
  AddItemButton,
  CheckboxField,
  DocumentForm,
  FeaturesField,
  IconField,
  LIST_HINT,
  ListItem,
  PhotoField,
  type PhotoOption,
  PriceField,
  SelectField,
  TextAreaField,
  TextField,
  useDocumentForm,
} from "~/components/admin/document-form";
import { RevisionHistory } from "~/components/admin/revision-history";
import { TarifsNav } from "~/components/admin/tarifs-nav";
import { listLength } from "~/lib/forms";

export { action, loader } from "./gendarmerie.server";

export const meta: Route.MetaFunction = () => [{ title: "Offre gendarmerie - Administration" }];

function Services({ photos }: { photos: readonly PhotoOption[] }) {
  const { values } = useDocumentForm();
  const count = listLength(values, "services");
  return (
    <section
      aria-labelledby="prestations-gendarmerie"
      className="space-y-4 rounded-xl border border-border bg-white p-6"
    >
      <h2 id="prestations-gendarmerie" className="font-sans text-xl font-semibold">
        Prestations
      </h2>
      {Array.from({ length: count }, (_, index) => {
        const item = `services.${index}`;
        return (
          <ListItem
            key={item}
            path="services"
            index={index}
            length={count}
            heading={values[`${item}.title`] || `Prestation ${index + 1}`}
          >
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField name={`${item}.title`} label="Titre" required maxLength={100} />
              <PriceField name={`${item}.price`} />
              <IconField name={`${item}.icon`} />
            </div>
            <TextAreaField name={`${item}.description`} label="Description" required rows={2} />
            <FeaturesField name={`${item}.features`} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                name={`${item}.youtubeId`}
                label="Vidéo YouTube (facultative)"
                hint="L'adresse de la vidéo ou son identifiant ; vide : pas de vidéo."
              />
              <TextField name={`${item}.videoTitle`} label="Titre de la vidéo" maxLength={200} />
            </div>
            <PhotoField name={`${item}.photo`} photos={photos} />
          </ListItem>
        );
      })}
      <AddItemButton path="services" label="Ajouter une prestation" />
    </section>
  );
}

function Packages() {
  const { values } = useDocumentForm();
  const count = listLength(values, "packages");
  return (
    <section
      aria-labelledby="formules-gendarmerie"
      className="space-y-4 rounded-xl border border-border bg-white p-6"
    >
      <h2 id="formules-gendarmerie" className="font-sans text-xl font-semibold">
        Formules
      </h2>
      {Array.from({ length: count }, (_, index) => {
        const item = `packages.${index}`;
        return (
          <ListItem
            key={item}
            path="packages"
            index={index}
            length={count}
            heading={values[`${item}.title`] || `Formule ${index + 1}`}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name={`${item}.title`} label="Titre" required maxLength={100} />
              <TextField
                name={`${item}.subtitle`}
                label="Sous-titre (facultatif)"
                maxLength={150}
              />
              <PriceField name={`${item}.discountPrice`} label="Prix de la formule" />
              <PriceField name={`${item}.originalPrice`} label="Prix d'origine (barré)" />
              <IconField name={`${item}.icon`} />
            </div>
            <TextAreaField name={`${item}.description`} label="Description" required rows={2} />
            <FeaturesField name={`${item}.features`} label="Ce qui est compris" />
            <CheckboxField
              name={`${item}.highlighted`}
              label="Mettre en avant"
              hint="La formule est soulignée sur la page."
            />
          </ListItem>
        );
      })}
      <AddItemButton path="packages" label="Ajouter une formule" />
    </section>
  );
}

export default function AdminGendarmerie({ loaderData, actionData }: Route.ComponentProps) {
  const state = documentFormState(
    "gendarmerie",
    loaderData.values,
    loaderData.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Offre gendarmerie"
        summary="La page /gendarmerie : offre, prestations, formules et borne selfie."
      />
      <TarifsNav />
      <DocumentForm
        formId="gendarmerie"
        document="gendarmerie"
        title="Offre gendarmerie"
        {...state}
        previews={[{ path: "/gendarmerie", label: "Prévisualiser" }]}
      >
        <p className="text-sm text-muted-foreground">{LIST_HINT}</p>
        <section
          aria-labelledby="offre-gendarmerie"
          className="space-y-4 rounded-xl border border-border bg-white p-6"
        >
          <h2 id="offre-gendarmerie" className="font-sans text-xl font-semibold">
            L'offre
          </h2>
          <TextField
            name="offer.title"
            label="Titre de l'offre"
            required
            maxLength={100}
            hint="Par exemple « Offre spéciale 2026 »."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="offer.validFrom"
              label="Début de l'offre (facultatif)"
              type="date"
              hint="Vide : l'offre est affichée dès maintenant."
            />
            <TextField
              name="offer.validUntil"
              label="Fin de l'offre, incluse (facultative)"
              type="date"
              hint="Vide : pas de date de fin."
            />
          </div>
          <SelectField
            name="studioSlug"
            label="Studio qui s'occupe de l'offre"
            required
            options={loaderData.studios}
            hint="Les boutons de la page mènent à son formulaire de contact."
          />
        </section>
        <Services photos={loaderData.photos} />
        <Packages />
        <section
          aria-labelledby="borne-gendarmerie"
          className="space-y-4 rounded-xl border border-border bg-white p-6"
        >
          <h2 id="borne-gendarmerie" className="font-sans text-xl font-semibold">
            Location de borne selfie
          </h2>
          <input
            type="hidden"
            name="selfieBooth.photo"
            value={state.values["selfieBooth.photo"] ?? ""}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField name="selfieBooth.title" label="Titre" required maxLength={100} />
            <PriceField name="selfieBooth.price" />
            <TextField
              name="selfieBooth.unit"
              label="Unité (facultative)"
              maxLength={40}
              hint="Par exemple « par jour »."
            />
            <IconField name="selfieBooth.icon" />
          </div>
          <TextAreaField name="selfieBooth.description" label="Description" required rows={2} />
          <FeaturesField name="selfieBooth.features" />
        </section>
      </DocumentForm>
      <RevisionHistory history={loaderData.history} />
    </div>
  );
}
