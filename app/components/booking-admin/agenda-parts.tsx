import { Fragment } from "react";
import { Link } from "react-router";
import { Field, Input } from "~/components/admin/field";
import { StatusBadge, type StatusTone } from "~/components/admin/status-badge";
import { clockFr, longDayFr } from "~/lib/booking/agenda-format";
import type { BlockedLine, BookingLine } from "~/lib/booking/agenda-lines";
import { bookingStateLabel, type BookingState, isCalledOff } from "~/lib/booking/model";
import { parisDateTimeInputValue } from "~/lib/dates";

/*
 * The pieces of the owner's agenda (decision 0116): a booking's line, a blocked period's line, a day of them.
 * Server-rendered links: a tap opens the booking.
 */

export const STATE_TONES: Record<BookingState, StatusTone> = {
  pending: "warning",
  awaiting_payment: "warning",
  confirmed: "success",
  declined: "muted",
  expired: "muted",
  cancelled: "muted",
  no_show: "danger",
  done: "neutral",
};

/** « 10 h 30 » in Paris from an ISO instant. */
export const timeFr = (iso: string) => clockFr(parisDateTimeInputValue(iso).slice(11));
/** « 2026-12-03 » in Paris from an ISO instant. */
export const dayOf = (iso: string) => parisDateTimeInputValue(iso).slice(0, 10);

/**
 * Its state as the owner reads it: expired once its deposit was awaited, it was not paid (decision 0186);
 * its card payment held for her decision, it came (decision 0172).
 */
export function StateBadge({
  state,
  depositAwaited,
  depositHeld,
}: {
  state: BookingState;
  depositAwaited: boolean;
  depositHeld: boolean;
}) {
  return (
    <StatusBadge tone={depositHeld ? "warning" : STATE_TONES[state]}>
      {bookingStateLabel(state, depositAwaited, depositHeld)}
    </StatusBadge>
  );
}

/** One booking: its times, client, type, studio and state; the whole line opens it. */
export function BookingItem({
  booking,
  showDay = false,
  note,
}: {
  booking: BookingLine;
  showDay?: boolean;
  /** A line under the client's (a request's answer deadline). */
  note?: string;
}) {
  const over = isCalledOff(booking.state);
  return (
    <li>
      <Link
        to={`/admin/reservations/${booking.id}`}
        className="flex min-h-11 flex-col gap-1 rounded-lg border border-border bg-white px-3 py-2 hover:bg-muted sm:flex-row sm:items-center sm:gap-3"
      >
        <span className="font-semibold tabular-nums">
          {showDay ? `${longDayFr(dayOf(booking.startsAt))}, ` : ""}
          {timeFr(booking.startsAt)} – {timeFr(booking.endsAt)}
        </span>
        <span className={over ? "min-w-0 flex-1 line-through" : "min-w-0 flex-1"}>
          {booking.clientName} · {booking.sessionTypeName}
          <span className="block text-sm text-muted-foreground">
            {booking.studioName} · {booking.photographerName}
          </span>
          {note ? <span className="block text-sm font-medium">{note}</span> : null}
        </span>
        <StateBadge
          state={booking.state}
          depositAwaited={booking.depositAwaited}
          depositHeld={booking.depositHeld}
        />
      </Link>
    </li>
  );
}

/** Blocked time: its label, what it blocks and when. */
export function blockedSummary(period: BlockedLine): string {
  const who = [
    period.studioName ?? "tous les studios",
    period.photographerName ?? "toutes les photographes",
  ];
  const sameDay = dayOf(period.startsAt) === dayOf(period.endsAt);
  const when = sameDay
    ? `${timeFr(period.startsAt)} – ${timeFr(period.endsAt)}`
    : `du ${longDayFr(dayOf(period.startsAt))} ${timeFr(period.startsAt)} au ${longDayFr(dayOf(period.endsAt))} ${timeFr(period.endsAt)}`;
  return `${when} · ${who.join(" · ")}`;
}

/** A day of the agenda: its heading, its blocked time, its bookings (or that it has none). */
export function AgendaDay({
  day,
  bookings,
  blocked,
  headingLevel = 2,
  now,
}: {
  day: string;
  bookings: readonly BookingLine[];
  blocked: readonly BlockedLine[];
  headingLevel?: 2 | 3;
  /** On today's list: the present moment, marked among the bookings where a phone opens (decision 0125). */
  now?: string;
}) {
  // « Maintenant » stands before the first booking not over yet.
  const nowAt = now ? bookings.findIndex((booking) => booking.endsAt > now) : -1;
  const nowMark = now ? (
    <li
      id="maintenant"
      className="flex items-center gap-2 text-sm font-semibold text-red-700 before:h-px before:flex-1 before:bg-red-700 after:h-px after:flex-1 after:bg-red-700"
    >
      Maintenant · {timeFr(now)}
    </li>
  ) : null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-label={longDayFr(day)} className="space-y-2">
      <Heading className="font-sans text-base font-semibold first-letter:uppercase">
        {longDayFr(day)}
      </Heading>
      {blocked.length > 0 ? (
        <ul className="space-y-1">
          {blocked.map((period) => (
            <li
              key={period.id}
              className="rounded-lg border border-dashed border-stone-400 bg-stone-100 px-3 py-2 text-sm"
            >
              <span className="font-semibold">{period.label}</span> · {blockedSummary(period)}
            </li>
          ))}
        </ul>
      ) : null}
      {bookings.length > 0 ? (
        <ul className="space-y-2">
          {bookings.map((booking, index) => (
            <Fragment key={booking.id}>
              {index === nowAt ? nowMark : null}
              <BookingItem booking={booking} />
            </Fragment>
          ))}
          {nowAt === -1 ? nowMark : null}
        </ul>
      ) : (
        <>
          {nowMark ? <ul>{nowMark}</ul> : null}
          <p className="text-sm text-muted-foreground">Aucune réservation.</p>
        </>
      )}
    </section>
  );
}

/**
 * The owner's choice of a start (a phone booking, a move): the day's free times as radio buttons, or any
 * other date and time in a field (outside the online hours; the database still refuses a taken time).
 */
export function OwnerSlotChoice({
  day,
  slots,
  chosen,
  otherTime,
  otherTimeError,
  otherTimeHint,
}: {
  day: string;
  slots: readonly { key: string; time: string }[];
  /** The radio checked when the form comes back. */
  chosen: string | undefined;
  otherTime: string;
  otherTimeError?: string;
  otherTimeHint: string;
}) {
  return (
    <>
      <fieldset>
        <legend className="text-sm font-semibold first-letter:uppercase">
          Horaires libres le {longDayFr(day)}
        </legend>
        {slots.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun horaire libre ce jour-là.</p>
        ) : (
          <div className="mt-2 flex flex-wrap gap-2">
            {slots.map((slot) => (
              <label
                key={slot.key}
                className="inline-flex min-h-11 items-center gap-2 rounded-md border border-border px-3 has-[:checked]:border-stone-800 has-[:checked]:bg-stone-100"
              >
                <input
                  type="radio"
                  name="slot"
                  value={slot.key}
                  defaultChecked={chosen === slot.key}
                  className="size-4 accent-stone-800"
                />
                <span className="sr-only">{longDayFr(day)} à </span>
                {clockFr(slot.time)}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <Field
        name="slotTime"
        label="Ou une autre date et heure"
        error={otherTimeError}
        hint={otherTimeHint}
      >
        {(props) => <Input {...props} type="datetime-local" defaultValue={otherTime} />}
      </Field>
    </>
  );
}
