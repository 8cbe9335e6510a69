import type { Route } from "./+types/redirections";
import { formValues, parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  deleteRedirect,
  listRedirects,
  readablePath,
  saveRedirect,
} from "~/server/content/redirects.server";
import { sitePageMatcher } from "~/server/content/route-table.server";
import { failedForm, invalidForm, refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const rows = await listRedirects();
  return {
    redirects: rows.map((row) => ({ id: row.id, from: readablePath(row.from), to: row.to })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const creating = formData.get("intent") === "create";
  const target = creating ? null : parseIntent(formData, ["update", "delete"]);
  if (target && !target.ok) return refusedIntent(target.reason, "Redirection inconnue");
  const id = target ? target.id : null;

  if (target?.intent === "delete") {
    const deleted = await deleteRedirect(target.id);
    return redirectWithToast(
      "/admin/redirections",
      deleted
        ? { type: "success", title: "Redirection supprimée" }
        : { type: "error", title: "Cette redirection n'existe plus" },
    );
  }

  const values = formValues(formData, ["intent"]);
  try {
    const result = await saveRedirect(
      id,
      { from: values.from ?? "", to: values.to ?? "" },
      await sitePageMatcher(),
    );
    if (!result.ok) {
      if ("missing" in result) return refusedIntent("id", "Redirection inconnue");
      return invalidForm(values, result.errors);
    }
    return redirectWithToast("/admin/redirections", {
      type: "success",
      title: id === null ? "Redirection ajoutée" : "Redirection modifiée",
    });
  } catch (error) {
    log.error("admin_redirect_save_failed", { error });
    return failedForm(values, {
      type: "error",
      title: "Erreur",
      description: "Impossible d'enregistrer la redirection. Réessayez dans un instant.",
    });
  }
}
