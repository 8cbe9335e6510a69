import { ArrowDown, ArrowUp } from "lucide-react";
import { Link, useNavigation } from "react-router";
import { Form } from "react-router";
import type { Route } from "./+types/galerie";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Input, Select } from "~/components/admin/field";
import { MediaThumbnail, PhotoChoices } from "~/components/admin/media-thumbnail";
import { RevisionHistory } from "~/components/admin/revision-history";
import { Button } from "~/components/ui/button";
import { ErrorSummary, fieldMeta } from "~/components/ui/field";
import { GALLERY_CATEGORIES } from "~/content/schemas";
import type { FieldErrors, FormAnswer } from "~/lib/forms";
import { slotPickerPath } from "~/lib/media-forms";

export { action, loader } from "./galerie.server";

/*
 * The gallery of /galerie: each customer gallery's photo, title, category and link, added, removed and
 * reordered here, with the document's history.
 */

export const meta: Route.MetaFunction = () => [{ title: "Galerie - Administration" }];

type ItemFieldsProps = {
  prefix: string;
  values: Record<string, string> | undefined;
  errors: FieldErrors;
  defaults: { title: string; category: string; link: string };
};

function ItemFields({ prefix, values, errors, defaults }: ItemFieldsProps) {
  const value = (name: keyof ItemFieldsProps["defaults"]) =>
    values?.[`${prefix}${name}`] ?? defaults[name];
  return (
    <div className="grid gap-3 sm:grid-cols-[2fr_1fr_2fr]">
      <Field name={`${prefix}title`} label="Titre" error={errors[`${prefix}title`]}>
        {(props) => <Input {...props} defaultValue={value("title")} maxLength={150} />}
      </Field>
      <Field name={`${prefix}category`} label="Catégorie" error={errors[`${prefix}category`]}>
        {(props) => (
          <Select {...props} defaultValue={value("category")}>
            {defaults.category === "" ? <option value="">Choisir…</option> : null}
            {GALLERY_CATEGORIES.map((category) => (
              <option key={category}>{category}</option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        name={`${prefix}link`}
        label="Lien vers la galerie du client"
        error={errors[`${prefix}link`]}
      >
        {(props) => <Input {...props} type="url" defaultValue={value("link")} maxLength={500} />}
      </Field>
    </div>
  );
}

export default function MediaGallery({ loaderData, actionData }: Route.ComponentProps) {
  const { items, photos, history } = loaderData;
  const answer: FormAnswer | undefined =
    actionData && "status" in actionData ? actionData : undefined;
  const adding = answer?.values.intent === "add";
  const saveErrors = !adding ? (answer?.errors ?? {}) : {};
  const addErrors = adding ? (answer?.errors ?? {}) : {};
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const summaryItems = (errors: FieldErrors) =>
    Object.keys(errors).map((name) => ({
      field: fieldMeta("champ", name, errors[name]),
      label: name === "form" ? "Galerie" : name === "photo" ? "Photo" : "Champ",
    }));

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Galerie"
        summary="Les galeries de vos clients présentées sur la page « Galerie » : photo, titre, catégorie et lien."
        actions={
          <Button asChild variant="outline">
            <Link to="/admin/medias">Médiathèque</Link>
          </Button>
        }
      />
      <Form
        method="post"
        noValidate
        className="space-y-4 rounded-xl border border-border bg-white p-6"
      >
        {/* The Enter key saves (the first submit button of a form is the one it presses). */}
        <button
          type="submit"
          name="intent"
          value="save"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        />
        <input type="hidden" name="count" value={items.length} />
        <p className="text-sm text-muted-foreground">
          « Monter » et « Descendre » enregistrent aussitôt la galerie dans le nouvel ordre (avec ce
          qui a été modifié) ; l'historique en bas de la page permet de revenir en arrière.
        </p>
        <ErrorSummary id="galerie-erreurs" items={summaryItems(saveErrors)} />
        <ol className="divide-y divide-border">
          {items.map((item, index) => (
            <li key={`${index}-${item.title}`} className="grid gap-4 py-4 md:grid-cols-[12rem_1fr]">
              <div className="space-y-2">
                {item.photo ? (
                  <MediaThumbnail
                    picture={item.photo.picture}
                    alt={item.photo.alt}
                    colour={item.photo.colour}
                  />
                ) : null}
                <Button asChild variant="outline" size="sm">
                  <Link to={slotPickerPath(`galerie:${index}`)}>
                    Changer la photo<span className="sr-only"> : {item.title}</span>
                  </Link>
                </Button>
              </div>
              <div className="space-y-2">
                <ItemFields
                  prefix={`item-${index}-`}
                  values={adding ? undefined : answer?.values}
                  errors={saveErrors}
                  defaults={item}
                />
                <label className="inline-flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name={`item-${index}-remove`}
                    defaultChecked={!adding && answer?.values[`item-${index}-remove`] === "on"}
                    className="size-4 accent-gold-dark"
                  />
                  Retirer cette galerie de la page
                </label>
                <div className="flex flex-wrap gap-2">
                  <Button
                    type="submit"
                    name="intent"
                    value={`up:${index}`}
                    variant="ghost"
                    size="sm"
                    disabled={busy || index === 0}
                  >
                    <ArrowUp aria-hidden="true" />
                    Monter<span className="sr-only"> « {item.title} »</span>
                  </Button>
                  <Button
                    type="submit"
                    name="intent"
                    value={`down:${index}`}
                    variant="ghost"
                    size="sm"
                    disabled={busy || index === items.length - 1}
                  >
                    <ArrowDown aria-hidden="true" />
                    Descendre<span className="sr-only"> « {item.title} »</span>
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ol>
        <div className="flex justify-end">
          <Button type="submit" name="intent" value="save" disabled={busy}>
            Enregistrer la galerie
          </Button>
        </div>
      </Form>

      <section aria-labelledby="ajouter" className="rounded-xl border border-border bg-white p-6">
        <h2 id="ajouter" className="mb-4 font-sans text-lg font-semibold">
          Ajouter une galerie
        </h2>
        <Form method="post" noValidate className="space-y-4">
          <ErrorSummary id="ajout-erreurs" items={summaryItems(addErrors)} />
          <ItemFields
            prefix="new-"
            values={adding ? answer?.values : undefined}
            errors={addErrors}
            defaults={{ title: "", category: "", link: "" }}
          />
          <PhotoChoices
            photos={photos}
            current={adding ? (answer?.values.photo ?? null) : null}
            legend="Photo"
          />
          <div className="flex justify-end">
            <Button type="submit" name="intent" value="add" disabled={busy}>
              Ajouter à la galerie
            </Button>
          </div>
        </Form>
      </section>

      <RevisionHistory history={history} title="Historique de la galerie" />
    </div>
  );
}
