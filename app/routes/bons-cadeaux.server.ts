import { randomUUID } from "node:crypto";
import { data, redirect } from "react-router";
import type { Route } from "./+types/bons-cadeaux";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { isoDayInParis } from "~/lib/dates";
import { withoutControlCharacters } from "~/lib/forms";
import { PAYMENT_METHODS, PAYMENT_METHOD_LABELS } from "~/lib/payments/model";
import {
  ANY_STUDIO,
  readVoucherOrder,
  VOUCHER_ORDER_FIELDS,
  type VoucherOrderField,
} from "~/lib/vouchers/order-form";
import { ORDER_KEY_FIELD, orderPagePath, paymentMethodLine } from "~/lib/vouchers/order-page";
import { parseVoucherCode } from "~/lib/vouchers/code";
import { voucherTerms, VOUCHER_TEXT_LIMITS } from "~/lib/vouchers/terms";
import { now } from "~/server/clock.server";
import { siteContent, type SiteContent } from "~/server/content/site-content.server";
import { clientAddressContext } from "~/server/context";
import { log } from "~/server/logger.server";
import { PaymentRefusedError } from "~/server/payments/refusals.server";
import { unprintableFields } from "~/server/pdf/printable.server";
import { VOUCHER_CODE_RATE_LIMIT } from "~/server/booking/visitor-form.server";
import { consumeRateLimit, giveBackRateLimit, rateLimitReached } from "~/server/rate-limit.server";
import { VOUCHER_CONTACT_PATH, voucherLinkTarget } from "~/server/vouchers/link.server";
import { createVoucherOrder } from "~/server/vouchers/orders.server";
import { voucherSessionOffers } from "~/server/vouchers/offers.server";
import { VoucherRefusedError } from "~/server/vouchers/refusals.server";

/*
 * /bons-cadeaux (decision 0166): the gift voucher's order form, posted without JavaScript. A refusal
 * answers a 4xx with a French message at each field and everything typed; an order answers a 303 to the
 * card provider's page, or to the order's page /commande/{jeton} (transfer, at the studio, or a card
 * checkout the provider could not open: the page offers to try again).
 */

/** Orders placed per visitor address and hour: only orders count, never refusals. */
export const VOUCHER_ORDER_RATE_LIMIT = { limit: 20, windowSeconds: 3600 };

async function offering(context: Route.LoaderArgs["context"]) {
  const content = await siteContent(context);
  const settings = content.documents.payments;
  if (!settings.vouchersOnSale) throw data(null, NOT_FOUND_INIT);
  const sessions = await voucherSessionOffers(content);
  const methods = PAYMENT_METHODS.filter((method) => settings[method]);
  return { content, settings, sessions, methods };
}

type Offering = Awaited<ReturnType<typeof offering>>;

function pageData({ content, settings, sessions, methods }: Offering) {
  return {
    sessions,
    studios: studiosOf(content, sessions),
    amounts: {
      presets: settings.amountPresets,
      min: settings.amountMin,
      max: settings.amountMax,
    },
    methods: methods.map((method) => ({
      method,
      label: PAYMENT_METHOD_LABELS[method],
      line: paymentMethodLine(method, settings.transferDays),
    })),
    terms: {
      session:
        sessions.length > 0
          ? voucherTerms({ kind: "session", validityMonths: settings.voucherValidityMonths })
          : [],
      amount: voucherTerms({ kind: "amount", validityMonths: settings.voucherValidityMonths }),
    },
    limits: VOUCHER_TEXT_LIMITS,
    today: isoDayInParis(now()),
  };
}

/** The studios offering at least one of the sessions on sale, in the site's order. */
function studiosOf(content: SiteContent, sessions: Offering["sessions"]) {
  const slugs = new Set(
    sessions.flatMap((session) => session.studios.map((studio) => studio.slug)),
  );
  return content.studios
    .filter((studio) => slugs.has(studio.slug))
    .map((studio) => ({ slug: studio.slug, name: studio.data.name }));
}

/**
 * The QR code of a voucher's PDF (`?code=…`): led where the voucher is used, whether vouchers are on sale
 * or not (decision 0197). Each well-formed code is counted before it is looked up and given back when it
 * is a voucher in use, as on the booking form: past the limit, the contacts without a look-up.
 */
async function voucherLink(typed: string, context: Route.LoaderArgs["context"]) {
  const key = `voucher-link:${context.get(clientAddressContext)}`;
  const counted = parseVoucherCode(typed).ok;
  if (counted && !(await consumeRateLimit(key, VOUCHER_CODE_RATE_LIMIT)).allowed) {
    await giveBackRateLimit(key);
    return redirect(VOUCHER_CONTACT_PATH, 303);
  }
  const target = await voucherLinkTarget(typed.slice(0, 100), await siteContent(context));
  if (counted && target.usable) await giveBackRateLimit(key);
  return redirect(target.path, 303);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const code = search.get("code");
  if (code !== null) return voucherLink(code, context);
  const offered = await offering(context);
  const chosen = search.get("offre") ?? "";
  const preselected = offered.sessions.some((session) => session.sessionTypeId === chosen)
    ? chosen
    : "";
  return {
    ...pageData(offered),
    // Drawn with the page: a second submit of this form finds the order the first one made.
    values: {
      offre: preselected,
      studio: ANY_STUDIO,
      envoi: "maintenant",
      destinataire: "acheteur",
      ...(offered.methods.length === 1 ? { paiement: offered.methods[0] ?? "" } : {}),
    } as Record<string, string>,
    orderKey: randomUUID(),
    errors: {} as Partial<Record<VoucherOrderField, string>>,
    message: null as string | null,
  };
}

function postedValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of [...VOUCHER_ORDER_FIELDS, ORDER_KEY_FIELD]) {
    const value = formData.get(name);
    if (typeof value === "string") values[name] = withoutControlCharacters(value).slice(0, 2000);
  }
  return values;
}

export async function action({ request, context }: Route.ActionArgs) {
  const offered = await offering(context);
  const formData = await request.formData();
  const values = postedValues(formData);
  const clientAddress = context.get(clientAddressContext);
  const orderKey = /^[A-Za-z0-9-]{8,100}$/.test(values[ORDER_KEY_FIELD] ?? "")
    ? (values[ORDER_KEY_FIELD] ?? "")
    : randomUUID();
  const refuse = (
    status: number,
    message: string,
    errors: Partial<Record<VoucherOrderField, string>> = {},
    // A key that made another order is not drawn again: the form's next submit is a new order.
    key = orderKey,
  ) => data({ ...pageData(offered), values, orderKey: key, errors, message }, { status });

  const trap = formData.get(HONEYPOT_FIELD);
  if (typeof trap === "string" && trap !== "") {
    log.warn("voucher_order_honeypot", { clientAddress });
    return refuse(
      400,
      "Votre commande n'a pas pu être enregistrée. Appelez le studio pour commander.",
    );
  }
  const addressKey = `voucher-order:${clientAddress}`;
  if (await rateLimitReached(addressKey, VOUCHER_ORDER_RATE_LIMIT)) {
    log.warn("voucher_order_rate_limited", { clientAddress });
    return refuse(429, "Trop de commandes depuis cette connexion : réessayez dans une heure.");
  }

  const reading = readVoucherOrder(values, {
    sessions: offered.sessions.map((session) => ({
      sessionTypeId: session.sessionTypeId,
      euros: session.euros,
      studioSlugs: session.studios.map((studio) => studio.slug),
    })),
    presets: offered.settings.amountPresets,
    minEuros: offered.settings.amountMin,
    maxEuros: offered.settings.amountMax,
    methods: offered.methods,
    today: isoDayInParis(now()),
  });
  // What the voucher prints; the buyer's name is also her invoice's, drawn with the same fonts.
  const fontErrors = await unprintableFields(
    {
      acheteurNom: values.acheteurNom,
      beneficiaire: values.beneficiaire,
      message: values.message,
    },
    "le bon",
  );
  if (!reading.ok || Object.keys(fontErrors).length > 0) {
    return refuse(400, "Votre commande n'est pas complète.", {
      ...fontErrors,
      ...(reading.ok ? {} : reading.errors),
    });
  }
  const { order } = reading;
  const session =
    order.offer.kind === "session"
      ? offered.sessions.find((each) => each.sessionTypeId === values.offre)
      : undefined;
  const studioSlug = order.offer.kind === "session" ? order.offer.studioSlug : null;
  const studioId = studioSlug
    ? (offered.content.studios.find((studio) => studio.slug === studioSlug)?.id ?? null)
    : null;

  let checkout;
  try {
    checkout = await createVoucherOrder(order, {
      idempotencyKey: orderKey,
      termsAcceptedAt: now(),
      settings: offered.settings,
      sessionLabel: session?.title,
      studioId,
    });
  } catch (error) {
    if (error instanceof VoucherRefusedError || error instanceof PaymentRefusedError) {
      const field = error instanceof VoucherRefusedError && error.code === "method_not_offered";
      const key = error instanceof PaymentRefusedError && error.code === "key_reused";
      return refuse(
        error.status,
        error.message,
        field ? { paiement: error.message } : {},
        key ? randomUUID() : orderKey,
      );
    }
    throw error;
  }
  if (checkout.created) await consumeRateLimit(addressKey, VOUCHER_ORDER_RATE_LIMIT);
  if (order.method === "card" && checkout.redirectUrl) {
    return redirect(checkout.redirectUrl, 303);
  }
  return redirect(orderPagePath(checkout.token), 303);
}

export const headers = () => ({ "Cache-Control": "no-store" });
