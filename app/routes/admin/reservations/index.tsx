import { CalendarOff, Download, Plus, Trash2 } from "lucide-react";
import { instantLabelFr } from "~/lib/booking/words";
import { useEffect } from "react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { Field, Input, Select } from "~/components/admin/field";
import { Pager } from "~/components/admin/pager";
import {
  AgendaDay,
  blockedSummary,
  BookingItem,
  dayOf,
  timeFr,
} from "~/components/booking-admin/agenda-parts";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { WeekGrid } from "~/components/booking-admin/week-grid";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import {
  AGENDA_LIST_DAYS,
  AGENDA_PAGE,
  AGENDA_VIEWS,
  type AgendaView,
} from "~/lib/booking/admin-pages";
import { longDayFr } from "~/lib/booking/agenda-format";
import { BOOKING_STATE_READING_LABELS, BOOKING_STATE_READINGS } from "~/lib/booking/model";
import { addParisDays } from "~/lib/booking/slots";
import { cn } from "~/lib/utils";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [
  { title: "Agenda des réservations - Administration" },
];

function agendaHref(params: {
  vue: AgendaView;
  date: string;
  studio: string | null;
  etat?: string | null;
}) {
  const search = new URLSearchParams({ vue: params.vue, date: params.date });
  if (params.studio) search.set("studio", params.studio);
  if (params.etat) search.set("etat", params.etat);
  return `${AGENDA_PAGE}?${search}`;
}

export default function Agenda({ loaderData, actionData }: Route.ComponentProps) {
  // On a phone the agenda opens at the present moment of today's list (decision 0125); a wide screen
  // shows the whole week's grid at once.
  useEffect(() => {
    if (window.location.hash || !window.matchMedia("(max-width: 1023.98px)").matches) return;
    document.getElementById("maintenant")?.scrollIntoView({ block: "center" });
  }, []);
  const { view, date, today, fromDay, toDay, studioId, state, bookings, blocked, requests } =
    loaderData;
  const blockAnswer = actionData && "message" in actionData ? actionData : undefined;
  const step = view === "jour" ? 1 : view === "semaine" ? 7 : AGENDA_LIST_DAYS;
  const href = (vue: AgendaView, day: string) =>
    agendaHref({ vue, date: day, studio: studioId, etat: state });
  const days = Array.from({ length: view === "semaine" ? 7 : 1 }, (_, index) =>
    addParisDays(fromDay, index),
  );
  const title =
    view === "jour"
      ? longDayFr(date)
      : view === "semaine"
        ? `Semaine du ${longDayFr(fromDay)}`
        : `Du ${longDayFr(fromDay)} au ${longDayFr(toDay)}`;

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Réservations"
        summary="Votre agenda : les séances réservées, les demandes à traiter, le temps bloqué."
        actions={
          <>
            <Button asChild>
              <Link to={`${AGENDA_PAGE}/nouvelle`}>
                <Plus aria-hidden="true" />
                Ajouter une réservation
              </Link>
            </Button>
            <Button asChild variant="outline">
              <a href={`${AGENDA_PAGE}/export.csv`} download>
                <Download aria-hidden="true" />
                Exporter (CSV)
              </a>
            </Button>
          </>
        }
      />
      <ReservationsNav />

      {requests.length > 0 ? (
        <section
          aria-labelledby="demandes"
          className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4"
        >
          <h2 id="demandes" className="font-sans text-lg font-semibold">
            Demandes à traiter ({requests.length})
          </h2>
          <ul className="space-y-2">
            {requests.map((request) => (
              <BookingItem
                key={request.id}
                booking={request}
                showDay
                note={
                  request.respondBy
                    ? `Répondre avant le ${instantLabelFr(request.respondBy)}`
                    : undefined
                }
              />
            ))}
          </ul>
        </section>
      ) : null}

      <section
        aria-labelledby="agenda-titre"
        className="space-y-4 rounded-xl border border-border bg-white p-4 sm:p-6"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="agenda-titre" className="font-sans text-lg font-semibold first-letter:uppercase">
            {title}
          </h2>
          <nav aria-label="Vue de l'agenda">
            <ul className="flex flex-wrap gap-1">
              {(Object.keys(AGENDA_VIEWS) as AgendaView[]).map((candidate) => (
                <li key={candidate}>
                  <Link
                    to={href(candidate, date)}
                    aria-current={candidate === view ? "page" : undefined}
                    className={cn(
                      "inline-flex min-h-11 items-center rounded-md border px-3 text-sm",
                      candidate === view
                        ? "border-stone-800 bg-stone-800 font-semibold text-white"
                        : "border-border bg-white hover:bg-muted",
                    )}
                  >
                    {AGENDA_VIEWS[candidate]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to={href(view, addParisDays(date, -step))}>
              ← Précédent{view === "semaine" ? "e" : ""}
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link to={`${href(view, today)}#maintenant`}>Aujourd'hui</Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link to={href(view, addParisDays(date, step))}>
              Suivant{view === "semaine" ? "e" : ""} →
            </Link>
          </Button>
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="vue" value={view} />
            <label className="text-sm">
              <span className="block font-semibold">Aller au</span>
              <input
                type="date"
                name="date"
                defaultValue={date}
                className="min-h-11 rounded-md border border-border px-2"
              />
            </label>
            <label className="text-sm">
              <span className="block font-semibold">Studio</span>
              <select
                name="studio"
                defaultValue={studioId ?? ""}
                className="min-h-11 rounded-md border border-border px-2"
              >
                <option value="">Tous</option>
                {loaderData.studios.map((studio) => (
                  <option key={studio.id} value={studio.id}>
                    {studio.name}
                  </option>
                ))}
              </select>
            </label>
            {view === "liste" ? (
              <label className="text-sm">
                <span className="block font-semibold">État</span>
                <select
                  name="etat"
                  defaultValue={state ?? ""}
                  className="min-h-11 rounded-md border border-border px-2"
                >
                  <option value="">Tous</option>
                  {BOOKING_STATE_READINGS.map((candidate) => (
                    <option key={candidate} value={candidate}>
                      {BOOKING_STATE_READING_LABELS[candidate]}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <Button type="submit" variant="outline" size="sm" className="min-h-11">
              Afficher
            </Button>
          </Form>
        </div>

        {view === "liste" ? (
          bookings.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              Aucune réservation sur ces {AGENDA_LIST_DAYS} jours.
            </p>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                {loaderData.matching} réservation{loaderData.matching > 1 ? "s" : ""} sur ces{" "}
                {AGENDA_LIST_DAYS} jours.
              </p>
              <ul className="space-y-2" aria-label="Réservations">
                {bookings.map((booking) => (
                  <BookingItem key={booking.id} booking={booking} showDay />
                ))}
              </ul>
              <Pager
                previous={loaderData.previous}
                next={loaderData.next}
                label="Pages des réservations"
              />
            </>
          )
        ) : (
          <>
            {view === "semaine" ? (
              // A wide screen sees the week as a time grid; a phone, as the list of its days below.
              <div className="hidden lg:block">
                <WeekGrid
                  days={days}
                  today={today}
                  bookings={bookings}
                  blocked={blocked}
                  studios={loaderData.studios}
                  openings={loaderData.openings}
                  dayHref={(day) => href("jour", day)}
                  newBookingHref={(day, time) =>
                    `/admin/reservations/nouvelle?${new URLSearchParams({
                      ...(loaderData.studioId ? { studio: loaderData.studioId } : {}),
                      jour: day,
                      heure: time,
                    })}`
                  }
                />
              </div>
            ) : null}
            <div className={cn("space-y-6", view === "semaine" && "lg:hidden")}>
              {days.map((day) => (
                <AgendaDay
                  key={day}
                  day={day}
                  headingLevel={3}
                  now={day === today ? loaderData.now : undefined}
                  bookings={bookings.filter((booking) => dayOf(booking.startsAt) === day)}
                  blocked={blocked.filter(
                    (period) => dayOf(period.startsAt) <= day && dayOf(period.endsAt) >= day,
                  )}
                />
              ))}
            </div>
          </>
        )}
      </section>

      <section
        aria-labelledby="bloquer"
        className="space-y-4 rounded-xl border border-border bg-white p-4 sm:p-6"
      >
        <h2 id="bloquer" className="flex items-center gap-2 font-sans text-lg font-semibold">
          <CalendarOff aria-hidden="true" className="size-5" />
          Bloquer du temps
        </h2>
        <p className="text-sm text-muted-foreground">
          Congés, séance en extérieur, travaux au studio : personne ne peut réserver ce temps. Une
          réservation déjà prise à ce moment doit d'abord être déplacée ou annulée.
        </p>
        <Form method="post" noValidate className="space-y-4">
          <FormAlert
            message={blockAnswer ? { type: "error", title: blockAnswer.message } : undefined}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <Field name="label" label="Motif" error={blockAnswer?.errors.label}>
              {(props) => (
                <Input
                  {...props}
                  list="motifs"
                  maxLength={200}
                  defaultValue={blockAnswer?.values.label ?? "Congés"}
                />
              )}
            </Field>
            <datalist id="motifs">
              <option value="Congés" />
              <option value="Séance en extérieur" />
              <option value="Travaux au studio" />
            </datalist>
            <Field name="start" label="Début" error={blockAnswer?.errors.start}>
              {(props) => (
                <Input
                  {...props}
                  type="datetime-local"
                  defaultValue={blockAnswer?.values.start ?? ""}
                />
              )}
            </Field>
            <Field name="end" label="Fin" error={blockAnswer?.errors.end}>
              {(props) => (
                <Input
                  {...props}
                  type="datetime-local"
                  defaultValue={blockAnswer?.values.end ?? ""}
                />
              )}
            </Field>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              name="studioId"
              label="Studio"
              error={blockAnswer?.errors.studioId}
              hint="« Tous les studios » : la photographe choisie, où qu'elle soit (congés)."
            >
              {(props) => (
                <Select {...props} defaultValue={blockAnswer?.values.studioId ?? ""}>
                  <option value="">Tous les studios</option>
                  {loaderData.studios.map((studio) => (
                    <option key={studio.id} value={studio.id}>
                      {studio.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field
              name="photographerId"
              label="Photographe"
              error={blockAnswer?.errors.photographerId}
              hint="« Toutes » : le studio choisi est fermé aux réservations."
            >
              {(props) => (
                <Select
                  {...props}
                  defaultValue={
                    blockAnswer?.values.photographerId ?? loaderData.photographers[0]?.id ?? ""
                  }
                >
                  <option value="">Toutes les photographes</option>
                  {loaderData.photographers.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          <Button type="submit" name="intent" value="block">
            Bloquer cette période
          </Button>
        </Form>
        {blocked.length > 0 ? (
          <div className="space-y-2">
            <h3 className="font-sans text-base font-semibold">Temps bloqué sur cette période</h3>
            <ul className="divide-y divide-border">
              {blocked.map((period) => (
                <li
                  key={period.id}
                  className="flex flex-wrap items-center justify-between gap-2 py-2"
                >
                  <span className="text-sm">
                    <span className="font-semibold">{period.label}</span> ·{" "}
                    {dayOf(period.startsAt) === dayOf(period.endsAt)
                      ? `${longDayFr(dayOf(period.startsAt))}, ${timeFr(period.startsAt)} – ${timeFr(period.endsAt)}`
                      : blockedSummary(period)}
                  </span>
                  <ConfirmedActionForm
                    id={period.id}
                    intent="unblock"
                    param="debloquer"
                    confirmation="Débloquer cette période ? Elle redevient réservable."
                    itemLabel={period.label}
                    variant="destructive"
                    label={
                      <>
                        <Trash2 aria-hidden="true" />
                        Débloquer
                      </>
                    }
                  />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
    </div>
  );
}
