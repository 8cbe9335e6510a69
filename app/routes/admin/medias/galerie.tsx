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
import { GALLERY_CATEGORIES, type Gallery } from "~/content/schemas";
import { formValues, isUuid, type FieldErrors, type FormAnswer } from "~/lib/forms";
import { slotPickerPath } from "~/lib/media-forms";
import { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  ContentError,
  loadDocument,
  restoreDocument,
  saveDocument,
} from "~/server/content/content-store.server";
import { documentHistory } from "~/server/content/document-form.server";
import { listLibrary } from "~/server/content/media-store.server";
import { invalidForm, refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

/*
 * The gallery of /galerie: each customer gallery's photo, title, category and link, added, removed and
 * reordered here, with the document's history.
 */

export const meta: Route.MetaFunction = () => [{ title: "Galerie - Administration" }];

const PATH = "/admin/medias/galerie";

const titleSchema = z
  .string()
  .trim()
  .min(1, "Donnez un titre à cette galerie.")
  .max(150, "Le titre fait 150 caractères au plus.");
const linkSchema = z
  .string()
  .trim()
  .max(500, "L'adresse fait 500 caractères au plus.")
  .url("Indiquez l'adresse complète de la galerie du client (https://…).");
const categorySchema = z.enum(GALLERY_CATEGORIES, { error: "Choisissez une catégorie." });
/** The buttons that move an item: `up:{index}`, `down:{index}`. */
const MOVE = /^(up|down):(\d{1,3})$/;

/** One item's fields (`{prefix}title`, `…category`, `…link`) checked; errors keyed by field name. */
function readItem(values: Record<string, string>, prefix: string, errors: FieldErrors) {
  const title = titleSchema.safeParse(values[`${prefix}title`] ?? "");
  const category = categorySchema.safeParse(values[`${prefix}category`] ?? "");
  const link = linkSchema.safeParse(values[`${prefix}link`] ?? "");
  if (!title.success) errors[`${prefix}title`] = title.error.issues[0]?.message;
  if (!category.success) errors[`${prefix}category`] = category.error.issues[0]?.message;
  if (!link.success) errors[`${prefix}link`] = link.error.issues[0]?.message;
  return title.success && category.success && link.success
    ? { title: title.data, category: category.data, link: link.data }
    : null;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [gallery, library, history] = await Promise.all([
    loadDocument("gallery"),
    listLibrary(),
    documentHistory("gallery", request),
  ]);
  const photos = library.map(({ id, alt, colour, picture, demo }) => ({
    id,
    alt,
    colour,
    picture,
    demo,
  }));
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  return {
    items: gallery.items.map((item) => ({ ...item, photo: byId.get(item.photo) ?? null })),
    photos,
    history,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const author = { id: admin.id, name: admin.name || admin.email };
  const formData = await request.formData();
  const intent = formData.get("intent");
  try {
    if (intent === "restore") {
      const revision = formData.get("revision");
      if (!isUuid(revision) || !(await restoreDocument("gallery", revision, author))) {
        return refusedIntent("id", "Version inconnue");
      }
      return redirectWithToast(PATH, { type: "success", title: "Version restaurée" });
    }
    const values = formValues(formData);
    const errors: FieldErrors = {};
    const gallery = await loadDocument("gallery");
    if (intent === "add") {
      const item = readItem(values, "new-", errors);
      const photo = values.photo;
      if (!isUuid(photo)) errors.photo = "Choisissez la photo de cette galerie.";
      if (!item || !isUuid(photo)) return invalidForm(values, errors);
      const next: Gallery = { items: [...gallery.items, { ...item, photo }] };
      await saveDocument("gallery", next, author, `Galerie : « ${item.title} » ajoutée`);
      return redirectWithToast(PATH, { type: "success", title: "Galerie ajoutée" });
    }
    // « Monter » / « Descendre » save the gallery as typed, with that item moved one place.
    const move = typeof intent === "string" ? MOVE.exec(intent) : null;
    if (intent !== "save" && !move) return refusedIntent("intent", "");
    if (Number(values.count) !== gallery.items.length) {
      return invalidForm(values, {
        form: "La galerie a changé entre-temps : rechargez la page puis recommencez.",
      });
    }
    const order = gallery.items.map((_, index) => index);
    if (move) {
      const from = Number(move[2]);
      const to = move[1] === "up" ? from - 1 : from + 1;
      if (from >= order.length) return refusedIntent("intent", "");
      if (to >= 0 && to < order.length) [order[from], order[to]] = [to, from];
    }
    const items: Gallery["items"] = [];
    for (const index of order) {
      const stored = gallery.items[index];
      if (!stored || values[`item-${index}-remove`] === "on") continue;
      const item = readItem(values, `item-${index}-`, errors);
      if (item) items.push({ ...item, photo: stored.photo });
    }
    if (Object.keys(errors).length > 0) return invalidForm(values, errors);
    const moved = move ? gallery.items[Number(move[2])] : undefined;
    await saveDocument(
      "gallery",
      { items },
      author,
      moved ? `Galerie : « ${moved.title} » déplacée` : undefined,
    );
    return redirectWithToast(PATH, {
      type: "success",
      title: "Galerie enregistrée",
      ...(moved ? { description: "Le nouvel ordre est en ligne." } : {}),
    });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return redirectWithToast(PATH, {
      type: "error",
      title: "Non enregistré",
      description: error.message,
    });
  }
}

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
