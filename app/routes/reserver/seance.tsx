import type { Route } from "./+types/seance";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary, bookingErrorMeta } from "~/components/booking/booking-error";
import { BookingPage, NO_INDEX, Notice, TimeChoices } from "~/components/booking/booking-layout";
import { MonthCalendar } from "~/components/booking/month-calendar";
import {
  BOOKING_HOME_PATH,
  bookingDaysPath,
  bookingDetailsPath,
  bookingStudioPath,
} from "~/lib/booking/urls";
import { IncludedList } from "~/components/booking/included-list";
import { dayLabelFr } from "~/lib/booking/words";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";

export { headers, loader } from "./seance.server";

/**
 * /reserver/{studio}/{séance}: a month of free days (`?mois=AAAA-MM`, else the chosen day's month, else the
 * first free day's; decision 0124), and the free times of the day chosen (`?jour=`), each a link to the
 * details form.
 */

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => {
  if (error || !loaderData) return bookingErrorMeta(error);
  const site = siteFrom(matches);
  return seo({
    title: `${loaderData.type.name} au ${loaderData.studio.name} : choisir un créneau | ${site.brand}`,
    description: `Les prochains créneaux libres pour « ${loaderData.type.name} » au ${loaderData.studio.name}.`,
    path: bookingDaysPath(loaderData.studio.slug, loaderData.type.slug),
    matches,
    extra: [NO_INDEX],
  });
};

export default function ReserverSeancePage({ loaderData }: Route.ComponentProps) {
  const { studio, type, privateToken, day, calendar, times } = loaderData;
  const lien = privateToken;
  return (
    <BookingPage
      trail={[
        { label: "Réserver une séance", to: BOOKING_HOME_PATH },
        { label: studio.name, to: bookingStudioPath(studio.slug, lien) },
        { label: type.name },
      ]}
      title={`${type.name} au ${studio.name}`}
      intro={
        <>
          <p>
            Durée : {type.duration}
            {type.priceText ? ` · ${type.priceText}` : ""}. Choisissez un jour, puis un horaire
            (heure de Paris).
          </p>
          <IncludedList lines={type.included} className="mt-4 text-foreground" />
        </>
      }
    >
      {type.unpayable ? (
        <Notice tone="info" title={type.unpayable}>
          <p>Appelez le studio au {studio.phone} pour réserver cette séance.</p>
        </Notice>
      ) : (
        <>
          <section aria-labelledby="jours">
            <h2 id="jours" className="text-xl font-semibold">
              Jours libres
            </h2>
            <div className="mt-3">
              <MonthCalendar
                {...calendar}
                selected={day}
                hrefOfDay={(chosen) =>
                  `${bookingDaysPath(studio.slug, type.slug, { lien, jour: chosen })}#horaires`
                }
                hrefOfMonth={(month) =>
                  bookingDaysPath(studio.slug, type.slug, { lien, mois: month })
                }
              />
            </div>
            {calendar.days.length === 0 && !calendar.nextMonth ? (
              <p className="mt-3">
                Plus aucun créneau libre en ligne sur cette période : appelez le studio au{" "}
                {studio.phone}.
              </p>
            ) : null}
          </section>

          {day ? (
            <section aria-labelledby="horaires-titre" id="horaires">
              <h2 id="horaires-titre" className="text-xl font-semibold first-letter:uppercase">
                {dayLabelFr(day)} : horaires libres
              </h2>
              {times.length === 0 ? (
                <p className="mt-3">
                  Plus aucun horaire libre ce jour-là : choisissez un autre jour.
                </p>
              ) : (
                <div className="mt-3">
                  <TimeChoices
                    slots={times}
                    hrefOf={(key) => bookingDetailsPath(studio.slug, type.slug, key, lien)}
                  />
                </div>
              )}
            </section>
          ) : null}
        </>
      )}
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
