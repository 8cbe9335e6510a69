import { Link } from "react-router";
import { longDayFr } from "~/lib/booking/agenda-format";
import type { BookingLine } from "~/lib/booking/agenda-lines";
import { BookingItem } from "./agenda-parts";

/** The dashboard's bookings of today and tomorrow (decision 0116), and the requests waiting for an answer. */
export function DashboardBookings({
  today,
  tomorrow,
  todays,
  tomorrows,
  pendingCount,
}: {
  today: string;
  tomorrow: string;
  todays: readonly BookingLine[];
  tomorrows: readonly BookingLine[];
  pendingCount: number;
}) {
  const day = (label: string, date: string, bookings: readonly BookingLine[], id: string) => (
    <div className="space-y-2">
      <h3 id={id} className="font-sans text-base font-semibold">
        {label} <span className="font-normal text-muted-foreground">· {longDayFr(date)}</span>
      </h3>
      {bookings.length === 0 ? (
        <p className="text-sm text-muted-foreground">Aucune réservation.</p>
      ) : (
        <ul className="space-y-2" aria-labelledby={id}>
          {bookings.map((booking) => (
            <BookingItem key={booking.id} booking={booking} />
          ))}
        </ul>
      )}
    </div>
  );
  return (
    <section
      aria-labelledby="reservations-titre"
      className="space-y-4 rounded-xl border border-border bg-white p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="reservations-titre" className="text-xl font-semibold">
          Réservations
        </h2>
        <Link
          to="/admin/reservations"
          className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
        >
          Ouvrir l'agenda
        </Link>
      </div>
      {pendingCount > 0 ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
          <Link to="/admin/reservations" className="font-semibold underline underline-offset-4">
            {pendingCount === 1
              ? "1 demande attend votre réponse"
              : `${pendingCount} demandes attendent votre réponse`}
          </Link>
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {day("Aujourd'hui", today, todays, "reservations-aujourdhui")}
        {day("Demain", tomorrow, tomorrows, "reservations-demain")}
      </div>
    </section>
  );
}
