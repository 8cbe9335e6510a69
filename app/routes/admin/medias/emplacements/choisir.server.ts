import { data } from "react-router";
import type { Route } from "./+types/choisir";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { ContentError } from "~/server/content/content-store.server";
import { assignSlot, listLibrary, listSlots } from "~/server/content/media-store.server";
import { redirectWithToast } from "~/server/toast.server";

async function slotOf(request: Request) {
  const key = new URL(request.url).searchParams.get("emplacement") ?? "";
  const slot = (await listSlots()).find((candidate) => candidate.key === key);
  if (!slot) throw new Response("Emplacement introuvable", { status: 404 });
  return slot;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [slot, library] = await Promise.all([slotOf(request), listLibrary()]);
  return {
    slot,
    photos: library.map(({ id, alt, colour, picture, demo }) => ({
      id,
      alt,
      colour,
      picture,
      demo,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const slot = await slotOf(request);
  const photo = (await request.formData()).get("photo");
  if (!isUuid(photo)) {
    return data({ error: "Choisissez une photo dans la liste." }, { status: 400 });
  }
  try {
    await assignSlot(slot.key, photo, { id: admin.id, name: admin.name || admin.email });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return data({ error: error.message }, { status: 409 });
  }
  return redirectWithToast("/admin/medias/emplacements", {
    type: "success",
    title: "Photo remplacée",
    description: slot.label,
  });
}
