import { data } from "react-router";
import type { Route } from "./+types/coordonnees";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary } from "~/components/booking/booking-error";
import { BookingDetailsForm } from "~/components/booking/booking-details-form";
import { BookingPage, NO_INDEX, Notice, TimeChoices } from "~/components/booking/booking-layout";
import { bookingQuestionsSchema } from "~/lib/booking/session-types";
import { instantOfSlotKey, SLOT_REFUSAL_MESSAGES } from "~/lib/booking/slots";
import {
  BOOKING_HOME_PATH,
  bookingDaysPath,
  bookingDetailsPath,
  bookingStudioPath,
} from "~/lib/booking/urls";
import { durationLabelFr, slotLabelFr } from "~/lib/booking/words";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { submitBookingForm } from "~/server/booking/visitor-form.server";
import {
  bookingStudioAt,
  freeTimesOf,
  nextFreeTimes,
  offeredSessionType,
  privateTokenOf,
} from "~/server/booking/visitor.server";
import { siteContent } from "~/server/content/site-content.server";
import { sessionOffer } from "~/lib/booking/offer";
import { IncludedList } from "~/components/booking/included-list";
import { clientAddressContext } from "~/server/context";

/**
 * /reserver/{studio}/{séance}/coordonnees?creneau=…: the chosen time, the client's details, the owner's
 * questions and the consent to the terms; posted here (without JavaScript), answered with a 303 to the
 * client's page, or a 4xx with everything typed and a French message.
 */

export const handle: SiteHandle = { solidHeader: true };

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
  return { studio, type, slot, privateToken, offer };
}

/** The time posted: an alternative's button (after a slot was taken) names its own, else the address's. */
const postedSlot = (formData: FormData, fallback: string) => {
  const chosen = formData.get("creneau");
  return typeof chosen === "string" && chosen !== "" ? chosen.slice(0, 40) : fallback;
};

type Resolved = Awaited<ReturnType<typeof resolve>>;

/** What every answer of the page holds: the studio, the type, the time and its questions. */
function pageData({ studio, type, slot, privateToken, offer }: Resolved) {
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
      request: type.mode === "request",
      responseDeadlineHours: type.responseDeadlineHours,
      cancellationCutoffHours: type.cancellationCutoffHours,
    },
    questions: questions.success ? questions.data : [],
    slot,
    privateToken,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const resolved = await resolve(request, params, context);
  const { studio, type, slot, privateToken } = resolved;
  const base = pageData(resolved);
  const parsed = instantOfSlotKey(slot);
  const query = { studioId: studio.id, sessionTypeId: type.id, privateToken };
  if (typeof parsed === "string") {
    // A time that is no time (a forged address): 400, with the next free times.
    return data(
      {
        ...base,
        unavailable: SLOT_REFUSAL_MESSAGES[parsed],
        alternatives: await nextFreeTimes(query, new Date().toISOString().slice(0, 10)),
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
  });
  if (answer instanceof Response) return answer;
  return data(answer.answer, { status: answer.status });
}

export const headers = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const site = siteFrom(matches);
  return seo({
    title: `Vos coordonnées : ${loaderData.type.name} | ${site.brand}`,
    description: `Réserver « ${loaderData.type.name} » au ${loaderData.studio.name}.`,
    path: bookingDaysPath(loaderData.studio.slug, loaderData.type.slug),
    matches,
    extra: [NO_INDEX],
  });
};

export default function ReserverCoordonneesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { studio, type, privateToken, questions, unavailable } = loaderData;
  const lien = privateToken;
  // After a refused post, the time the visitor last tried (an alternative's button may have named it).
  const slot = actionData?.values.creneau || loaderData.slot;
  const alternatives = actionData ? actionData.alternatives : loaderData.alternatives;
  const timeLabel = instantOfSlotKey(slot);
  const when = typeof timeLabel === "string" ? null : slotLabelFr(slot, true);
  return (
    <BookingPage
      trail={[
        { label: "Réserver une séance", to: BOOKING_HOME_PATH },
        { label: studio.name, to: bookingStudioPath(studio.slug, lien) },
        { label: type.name, to: bookingDaysPath(studio.slug, type.slug, { lien }) },
        // The current step is named as the page is (decision 0125).
        { label: type.request ? "Demander ce créneau" : "Réserver ce créneau" },
      ]}
      title={type.request ? "Demander ce créneau" : "Réserver ce créneau"}
      intro={
        when ? (
          <>
            <p>
              <strong className="text-foreground first-letter:uppercase">{when}</strong> ·{" "}
              {type.name} ({type.duration}) au {studio.name}, {studio.address.street},{" "}
              {studio.address.postalCode} {studio.address.city}
              {type.priceText ? ` · ${type.priceText}` : ""}
            </p>
            <IncludedList lines={type.included} className="mt-4 text-foreground" />
          </>
        ) : null
      }
    >
      {unavailable && !actionData ? (
        <>
          <Notice tone="error" title={unavailable}>
            <p>
              {alternatives.length > 0
                ? "Voici les prochains horaires libres."
                : `Choisissez un autre jour, ou appelez le studio au ${studio.phone}.`}
            </p>
          </Notice>
          {alternatives.length > 0 ? (
            <section aria-labelledby="autres-horaires">
              <h2 id="autres-horaires" className="text-xl font-semibold">
                Prochains horaires libres
              </h2>
              <div className="mt-3">
                <TimeChoices
                  slots={alternatives}
                  hrefOf={(key) => bookingDetailsPath(studio.slug, type.slug, key, lien)}
                />
              </div>
            </section>
          ) : null}
        </>
      ) : (
        <BookingDetailsForm
          action={bookingDetailsPath(studio.slug, type.slug, loaderData.slot, lien)}
          questions={questions}
          values={actionData?.values ?? {}}
          errors={actionData?.errors ?? {}}
          message={actionData?.message ?? null}
          request={type.request}
          depositText={type.depositText}
          cutoffHours={type.cancellationCutoffHours}
          responseDeadlineHours={type.responseDeadlineHours}
          alternatives={alternatives}
          phone={studio.phone}
        />
      )}
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
