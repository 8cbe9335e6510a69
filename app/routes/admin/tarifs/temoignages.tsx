import type { Route } from "./+types/temoignages";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { documentFormState } from "~/components/admin/document-answer";
import {
  AddItemButton,
  DocumentForm,
  LIST_HINT,
  ListItem,
  TextAreaField,
  TextField,
  useDocumentForm,
} from "~/components/admin/document-form";
import { RevisionHistory } from "~/components/admin/revision-history";
import { TarifsNav } from "~/components/admin/tarifs-nav";
import { listLength } from "~/lib/forms";
import { TESTIMONIAL_PAGES } from "~/lib/testimonial-pages";

export { action, loader } from "./temoignages.server";

export const meta: Route.MetaFunction = () => [{ title: "Témoignages - Administration" }];

function PageTestimonials({ list, title }: { list: string; title: string }) {
  const { values } = useDocumentForm();
  const count = listLength(values, list);
  return (
    <section
      aria-labelledby={`temoignages-${list}`}
      className="space-y-4 rounded-xl border border-border bg-white p-6"
    >
      <h2 id={`temoignages-${list}`} className="font-sans text-xl font-semibold">
        {title}
      </h2>
      {count === 0 ? (
        <p className="text-sm text-muted-foreground">Aucun témoignage : la page n'en montre pas.</p>
      ) : null}
      {Array.from({ length: count }, (_, index) => {
        const item = `${list}.${index}`;
        return (
          <ListItem
            key={item}
            path={list}
            index={index}
            length={count}
            heading={`Témoignage ${index + 1}${values[`${item}.author`] ? ` (${values[`${item}.author`]})` : ""}`}
          >
            <TextAreaField name={`${item}.quote`} label="Citation" required rows={3} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name={`${item}.author`} label="Auteur" required maxLength={100} />
              <TextField name={`${item}.location`} label="Lieu (facultatif)" maxLength={100} />
            </div>
          </ListItem>
        );
      })}
      <AddItemButton path={list} label="Ajouter un témoignage" />
    </section>
  );
}

export default function AdminTestimonials({ loaderData, actionData }: Route.ComponentProps) {
  const state = documentFormState(
    "testimonials",
    loaderData.values,
    loaderData.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Témoignages"
        summary="Les avis de clients montrés sur les pages Gendarmerie, Portrait & Famille et Grossesse."
      />
      <TarifsNav />
      <DocumentForm
        formId="temoignages"
        document="testimonials"
        title="Témoignages"
        {...state}
        previews={TESTIMONIAL_PAGES.map((page) => ({
          path: page.path,
          label: `Prévisualiser (${page.title})`,
        }))}
      >
        <p className="text-sm text-muted-foreground">{LIST_HINT}</p>
        {TESTIMONIAL_PAGES.map((page) => (
          <PageTestimonials key={page.list} list={page.list} title={page.title} />
        ))}
      </DocumentForm>
      <RevisionHistory history={loaderData.history} />
    </div>
  );
}
