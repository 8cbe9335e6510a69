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
import { SITE_PAGES, TarifsNav } from "~/components/admin/tarifs-nav";
import type { Documents } from "~/content/schemas";
import { documentValues, pricesForm } from "~/lib/document-forms";
import { listLength } from "~/lib/forms";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { listStudios, loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";
import { studioPaths } from "~/server/content/site-content.server";
import { listSessionTypes } from "~/server/booking/session-type-store.server";

export const meta: Route.MetaFunction = () => [{ title: "Tarifs - Administration" }];

const PAGE = "/admin/tarifs";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [prices, history, studios, types] = await Promise.all([
    loadDocument("prices"),
    documentHistory("prices", request),
    listStudios(),
    listSessionTypes(),
  ]);
  // A card may be the offer of a session type booked on the site (decision 0127).
  const sessionTypes = [
    { value: "", label: "Aucune : pas de réservation en ligne" },
    ...types
      .filter((type) => !type.archivedAt)
      .map((type) => ({ value: type.id, label: type.name })),
  ];
  const pages = [
    ...SITE_PAGES,
    ...studios
      .filter((studio) => !studio.retiredAt)
      .map((studio) => ({
        path: studioPaths(studio.slug).pagePath,
        label: `Studio ${studio.data.city}`,
      })),
  ];
  return { values: documentValues("prices", prices), history, pages, sessionTypes };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return documentFormAction(await request.formData(), admin, {
    key: "prices",
    schema: pricesForm,
    build: (parsed: z.output<typeof pricesForm>): Documents["prices"] => parsed,
    load: () => loadDocument("prices"),
    // A card names an existing session type, and each type is the offer of one card (decision 0127).
    check: async (prices) => {
      const known = new Set((await listSessionTypes()).map((type) => type.id));
      const taken = new Map<string, string>();
      const errors: Record<string, string> = {};
      prices.tabs.forEach((tab, tabIndex) =>
        tab.cards.forEach((card, cardIndex) => {
          if (card.sessionType === "") return;
          const field = `tabs.${tabIndex}.cards.${cardIndex}.sessionType`;
          const other = taken.get(card.sessionType);
          if (!known.has(card.sessionType)) {
            errors[field] = "Cette séance n'existe plus : choisissez-en une dans la liste";
          } else if (other !== undefined) {
            errors[field] =
              `Cette séance est déjà celle de la carte « ${other} » : une séance, une carte`;
          } else taken.set(card.sessionType, card.title);
        }),
      );
      return errors;
    },
    previewPaths: ["/tarifs"],
    page: PAGE,
    savedTitle: "Tarifs enregistrés",
  });
}

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
