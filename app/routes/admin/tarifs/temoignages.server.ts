import type { Route } from "./+types/temoignages";
import type { Documents } from "~/content/schemas";
import { documentValues, testimonialsForm } from "~/lib/document-forms";
import { TESTIMONIAL_PAGES } from "~/lib/testimonial-pages";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";

const PAGE = "/admin/tarifs/temoignages";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [testimonials, history] = await Promise.all([
    loadDocument("testimonials"),
    documentHistory("testimonials", request),
  ]);
  return { values: documentValues("testimonials", testimonials), history };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return documentFormAction(await request.formData(), admin, {
    key: "testimonials",
    schema: testimonialsForm,
    build: (parsed: z.output<typeof testimonialsForm>): Documents["testimonials"] => parsed,
    load: () => loadDocument("testimonials"),
    previewPaths: TESTIMONIAL_PAGES.map((page) => page.path),
    page: PAGE,
    savedTitle: "Témoignages enregistrés",
  });
}
