import type { Route } from "./+types/seances-a-offrir";
import { photoOptions } from "~/components/admin/document-form";
import type { Documents } from "~/content/schemas";
import { documentValues, giftSessionsForm } from "~/lib/document-forms";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";
import { listLibrary } from "~/server/content/media-store.server";

const PAGE = "/admin/tarifs/seances-a-offrir";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [gifts, history, library] = await Promise.all([
    loadDocument("giftSessions"),
    documentHistory("giftSessions", request),
    listLibrary(),
  ]);
  return {
    values: documentValues("giftSessions", gifts),
    history,
    photos: photoOptions(library),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return documentFormAction(await request.formData(), admin, {
    key: "giftSessions",
    schema: giftSessionsForm,
    build: (parsed: z.output<typeof giftSessionsForm>): Documents["giftSessions"] => parsed,
    load: () => loadDocument("giftSessions"),
    previewPaths: ["/seances-a-offrir"],
    page: PAGE,
    savedTitle: "Séances à offrir enregistrées",
  });
}
