import type { Route } from "./+types/gendarmerie";
import { photoOptions } from "~/components/admin/document-form";
import type { Documents } from "~/content/schemas";
import { documentValues, gendarmerieForm } from "~/lib/document-forms";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { listStudios, loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";
import { listLibrary } from "~/server/content/media-store.server";

const PAGE = "/admin/tarifs/gendarmerie";

async function activeStudios() {
  return (await listStudios())
    .filter((studio) => !studio.retiredAt)
    .map((studio) => ({ value: studio.slug, label: studio.data.name }));
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [offer, history, studios, library] = await Promise.all([
    loadDocument("gendarmerie"),
    documentHistory("gendarmerie", request),
    activeStudios(),
    listLibrary(),
  ]);
  return {
    values: documentValues("gendarmerie", offer),
    history,
    studios,
    photos: photoOptions(library),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return documentFormAction(await request.formData(), admin, {
    key: "gendarmerie",
    schema: gendarmerieForm,
    build: (parsed: z.output<typeof gendarmerieForm>): Documents["gendarmerie"] => parsed,
    load: () => loadDocument("gendarmerie"),
    check: async (offer) =>
      (await activeStudios()).some((studio) => studio.value === offer.studioSlug)
        ? {}
        : { studioSlug: "Choisissez un studio de la liste" },
    previewPaths: ["/gendarmerie"],
    page: PAGE,
    savedTitle: "Offre gendarmerie enregistrée",
  });
}
