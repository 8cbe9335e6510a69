import type { Route } from "./+types/index";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { listStudios, setStudioRetired } from "~/server/content/content-store.server";
import { studioPaths } from "~/server/content/site-content.server";
import { moveStudio } from "~/server/content/studios-admin.server";
import { refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const studios = await listStudios();
  return {
    studios: studios.map((studio) => ({
      id: studio.id,
      name: studio.data.name,
      city: studio.data.city,
      address: `${studio.data.address.street}, ${studio.data.address.postalCode} ${studio.data.address.city}`,
      phone: studio.data.phone,
      retired: studio.retiredAt !== null,
      pagePath: studioPaths(studio.slug).pagePath,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = parseIntent(await request.formData(), ["retire", "reactivate", "up", "down"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Studio inconnu");
  const { intent, id } = parsed;
  if (intent === "up" || intent === "down") {
    const moved = await moveStudio(id, intent);
    return redirectWithToast(
      "/admin/studios",
      moved
        ? { type: "success", title: "Ordre des studios enregistré" }
        : { type: "error", title: "Ce studio ne peut pas aller plus loin" },
    );
  }
  const done = await setStudioRetired(id, intent === "retire");
  if (!done) return refusedIntent("id", "Studio inconnu");
  return redirectWithToast(
    "/admin/studios",
    intent === "retire"
      ? {
          type: "success",
          title: "Studio retiré du site",
          description: "Ses messages restent dans Messages.",
        }
      : { type: "success", title: "Studio remis en ligne" },
  );
}
