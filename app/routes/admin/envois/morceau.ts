import type { Route } from "./+types/morceau";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  drainBody,
  receiveChunk,
  refusalResponse,
  requestStream,
  uploadProgress,
  UploadRefusal,
} from "~/server/uploads/resumable.server";

/*
 * One upload of a client gallery's photo (decision 0101), addressed with its gallery (`?galerie=`): an
 * upload id of another gallery is unknown here.
 * - GET: `{ received, size, photoId }`, asked before every retry.
 * - POST `?offset=N`, body `application/octet-stream`: the next piece; 200 `{ received }`, 201
 *   `{ photoId, received }` for the last one, 409 `{ received }` when N is not where the upload stands.
 */

const noStore = { "Cache-Control": "no-store" };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const galleryId = new URL(request.url).searchParams.get("galerie") ?? "";
  try {
    return Response.json(await uploadProgress(params.uploadId, galleryId), { headers: noStore });
  } catch (error) {
    return refusalResponse(error);
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request, { resource: true });
  const url = new URL(request.url);
  const body = requestStream(request);
  try {
    const type = (request.headers.get("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
    // Not a type a page of another site can send without asking first (CORS): a form cannot post here.
    if (type !== "application/octet-stream")
      throw new UploadRefusal(415, {
        error: "Morceau de photo attendu (application/octet-stream).",
      });
    const offsetText = url.searchParams.get("offset") ?? "";
    const lengthText = request.headers.get("Content-Length") ?? "";
    if (!/^\d{1,15}$/.test(offsetText) || !/^\d{1,15}$/.test(lengthText))
      throw new UploadRefusal(400, { error: "Morceau de photo sans position ni taille." });
    const answer = await receiveChunk({
      uploadId: params.uploadId,
      galleryId: url.searchParams.get("galerie") ?? "",
      offset: Number(offsetText),
      length: Number(lengthText),
      body,
    });
    const { status, ...json } = answer;
    return Response.json(json, { status, headers: noStore });
  } catch (error) {
    if (!body.readableEnded) await drainBody(body);
    return refusalResponse(error);
  }
}
