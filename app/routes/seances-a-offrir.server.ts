import type { Route } from "./+types/seances-a-offrir";
import { shownAddress } from "~/lib/external-links";
import { slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";
import { voucherOfferPath } from "~/lib/vouchers/order-page";
import { voucherSessionOffers } from "~/server/vouchers/offers.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  // A session sold as a voucher on the site is ordered there, not on the external shop (decision 0168).
  const sold = new Set((await voucherSessionOffers(content)).map((offer) => offer.sessionTypeId));
  return {
    vouchersOnSale: content.documents.payments.vouchersOnSale,
    hero: slotPhoto(content, "seances-a-offrir.hero"),
    sessions: content.documents.giftSessions.sessions.map((session) => ({
      ...session,
      // A link the owner has not set yet is not shown (decision 0126).
      link: sold.has(session.sessionType)
        ? voucherOfferPath(session.sessionType)
        : shownAddress(session.link),
      soldHere: sold.has(session.sessionType),
      photo: content.photo(session.photo),
    })),
  };
}
