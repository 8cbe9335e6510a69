import { data, redirect } from "react-router";
import type { Route } from "./+types/restauration";
import { isUuid } from "~/lib/forms";
import { getAdmin } from "~/server/admin/guard.server";
import { backupRun } from "~/server/backup/service.server";
import { readToast, redirectWithToast } from "~/server/toast.server";
import { runView } from "./index.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await getAdmin(request);
  const run = isUuid(params.id) ? await backupRun(params.id) : null;
  if (!admin) {
    if (run?.kind === "restore" && run.status === "done") {
      throw await redirectWithToast("/admin/login", {
        type: "info",
        title: "La sauvegarde a été restaurée",
        description:
          "Les comptes sont revenus à leur état de ce jour-là : reconnectez-vous (avec le mot de passe que vous aviez alors).",
      });
    }
    throw redirect("/admin/login");
  }
  if (!run || run.kind !== "restore") {
    throw await redirectWithToast("/admin/sauvegardes", {
      type: "error",
      title: "Restauration introuvable",
    });
  }
  const { toast, headers } = await readToast(request);
  headers.set("Cache-Control", "no-store");
  return data({ run: runView(run), toast }, { headers });
}
