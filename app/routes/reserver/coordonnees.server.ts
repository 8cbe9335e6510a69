import { randomUUID } from "node:crypto";
import {
  acceptedDepositMethods,
  askedDepositOf,
  depositSummary,
  depositUnpayable,
  depositUnpayableMessage,
} from "~/lib/booking/deposit";
import { data } from "react-router";
import type { Route } from "./+types/coordonnees";
import { bookingQuestionsSchema } from "~/lib/booking/session-types";
import { instantOfSlotKey, SLOT_REFUSAL_MESSAGES } from "~/lib/booking/slots";
import { durationLabelFr } from "~/lib/booking/words";
import { submitBookingForm } from "~/server/booking/visitor-form.server";
import { vouchersRedeemable } from "~/server/booking/vouchers.server";
import {
  bookingStudioAt,
  freeTimesOf,
  nextFreeTimes,
  offeredSessionType,
  privateTokenOf,
} from "~/server/booking/visitor.server";
import { siteContent } from "~/server/content/site-content.server";
import { sessionOffer } from "~/lib/booking/offer";
import { clientAddressContext } from "~/server/context";
import type { PaymentMethod } from "~/lib/payments/model";

/**
 * The deposit the page announces (decision 0186), with the ways of paying it the owner takes now; null
 * without one. None of them taken (her settings turned them off since): `unpayable`, what the page says in
 * place of the form.
 */
const depositOf = (type: { deposit: unknown }, acceptedMethods: readonly PaymentMethod[]) => {
  const rule = askedDepositOf(type.deposit);
  if (!rule) return null;
  const methods = rule.methods.filter((method) => acceptedMethods.includes(method));
  return {
    ...depositSummary({ ...rule, methods }),
    unpayable: depositUnpayable(rule, acceptedMethods) ? depositUnpayableMessage(rule) : null,
  };
};

async function resolve(
  request: Request,
  params: Route.LoaderArgs["params"],
  context: Route.LoaderArgs["context"],
) {
  const content = await siteContent(context);
  const studio = bookingStudioAt(content, params.studio);
  const search = new URL(request.url).searchParams;
  const privateToken = privateTokenOf(search.get("lien"));
  const type = await offeredSessionType(studio.id, params.seance, privateToken);
  const slot = search.get("creneau") ?? "";
  // The price card's price when the type is its offer (decision 0127).
  const offer = sessionOffer(content.documents.prices, type);
  // A deposit asked of the client can be paid by an amount voucher (decision 0199).
  const vouchers = await vouchersRedeemable(
    type.id,
    studio.id,
    askedDepositOf(type.deposit) !== null,
  );
  const acceptedMethods = acceptedDepositMethods(content.documents.payments);
  return { studio, type, slot, privateToken, offer, vouchers, acceptedMethods };
}

/** The time posted: an alternative's button (after a slot was taken) names its own, else the address's. */
const postedSlot = (formData: FormData, fallback: string) => {
  const chosen = formData.get("creneau");
  return typeof chosen === "string" && chosen !== "" ? chosen.slice(0, 40) : fallback;
};

type Resolved = Awaited<ReturnType<typeof resolve>>;

/** What every answer of the page holds: the studio, the type, the time and its questions. */
function pageData({
  studio,
  type,
  slot,
  privateToken,
  offer,
  vouchers,
  acceptedMethods,
}: Resolved) {
  const questions = bookingQuestionsSchema.safeParse(type.questions);
  return {
    studio: {
      slug: studio.slug,
      name: studio.data.name,
      phone: studio.data.phone,
      address: studio.data.address,
    },
    type: {
      slug: type.slug,
      name: type.name,
      duration: durationLabelFr(type.durationMinutes),
      priceText: offer.price,
      included: offer.included,
      depositText: type.depositText,
      deposit: depositOf(type, acceptedMethods),
      request: type.mode === "request",
      responseDeadlineHours: type.responseDeadlineHours,
      cancellationCutoffHours: type.cancellationCutoffHours,
    },
    questions: questions.success ? questions.data : [],
    slot,
    privateToken,
    /** Whether the gift voucher's code field is offered (decision 0170). */
    vouchers,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const resolved = await resolve(request, params, context);
  const { studio, type, slot, privateToken } = resolved;
  // The form's key, drawn with the page: a second post of this form leads where its first did.
  const base = { ...pageData(resolved), formKey: randomUUID() };
  const parsed = instantOfSlotKey(slot);
  const query = { studioId: studio.id, sessionTypeId: type.id, privateToken };
  if (typeof parsed === "string") {
    // A time that is no time (a forged address): 400, with the next free times.
    return data(
      {
        ...base,
        unavailable: SLOT_REFUSAL_MESSAGES[parsed],
        alternatives: await nextFreeTimes(query, null),
      },
      { status: 400 },
    );
  }
  const free = await freeTimesOf({ ...query, day: parsed.day });
  if (!free.some((candidate) => candidate.key === slot)) {
    return data(
      {
        ...base,
        unavailable: "Ce créneau n'est plus disponible.",
        alternatives: await nextFreeTimes(query, parsed.day),
      },
      { status: 409 },
    );
  }
  return { ...base, unavailable: null, alternatives: [] };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const resolved = await resolve(request, params, context);
  const formData = await request.formData();
  const answer = await submitBookingForm({
    formData,
    studio: resolved.studio,
    type: resolved.type,
    slot: postedSlot(formData, resolved.slot),
    privateToken: resolved.privateToken,
    clientAddress: context.get(clientAddressContext),
    acceptedMethods: resolved.acceptedMethods,
  });
  if (answer instanceof Response) return answer;
  return data(answer.answer, { status: answer.status });
}

export const headers = () => ({ "Cache-Control": "no-store" });
