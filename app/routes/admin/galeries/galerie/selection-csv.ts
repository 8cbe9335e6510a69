import type { Route } from "./+types/selection-csv";
import { formatDateTimeFr, isoDayInParis } from "~/lib/dates";
import { csvCell } from "~/lib/csv";
import { requireAdmin } from "~/server/admin/guard.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { findGallery, gallerySelection } from "~/server/galleries/galleries.server";

/**
 * The client's selection of a gallery as a spreadsheet: file name, comment, when chosen. Refused: a French
 * page (decision 0202).
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  await requireAdmin(request, { resource: true });
  const found = await findGallery(params.id);
  if (!found || found.gallery.deletingAt) throw refuse(404);
  const photos = await gallerySelection(found.gallery.id);
  const lines = [
    ["Fichier", "Commentaire", "Choisie le"].map(csvCell).join(";"),
    ...photos.map((photo) =>
      [
        photo.originalName,
        photo.comment ?? "",
        photo.favouritedAt ? formatDateTimeFr(photo.favouritedAt) : "",
      ]
        .map(csvCell)
        .join(";"),
    ),
  ];
  // A BOM so that Excel reads UTF-8; semicolons as French spreadsheets expect.
  return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="selection-${isoDayInParis(new Date())}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
