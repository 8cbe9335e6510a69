import type { Route } from "./+types/studio";
import { sessionOffer } from "~/lib/booking/offer";
import { durationLabelFr } from "~/lib/booking/words";
import {
  bookingStudioAt,
  offeredSessionTypes,
  privateTokenOf,
  withPreviewedType,
} from "~/server/booking/visitor.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const studio = bookingStudioAt(content, params.studio);
  const privateToken = privateTokenOf(new URL(request.url).searchParams.get("lien"));
  const offered = await offeredSessionTypes(studio.id, privateToken);
  const { types, previewedId } = withPreviewedType(offered, content, studio.id);
  return {
    studio: { slug: studio.slug, name: studio.data.name, phone: studio.data.phone },
    privateToken,
    types: types.map((type) => ({
      slug: type.slug,
      name: type.name,
      description: type.description,
      photo: type.photoId ? content.photo(type.photoId) : null,
      duration: durationLabelFr(type.durationMinutes),
      // The price card's when the type is its offer (decision 0127).
      priceText: sessionOffer(content.documents.prices, type).price,
      request: type.mode === "request",
      private: type.visibility === "private",
      previewed: type.id === previewedId,
      // One not created yet has no page of free days to open.
      linked: type.id !== "apercu",
    })),
  };
}
