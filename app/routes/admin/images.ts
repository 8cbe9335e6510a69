import type { Route } from "./+types/images";
import { requireAdmin } from "~/server/admin/guard.server";
import { ImageRejectedError, MAX_UPLOAD_BYTES, storeBlogImage } from "~/server/admin/images.server";
import { log } from "~/server/logger.server";

const refused = (reason: string, status: number) =>
  Response.json({ error: "Impossible d'uploader l'image", reason }, { status });

/**
 * Upload of one blog image (resource route, field `file`): answers `{ url }`, or 4xx with
 * 'Impossible d'uploader l'image' and the reason.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request, { resource: true });
  // Refused before reading the body when the browser announces too much (multipart adds a little).
  const announced = Number(request.headers.get("Content-Length") ?? 0);
  if (announced > MAX_UPLOAD_BYTES + 64 * 1024) {
    return refused("L'image dépasse la taille maximale de 15 Mo.", 413);
  }
  let file: FormDataEntryValue | null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return refused("Le fichier n'a pas pu être lu.", 400);
  }
  if (!(file instanceof File)) return refused("Aucun fichier reçu.", 400);
  if (file.size > MAX_UPLOAD_BYTES)
    return refused("L'image dépasse la taille maximale de 15 Mo.", 413);
  try {
    const url = await storeBlogImage({
      name: file.name,
      bytes: Buffer.from(await file.arrayBuffer()),
    });
    return Response.json({ url }, { status: 201 });
  } catch (error) {
    if (error instanceof ImageRejectedError) return refused(error.message, 415);
    log.error("admin_image_upload_failed", { error });
    return refused("Erreur du serveur pendant l'enregistrement.", 500);
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
