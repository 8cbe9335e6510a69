import type { Route } from "./+types/galerie";
import { GALLERY_CATEGORIES, type Gallery } from "~/content/schemas";
import { formValues, isUuid, type FieldErrors } from "~/lib/forms";
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
