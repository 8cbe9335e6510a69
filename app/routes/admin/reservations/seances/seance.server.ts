import type { Route } from "./+types/seance";
import {
  loadSessionTypeForm,
  sessionTypeFormAction,
} from "~/server/booking/session-types-admin.server";
import { env } from "~/server/env.server";
import { loadDocument } from "~/server/content/content-store.server";
import { cardOfSessionType } from "~/lib/booking/offer";
import { formatPrice } from "~/lib/prices";

export async function loader({ request, params }: Route.LoaderArgs) {
  const [form, prices] = await Promise.all([
    loadSessionTypeForm(request, params.id),
    loadDocument("prices"),
  ]);
  const card = cardOfSessionType(prices, params.id);
  return {
    ...form,
    origin: env().SITE_URL,
    priceCard: card ? { title: card.title, price: formatPrice(card.price) } : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  return sessionTypeFormAction(request, params.id);
}
