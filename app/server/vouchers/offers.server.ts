import type { SitePhoto } from "~/lib/media";
import { publicSessionTypes } from "../content/price-offers.server";
import type { SiteContent } from "../content/site-content.server";

/*
 * The sessions sold as gift vouchers on /bons-cadeaux (decision 0166): each gift session with a fixed price
 * whose linked session type is still offered (public, not archived) in at least one studio. The same list
 * decides where /seances-a-offrir's cards lead, so that a session is sold on the site or not at all.
 */

export type VoucherSessionOffer = {
  sessionTypeId: string;
  title: string;
  euros: number;
  description: string;
  photo: SitePhoto;
  studios: { slug: string; name: string }[];
};

/** The sessions on sale as vouchers now; none while vouchers are not on sale. */
export async function voucherSessionOffers(content: SiteContent): Promise<VoucherSessionOffer[]> {
  if (!content.documents.payments.vouchersOnSale) return [];
  const linked = content.documents.giftSessions.sessions.filter(
    (session) => session.sessionType !== "" && session.price.kind === "fixed",
  );
  if (linked.length === 0) return [];
  const types = new Map((await publicSessionTypes()).map((type) => [type.id, type]));
  const offers: VoucherSessionOffer[] = [];
  for (const session of linked) {
    const type = types.get(session.sessionType);
    if (!type || session.price.kind !== "fixed") continue;
    const studios = content.studios
      .filter((studio) => type.studioIds.includes(studio.id))
      .map((studio) => ({ slug: studio.slug, name: studio.data.name }));
    // A session no studio offers could not be used: not sold.
    if (studios.length === 0) continue;
    // One gift session per type: the first the owner listed names it.
    if (offers.some((offer) => offer.sessionTypeId === type.id)) continue;
    offers.push({
      sessionTypeId: type.id,
      title: session.title,
      euros: session.price.euros,
      description: session.description,
      photo: content.photo(session.photo),
      studios,
    });
  }
  return offers;
}
