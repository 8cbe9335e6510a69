import { CalendarPlus } from "lucide-react";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/index";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary } from "~/components/booking/booking-error";
import { BookingPage, NO_INDEX, Notice, TimeChoices } from "~/components/booking/booking-layout";
import { MonthCalendar } from "~/components/booking/month-calendar";
import { parseMonth } from "~/lib/booking/month";
import { Button } from "~/components/ui/button";
import { BOOKING_STATE_LABELS } from "~/lib/booking/model";
import { slotKeyOf } from "~/lib/booking/slots";
import { manageIcsPath, managePath } from "~/lib/booking/urls";
import { dayLabelFr, durationLabelFr, instantLabelFr, slotLabelFr } from "~/lib/booking/words";
import { parseIsoDay } from "~/lib/dates";
import { telHref } from "~/lib/public-site";
import { cancelBooking, moveBooking } from "~/server/booking/bookings.server";
import { managedBooking } from "~/server/booking/manage-page.server";
import { BookingRefusedError } from "~/server/booking/refusals.server";
import { freeDaysOfMonth, freeTimesOf, type FreeMonth } from "~/server/booking/visitor.server";
import { consumeRateLimit } from "~/server/rate-limit.server";
import { clientAddressContext } from "~/server/context";
import { siteContent } from "~/server/content/site-content.server";
import { sessionOffer } from "~/lib/booking/offer";
import { IncludedList } from "~/components/booking/included-list";

/**
 * /reservation/{jeton}: the client's booking (from the confirmation and every e-mail): see it, cancel it
 * (with a confirmation step, `?annuler=1`), move it (`?deplacer=1&mois=…&jour=…`, a time chosen then confirmed
 * by a POST form, `&creneau=…`, decision 0124) until the type's cut-off; add it to a calendar (`seance.ics`). Never cached, never indexed, no referrer to other sites (the token is the key).
 */

export const handle: SiteHandle = { solidHeader: true };

const DONE: Record<string, string> = {
  annulee: "Votre séance est annulée. Un e-mail de confirmation vous est envoyé.",
  deplacee: "Votre séance est déplacée. Un e-mail avec le nouvel horaire vous est envoyé.",
  // Decision 0123: an address not yet confirmed gets a few e-mails a day from the client's own actions.
  "annulee-sans-email":
    "Votre séance est annulée. Cette adresse e-mail a déjà reçu plusieurs messages aujourd'hui : aucun e-mail n'est envoyé cette fois.",
  "deplacee-sans-email":
    "Votre séance est déplacée. Cette adresse e-mail a déjà reçu plusieurs messages aujourd'hui : aucun e-mail n'est envoyé cette fois.",
};
/** A booking the studio took by phone without e-mail (decision 0138): the site never writes to its client. */
const DONE_WITHOUT_MAIL: Record<string, string> = {
  annulee: "Votre séance est annulée. Le studio en est prévenu.",
  deplacee: "Votre séance est déplacée. Le studio en est prévenu.",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const [managed, content] = await Promise.all([
    managedBooking(params.token),
    siteContent(context),
  ]);
  const { booking, type, studio, changeable } = managed;
  // What the session costs and includes: its price card's when it is its offer (decision 0127).
  const offer = sessionOffer(content.documents.prices, type);
  const search = new URL(request.url).searchParams;
  const moving = changeable && search.get("deplacer") === "1" && !type.archived;
  const cancelling = changeable && search.get("annuler") === "1";
  // An impossible day in the address (2026-12-32, 0000-00-00) is no day chosen (decision 0122).
  const day = parseIsoDay(search.get("jour"));
  const month = parseMonth(search.get("mois"));
  let calendar: FreeMonth | null = null;
  let times: { key: string; time: string }[] = [];
  // The time chosen for a move, shown for confirmation before anything changes (decision 0124).
  let confirmMove: { key: string; label: string } | null = null;
  if (moving) {
    // Its own time does not stand in its way: it can move by half an hour.
    const query = {
      studioId: booking.studioId,
      sessionTypeId: booking.sessionTypeId,
      privateToken: type.privateToken,
      exceptBookingId: booking.id,
    };
    const [free, dayTimes] = await Promise.all([
      freeDaysOfMonth({ ...query, month, day }),
      day ? freeTimesOf({ ...query, day }) : Promise.resolve([]),
    ]);
    calendar = free;
    const current = slotKeyOf(booking.startsAt);
    times = dayTimes
      .filter((slot) => slot.key !== current)
      .map((slot) => ({ key: slot.key, time: slot.time }));
    // Only one of the day's free times is confirmed; any other value shows the day's times again.
    const chosen = times.find((slot) => slot.key === search.get("creneau"));
    if (chosen) confirmMove = { key: chosen.key, label: slotLabelFr(chosen.key) };
  }
  return data(
    {
      token: params.token,
      booking: {
        state: booking.state,
        stateLabel: BOOKING_STATE_LABELS[booking.state],
        when: instantLabelFr(booking.startsAt),
        duration: durationLabelFr(
          Math.round((booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000),
        ),
        clientName: booking.clientName,
        respondBy: booking.respondBy ? instantLabelFr(booking.respondBy) : null,
      },
      type: {
        name: type.name,
        cutoffHours: type.cutoffHours,
        price: offer.price,
        included: offer.included,
      },
      changeUntil: instantLabelFr(
        new Date(booking.startsAt.getTime() - type.cutoffHours * 3_600_000),
      ),
      studio,
      changeable,
      rebookPath: managed.rebookPath,
      moving,
      cancelling,
      day,
      calendar,
      times,
      confirmMove,
      done: booking.clientMail
        ? (DONE[search.get("fait") ?? ""] ?? null)
        : (DONE_WITHOUT_MAIL[(search.get("fait") ?? "").replace(/-sans-email$/, "")] ?? null),
      clientMail: booking.clientMail,
      created: search.get("nouvelle") === "1",
    },
    { headers: PRIVATE_HEADERS },
  );
}

/**
 * `same-origin` rather than `no-referrer` (the address is the key, and no other site may receive it): with
 * `no-referrer` a browser posts the page's forms with `Origin: null`, which the CSRF check refuses.
 */
const PRIVATE_HEADERS = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "same-origin",
};

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers(PRIVATE_HEADERS);
  for (const source of [loaderHeaders, actionHeaders]) {
    source.forEach((value, key) => headers.set(key, value));
  }
  return headers;
};

/** Cancelling and moving from the client's page: each refused as a French 4xx, never a 5xx. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const managed = await managedBooking(params.token);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const refuse = (status: number, message: string) =>
    data({ message }, { status, headers: PRIVATE_HEADERS });
  const limited = await consumeRateLimit(`booking-manage:${context.get(clientAddressContext)}`, {
    limit: 30,
    windowSeconds: 3600,
  });
  if (!limited.allowed) return refuse(429, "Trop de modifications : réessayez dans une heure.");
  try {
    if (intent === "cancel") {
      const { mailed } = await cancelBooking(managed.booking.id, { actor: "client" });
      return redirect(
        managePath(params.token, { fait: mailed ? "annulee" : "annulee-sans-email" }),
        303,
      );
    }
    if (intent === "move") {
      const slot = formData.get("creneau");
      if (typeof slot !== "string" || slot.length > 40) {
        return refuse(400, "Choisissez un horaire.");
      }
      const { mailed } = await moveBooking(managed.booking.id, { slot }, { actor: "client" });
      return redirect(
        managePath(params.token, { fait: mailed ? "deplacee" : "deplacee-sans-email" }),
        303,
      );
    }
    return refuse(400, "Cette action n'existe pas.");
  } catch (error) {
    if (error instanceof BookingRefusedError) return refuse(error.status, error.message);
    throw error;
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Votre réservation" }, NO_INDEX];

export default function ReservationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { token, booking, type, studio, changeable, moving, cancelling } = loaderData;
  const { street, postalCode, city } = studio.address;
  const active = booking.state === "pending" || booking.state === "confirmed";
  return (
    <BookingPage trail={[]} title="Votre réservation">
      {loaderData.created ? (
        <Notice
          tone="success"
          title={
            booking.state === "pending"
              ? "Votre demande est envoyée au studio."
              : "Votre séance est réservée."
          }
        >
          <p>
            Un e-mail de confirmation vous est envoyé avec ce lien personnel : gardez-le pour
            déplacer ou annuler votre séance.
          </p>
        </Notice>
      ) : null}
      {loaderData.done ? <Notice tone="success" title={loaderData.done} /> : null}
      {actionData?.message ? <Notice tone="error" title={actionData.message} /> : null}

      <section
        aria-labelledby="seance"
        className="rounded-2xl border border-border bg-white p-6 shadow-sm"
      >
        <h2 id="seance" className="text-xl font-semibold">
          {type.name}
        </h2>
        <dl className="mt-4 grid gap-3 sm:grid-cols-[10rem_1fr]">
          <dt className="font-semibold">Quand</dt>
          <dd className="first-letter:uppercase">
            {booking.when} ({booking.duration})
          </dd>
          <dt className="font-semibold">Où</dt>
          <dd>
            {studio.name}, {street}, {postalCode} {city}
          </dd>
          <dt className="font-semibold">Téléphone</dt>
          <dd>
            <a
              href={telHref(studio.phone)}
              className="inline-flex min-h-11 items-center text-gold-dark underline"
            >
              {studio.phone}
            </a>
          </dd>
          {type.price ? (
            <>
              <dt className="font-semibold">Tarif</dt>
              <dd>{type.price}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Au nom de</dt>
          <dd>{booking.clientName}</dd>
          <dt className="font-semibold">État</dt>
          <dd>
            {booking.stateLabel}
            {booking.state === "pending" && booking.respondBy
              ? ` (réponse au plus tard le ${booking.respondBy})`
              : ""}
          </dd>
        </dl>
        <IncludedList lines={type.included} className="mt-4" />
        {active ? (
          // A plain download (a light page has no router to intercept it): the calendar opens the file.
          <a
            href={manageIcsPath(token)}
            download="seance.ics"
            className="mt-4 inline-flex min-h-11 items-center gap-2 font-medium text-gold-dark underline underline-offset-4"
          >
            <CalendarPlus aria-hidden="true" className="size-5" />
            Ajouter à mon agenda
          </a>
        ) : null}
      </section>

      {active && !changeable ? (
        <p>
          Il est trop tard pour modifier cette séance en ligne (jusqu'à {type.cutoffHours} h avant)
          : appelez le studio au {studio.phone}.
        </p>
      ) : null}

      {loaderData.rebookPath ? (
        <p>
          <Link
            to={loaderData.rebookPath}
            className="inline-flex min-h-11 items-center text-gold-dark underline"
          >
            Choisir un autre créneau pour cette séance
          </Link>
        </p>
      ) : null}

      {changeable && !moving && !cancelling ? (
        <p>
          Vous pouvez déplacer ou annuler cette séance en ligne jusqu'au {loaderData.changeUntil}.
        </p>
      ) : null}
      {changeable && !moving && !cancelling ? (
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link to={managePath(token, { deplacer: "1" })}>Déplacer la séance</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={managePath(token, { annuler: "1" })}>Annuler la séance</Link>
          </Button>
        </div>
      ) : null}

      {cancelling ? (
        <section
          aria-labelledby="annuler"
          className="rounded-2xl border border-red-200 bg-red-50 p-6"
        >
          <h2 id="annuler" className="text-xl font-semibold">
            Annuler la séance ?
          </h2>
          <p className="mt-2">
            Le créneau sera libéré pour d'autres personnes. Cette action est définitive.
          </p>
          <form method="post" action={managePath(token)} className="mt-4 flex flex-wrap gap-3">
            <input type="hidden" name="intent" value="cancel" />
            <Button type="submit" variant="destructive">
              Oui, annuler ma séance
            </Button>
            <Button asChild variant="outline">
              <Link to={managePath(token)}>Non, la garder</Link>
            </Button>
          </form>
        </section>
      ) : null}

      {moving ? (
        <section aria-labelledby="deplacer" className="space-y-6">
          <h2 id="deplacer" className="text-xl font-semibold">
            Déplacer la séance
          </h2>
          {loaderData.calendar ? (
            <MonthCalendar
              {...loaderData.calendar}
              selected={loaderData.day}
              hrefOfDay={(chosen) =>
                `${managePath(token, { deplacer: "1", jour: chosen })}#horaires`
              }
              hrefOfMonth={(chosen) => managePath(token, { deplacer: "1", mois: chosen })}
            />
          ) : null}
          {loaderData.calendar?.days.length === 0 && !loaderData.calendar.nextMonth ? (
            <p>Aucun autre créneau libre en ligne : appelez le studio au {studio.phone}.</p>
          ) : null}
          {loaderData.day && !loaderData.confirmMove ? (
            <section id="horaires" aria-labelledby="horaires-titre">
              <h3 id="horaires-titre" className="font-semibold first-letter:uppercase">
                {dayLabelFr(loaderData.day)} : choisissez le nouvel horaire
              </h3>
              <div className="mt-3">
                {loaderData.times.length === 0 ? (
                  <p>Plus aucun horaire libre ce jour-là.</p>
                ) : (
                  <TimeChoices
                    slots={loaderData.times}
                    hrefOf={(key) =>
                      `${managePath(token, { deplacer: "1", jour: loaderData.day, creneau: key })}#confirmer`
                    }
                  />
                )}
              </div>
            </section>
          ) : null}
          {loaderData.confirmMove ? (
            <section
              id="confirmer"
              aria-labelledby="confirmer-titre"
              className="rounded-2xl border border-gold-dark bg-amber-50 p-6"
            >
              <h3 id="confirmer-titre" className="text-lg font-semibold">
                Déplacer au {loaderData.confirmMove.label} ?
              </h3>
              <p className="mt-2">
                Votre horaire actuel ({booking.when}) sera libéré.
                {loaderData.clientMail ? " Un e-mail vous confirmera le nouvel horaire." : null}
              </p>
              <form method="post" action={managePath(token)} className="mt-4 flex flex-wrap gap-3">
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="creneau" value={loaderData.confirmMove.key} />
                <Button type="submit">Confirmer</Button>
                <Button asChild variant="outline">
                  <Link
                    to={`${managePath(token, { deplacer: "1", jour: loaderData.day })}#horaires`}
                  >
                    Annuler
                  </Link>
                </Button>
              </form>
            </section>
          ) : null}
          <Link to={managePath(token)} className="inline-flex min-h-11 items-center underline">
            Garder l'horaire actuel
          </Link>
        </section>
      ) : null}
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
