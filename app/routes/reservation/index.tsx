import { CalendarPlus } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/index";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary, bookingErrorMeta } from "~/components/booking/booking-error";
import { BookingPage, NO_INDEX, Notice, TimeChoices } from "~/components/booking/booking-layout";
import { MonthCalendar } from "~/components/booking/month-calendar";
import { Button } from "~/components/ui/button";
import { isActive } from "~/lib/booking/model";
import { manageIcsPath, managePath } from "~/lib/booking/urls";
import { dayLabelFr } from "~/lib/booking/words";
import { telHref } from "~/lib/public-site";
import { IncludedList } from "~/components/booking/included-list";
import { InvoiceList } from "~/components/invoices/invoice-list";

export { action, headers, loader } from "./index.server";

/**
 * /reservation/{jeton}: the client's booking (from the confirmation and every e-mail): see it, cancel it
 * (with a confirmation step, `?annuler=1`), move it (`?deplacer=1&mois=…&jour=…`, a time chosen then confirmed
 * by a POST form, `&creneau=…`, decision 0124) until the type's cut-off; add it to a calendar (`seance.ics`);
 * read the balance the studio recorded (« Solde reçu », decision 0201); download the invoices of the gift
 * vouchers' uses that paid it and its balance's final invoice (`facture/{numéro}.pdf`, decisions 0199 and
 * 0201). Never cached, never indexed, no referrer to other sites (the token is the key).
 */

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ error }) =>
  error ? bookingErrorMeta(error) : [{ title: "Votre réservation" }, NO_INDEX];

export default function ReservationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { token, booking, type, studio, changeable, moving, cancelling } = loaderData;
  const { street, postalCode, city } = studio.address;
  const active = isActive(booking.state);
  // Offered once it will take place: while its deposit is awaited it may still be released unpaid.
  const inCalendar = booking.state === "pending" || booking.state === "confirmed";
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
          {loaderData.paidBy ? (
            <>
              <dt className="font-semibold">Règlement</dt>
              <dd>{loaderData.paidBy}</dd>
            </>
          ) : null}
          {loaderData.deposit ? (
            <>
              <dt className="font-semibold">Paiement</dt>
              <dd className="space-y-1">
                {loaderData.deposit.lines.map((line) => (
                  <p key={line}>{line}</p>
                ))}
                {loaderData.deposit.orderHref ? (
                  <p>
                    <a href={loaderData.deposit.orderHref} className="underline">
                      {loaderData.deposit.waiting
                        ? "Payer ou reprendre le paiement"
                        : loaderData.deposit.held
                          ? "Votre paiement"
                          : "Votre paiement et sa facture"}
                    </a>
                  </p>
                ) : null}
              </dd>
            </>
          ) : null}
          {loaderData.balance ? (
            <>
              <dt className="font-semibold">Solde reçu</dt>
              <dd>{loaderData.balance}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Au nom de</dt>
          <dd>{booking.clientName}</dd>
          <dt className="font-semibold">État</dt>
          <dd>
            {booking.stateLabel}
            {booking.state === "pending" && booking.respondBy
              ? ` (réponse au plus tard le ${booking.respondBy})`
              : booking.state === "awaiting_payment" && booking.respondBy
                ? ` (à régler avant le ${booking.respondBy}, sinon le créneau est libéré)`
                : ""}
          </dd>
        </dl>
        <IncludedList lines={type.included} className="mt-4" />
        {inCalendar ? (
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

      <InvoiceList invoices={loaderData.invoices} />

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
          {loaderData.deposit?.onCancel ? (
            <p className="mt-2">{loaderData.deposit.onCancel}</p>
          ) : null}
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
