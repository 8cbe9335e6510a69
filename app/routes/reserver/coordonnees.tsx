import type { Route } from "./+types/coordonnees";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary, bookingErrorMeta } from "~/components/booking/booking-error";
import { BookingDetailsForm } from "~/components/booking/booking-details-form";
import { BookingPage, NextFreeTimes, NO_INDEX, Notice } from "~/components/booking/booking-layout";
import { instantOfSlotKey } from "~/lib/booking/slots";
import { FORM_KEY_FIELD } from "~/lib/forms";
import {
  BOOKING_HOME_PATH,
  bookingDaysPath,
  bookingDetailsPath,
  bookingStudioPath,
} from "~/lib/booking/urls";
import { slotLabelFr } from "~/lib/booking/words";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { IncludedList } from "~/components/booking/included-list";

export { action, headers, loader } from "./coordonnees.server";

/**
 * /reserver/{studio}/{séance}/coordonnees?creneau=…: the chosen time, the client's details, the owner's
 * questions and the consent to the terms; posted here (without JavaScript), answered with a 303 to the
 * client's page, or a 4xx with everything typed and a French message.
 */

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => {
  if (error || !loaderData) return bookingErrorMeta(error);
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
  const instant = instantOfSlotKey(slot);
  const when = typeof instant === "string" ? null : slotLabelFr(slot, true);
  const chosenDay = typeof instant === "string" ? null : instant.day;
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
      {type.deposit?.unpayable ? (
        // Its deposit payable no way the owner takes now: no form every post of which is refused.
        <Notice tone="info" title={type.deposit.unpayable}>
          <p>Appelez le studio au {studio.phone} pour réserver cette séance.</p>
        </Notice>
      ) : unavailable && !actionData ? (
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
                <NextFreeTimes
                  slots={alternatives}
                  chosenDay={chosenDay}
                  headingLevel={3}
                  hrefOf={(key) => bookingDetailsPath(studio.slug, type.slug, key, lien)}
                />
              </div>
            </section>
          ) : null}
        </>
      ) : (
        <BookingDetailsForm
          action={bookingDetailsPath(studio.slug, type.slug, loaderData.slot, lien)}
          // After a refusal, the key posted (nothing was booked with it) or the new one the answer gives.
          formKey={actionData?.values[FORM_KEY_FIELD] || loaderData.formKey}
          questions={questions}
          values={actionData?.values ?? {}}
          errors={actionData?.errors ?? {}}
          message={actionData?.message ?? null}
          request={type.request}
          depositText={type.depositText}
          deposit={type.deposit}
          cutoffHours={type.cancellationCutoffHours}
          responseDeadlineHours={type.responseDeadlineHours}
          alternatives={alternatives}
          chosenDay={chosenDay}
          phone={studio.phone}
          voucherField={loaderData.vouchers || Boolean(actionData?.values.voucherCode)}
        />
      )}
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
