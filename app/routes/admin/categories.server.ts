import type { Route } from "./+types/categories";
import { categorySchema } from "~/lib/admin-schemas";
import { parseForm, parseIntent } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { SlugTakenError } from "~/server/blog/admin-articles.server";
import {
  createCategory,
  deleteCategory,
  listCategoriesForAdmin,
  updateCategory,
} from "~/server/blog/admin-categories.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { failedForm, invalidForm, refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    return { categories: await listCategoriesForAdmin(), loadError: null };
  } catch (error) {
    log.error("admin_categories_load_failed", { error });
    return {
      categories: [],
      loadError: {
        type: "error",
        title: "Erreur",
        description: "Impossible de charger les catégories",
      } satisfies ToastMessage as ToastMessage,
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  // A new category has no id yet; every other intent names one.
  const creating = formData.get("intent") === "create";
  const target = creating ? null : parseIntent(formData, ["update", "delete"]);
  if (target && !target.ok) return refusedIntent(target.reason, "Catégorie inconnue");
  const intent = target ? target.intent : "create";
  const id = target ? target.id : null;

  if (intent === "delete" && id) {
    try {
      if (!(await deleteCategory(id))) throw new Error("not found");
      return redirectWithToast("/admin/categories", {
        type: "success",
        title: "Catégorie supprimée",
      });
    } catch (error) {
      log.error("admin_category_delete_failed", { error });
      return redirectWithToast("/admin/categories", {
        type: "error",
        title: "Erreur",
        description: "Impossible de supprimer la catégorie",
      });
    }
  }

  const parsed = parseForm(formData, categorySchema, { omit: ["intent", "id"] });
  const { values } = parsed;
  if (!parsed.ok) return invalidForm(values, parsed.errors);
  try {
    if (id === null) {
      await createCategory(parsed.data);
      return redirectWithToast("/admin/categories", { type: "success", title: "Catégorie créée" });
    }
    if (!(await updateCategory(id, parsed.data))) throw new Error("not found");
    return redirectWithToast("/admin/categories", {
      type: "success",
      title: "Catégorie mise à jour",
    });
  } catch (error) {
    if (error instanceof SlugTakenError) {
      return invalidForm(values, { slug: "Ce slug est déjà utilisé par une autre catégorie" });
    }
    log.error("admin_category_save_failed", { error });
    return failedForm(values, {
      type: "error",
      title: "Erreur",
      description: "Impossible de sauvegarder la catégorie",
    });
  }
}
