import type { Route } from "./+types/tarifs";
import { cardBookingPaths } from "~/server/content/price-offers.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  // A card whose session can be booked on the site leads to it (decision 0127).
  const paths = await cardBookingPaths(content);
  return {
    tabs: content.documents.prices.tabs.map((tab) => ({
      ...tab,
      cards: tab.cards.map((card) => ({
        ...card,
        bookingPath: paths.get(card.sessionType) ?? null,
      })),
    })),
    booking: paths.size > 0,
    // Gift vouchers on sale: a link to /bons-cadeaux (decision 0168).
    vouchersOnSale: content.documents.payments.vouchersOnSale,
  };
}
