import type { Route } from "./+types/seances-a-offrir";
import { photoOptions } from "~/components/admin/document-form";
import type { Documents } from "~/content/schemas";
import { documentValues, giftSessionsForm } from "~/lib/document-forms";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { listSessionTypes } from "~/server/booking/session-type-store.server";
import { loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";
import { listLibrary } from "~/server/content/media-store.server";
import { unprintableFields } from "~/server/pdf/printable.server";

const PAGE = "/admin/tarifs/seances-a-offrir";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [gifts, history, library, types] = await Promise.all([
    loadDocument("giftSessions"),
    documentHistory("giftSessions", request),
    listLibrary(),
    listSessionTypes(),
  ]);
  // A gift session sold as a voucher books a session type (decision 0166).
  const sessionTypes = [
    { value: "", label: "Aucune : pas de vente en ligne" },
    ...types
      .filter((type) => !type.archivedAt)
      .map((type) => ({ value: type.id, label: type.name })),
  ];
  return {
    values: documentValues("giftSessions", gifts),
    history,
    photos: photoOptions(library),
    sessionTypes,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return documentFormAction(await request.formData(), admin, {
    key: "giftSessions",
    schema: giftSessionsForm,
    build: (parsed: z.output<typeof giftSessionsForm>): Documents["giftSessions"] => parsed,
    load: () => loadDocument("giftSessions"),
    // A session names a session type that exists (decision 0166); several may name the same one.
    check: async (gifts) => {
      const known = new Set((await listSessionTypes()).map((type) => type.id));
      const errors: Record<string, string> = {};
      gifts.sessions.forEach((session, index) => {
        if (session.sessionType !== "" && !known.has(session.sessionType)) {
          errors[`sessions.${index}.sessionType`] =
            "Cette séance n'existe plus : choisissez-en une dans la liste";
        }
      });
      // A session sold as a voucher prints its title on the voucher and on its invoice (decision 0164).
      const sold = gifts.sessions.flatMap((session, index) =>
        session.sessionType === "" ? [] : [[`sessions.${index}.title`, session.title] as const],
      );
      return { ...errors, ...(await unprintableFields(Object.fromEntries(sold), "le bon")) };
    },
    previewPaths: ["/seances-a-offrir"],
    page: PAGE,
    savedTitle: "Séances à offrir enregistrées",
  });
}
