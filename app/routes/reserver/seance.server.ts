import type { Route } from "./+types/seance";
import { parseMonth } from "~/lib/booking/month";
import { sessionOffer } from "~/lib/booking/offer";
import {
  acceptedDepositMethods,
  askedDepositOf,
  depositUnpayable,
  depositUnpayableMessage,
} from "~/lib/booking/deposit";
import { durationLabelFr } from "~/lib/booking/words";
import { parseIsoDay } from "~/lib/dates";
import {
  bookingStudioAt,
  freeDaysOfMonth,
  freeTimesOf,
  offeredSessionType,
  privateTokenOf,
} from "~/server/booking/visitor.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const studio = bookingStudioAt(content, params.studio);
  const search = new URL(request.url).searchParams;
  const privateToken = privateTokenOf(search.get("lien"));
  const type = await offeredSessionType(studio.id, params.seance, privateToken);
  // An impossible day in the address (2026-12-32, 0000-00-00) is no day chosen (decision 0122).
  const day = parseIsoDay(search.get("jour"));
  // An address of the former pages of seven days (`?du=`) opens that day's month.
  const from = parseIsoDay(search.get("du"));
  const month = parseMonth(search.get("mois")) ?? (from && !day ? from.slice(0, 7) : null);
  const query = { studioId: studio.id, sessionTypeId: type.id, privateToken };
  const offer = sessionOffer(content.documents.prices, type);
  // Its deposit payable no way the owner takes now (decision 0186): said here, before a time is chosen.
  const rule = askedDepositOf(type.deposit);
  const unpayable =
    rule && depositUnpayable(rule, acceptedDepositMethods(content.documents.payments))
      ? depositUnpayableMessage(rule)
      : null;
  const [calendar, times] = await Promise.all([
    freeDaysOfMonth({ ...query, month, day }),
    day ? freeTimesOf({ ...query, day }) : Promise.resolve([]),
  ]);
  return {
    studio: { slug: studio.slug, name: studio.data.name, phone: studio.data.phone },
    type: {
      slug: type.slug,
      name: type.name,
      duration: durationLabelFr(type.durationMinutes),
      // The price card's when the type is its offer (decision 0127).
      priceText: offer.price,
      included: offer.included,
      unpayable,
    },
    privateToken,
    day,
    calendar,
    times: times.map((slot) => ({ key: slot.key, time: slot.time })),
  };
}

export const headers = () => ({ "Cache-Control": "no-store" });
