import type { Route } from "./+types/index";
import { durationFr } from "~/lib/booking/agenda-format";
import { SESSION_TYPES_PAGE } from "~/lib/booking/session-type-form";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  listSessionTypes,
  setSessionTypeArchived,
} from "~/server/booking/session-type-store.server";
import { listStudios } from "~/server/content/content-store.server";
import { refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [types, studios] = await Promise.all([listSessionTypes(), listStudios()]);
  const studioName = new Map(studios.map((studio) => [studio.id, studio.data.name]));
  return {
    sessionTypes: types.map((type) => ({
      id: type.id,
      name: type.name,
      duration: durationFr(type.durationMinutes),
      priceText: type.priceText,
      studios: type.studioIds.map((id) => studioName.get(id) ?? "").filter(Boolean),
      request: type.mode === "request",
      private: type.visibility === "private",
      archived: type.archivedAt !== null,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = parseIntent(await request.formData(), ["archive", "unarchive"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Séance inconnue");
  const done = await setSessionTypeArchived(parsed.id, parsed.intent === "archive");
  if (!done) return refusedIntent("id", "Séance inconnue");
  return redirectWithToast(
    SESSION_TYPES_PAGE,
    parsed.intent === "archive"
      ? {
          type: "success",
          title: "Séance archivée",
          description: "Elle n'est plus proposée ; ses réservations restent dans l'agenda.",
        }
      : { type: "success", title: "Séance de nouveau proposée" },
  );
}
