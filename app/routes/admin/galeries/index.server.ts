import type { Route } from "./+types/index";
import { requireAdmin } from "~/server/admin/guard.server";
import { pagePosition, searchParam } from "~/server/db/keyset.server";
import {
  GALLERY_LIST_ORDER,
  galleryState,
  listGalleries,
} from "~/server/galleries/galleries.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const search = searchParam(params);
  const page = await listGalleries(search, pagePosition(GALLERY_LIST_ORDER, params));
  return {
    search,
    matching: page.matching,
    previous: page.previous,
    next: page.next,
    galleries: page.rows.map((row) => ({
      id: row.id,
      title: row.title,
      clientName: row.clientName,
      studioName: row.studioName,
      sessionDate: row.sessionDate,
      ready: row.ready,
      total: row.total,
      bytes: row.bytes,
      state: galleryState(row),
    })),
  };
}
