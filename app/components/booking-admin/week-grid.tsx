import { Link } from "react-router";
import { clockFr, longDayFr } from "~/lib/booking/agenda-format";
import { bookingStateLabel, isCalledOff } from "~/lib/booking/model";
import {
  closedSpans,
  dayOpening,
  gridHours,
  hourClosed,
  placeDay,
  type PlacedItem,
  type StudioOpening,
} from "~/lib/booking/week-layout";
import { cn } from "~/lib/utils";
import type { BlockedLine, BookingLine } from "~/lib/booking/agenda-lines";
import { blockedSummary, timeFr } from "./agenda-parts";

/*
 * The agenda's week as a time grid on a wide screen (decision 0116): a column per day, each booking drawn at its
 * Paris time and as long as it lasts, side by side when two studios overlap, blocked time hatched behind.
 * Server-rendered links; a phone keeps the week as a list of days (the agenda shows one or the other).
 */

/** Pixels per hour: a 30-minute session is 32 px high, a comfortable target. */
const HOUR_HEIGHT = 64;

/**
 * One colour per studio, in the owner's order (decision 0125): the booking's band and background, and the
 * legend's swatch. Never the only sign: each booking writes its studio's name too.
 */
const STUDIO_COLOURS = [
  { block: "border-sky-700 bg-sky-50", swatch: "bg-sky-700" },
  { block: "border-violet-700 bg-violet-50", swatch: "bg-violet-700" },
  { block: "border-emerald-700 bg-emerald-50", swatch: "bg-emerald-700" },
  { block: "border-amber-700 bg-amber-50", swatch: "bg-amber-700" },
  { block: "border-rose-700 bg-rose-50", swatch: "bg-rose-700" },
  { block: "border-teal-700 bg-teal-50", swatch: "bg-teal-700" },
] as const;

const colourOf = (studios: readonly { name: string }[], name: string) => {
  const index = studios.findIndex((studio) => studio.name === name);
  return (
    STUDIO_COLOURS[(index < 0 ? studios.length : index) % STUDIO_COLOURS.length] ??
    STUDIO_COLOURS[0]
  );
};

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

/** « lundi », « 7 » and « décembre 2026 » of « lundi 7 décembre 2026 ». */
function dayParts(day: string): { name: string; date: string; rest: string } {
  const [name = "", date = "", ...rest] = longDayFr(day).split(" ");
  return { name, date, rest: rest.join(" ") };
}

function position(
  entry: PlacedItem<{ id: string; startsAt: string; endsAt: string }>,
  minutes: number,
) {
  return {
    top: percent(entry.top, minutes),
    height: percent(entry.height, minutes),
    left: percent(entry.lane, entry.lanes),
    width: percent(1, entry.lanes),
  };
}

export function WeekGrid({
  days,
  today,
  bookings,
  blocked,
  studios,
  openings,
  dayHref,
  newBookingHref,
}: {
  days: readonly string[];
  today: string;
  bookings: readonly BookingLine[];
  blocked: readonly BlockedLine[];
  /** The studios in the owner's order: their colours. */
  studios: readonly { id: string; name: string }[];
  /** The hours of the studios shown (one when filtered): the time none is open is shaded. */
  openings: readonly StudioOpening[];
  dayHref: (day: string) => string;
  /** The phone-booking form, prefilled with a day and an hour: a tap on a free time adds a booking there. */
  newBookingHref: (day: string, time: string) => string;
}) {
  const shown = bookings.filter((booking) => !isCalledOff(booking.state));
  const hours = gridHours(days, shown);
  const minutes = (hours.last - hours.first) * 60;
  const hourLabels = Array.from(
    { length: hours.last - hours.first },
    (_, index) => hours.first + index,
  );
  const columns = "grid grid-cols-[3rem_repeat(7,minmax(0,1fr))]";
  return (
    <div className="space-y-2">
      <ul aria-label="Couleurs des studios" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {studios.map((studio) => (
          <li key={studio.id} className="inline-flex items-center gap-2">
            <span
              aria-hidden="true"
              className={cn("size-3 rounded-sm", colourOf(studios, studio.name).swatch)}
            />
            {studio.name}
          </li>
        ))}
      </ul>
      <div className={cn(columns, "border-b border-border pb-2")}>
        <span aria-hidden="true" />
        {days.map((day) => {
          const { name, date, rest } = dayParts(day);
          return (
            <h3 key={day} className="px-1 text-center font-sans text-sm font-semibold">
              <Link
                to={dayHref(day)}
                aria-current={day === today ? "date" : undefined}
                className={cn(
                  "inline-flex min-h-11 flex-col items-center justify-center rounded-md px-2 hover:bg-muted",
                  day === today && "bg-stone-800 text-white hover:bg-stone-700",
                )}
              >
                <span>{name}</span> <span className="text-base">{date}</span>
                <span className="sr-only"> {rest}</span>
              </Link>
            </h3>
          );
        })}
      </div>
      <div className={columns}>
        <ol
          aria-hidden="true"
          className="relative"
          style={{ height: (minutes / 60) * HOUR_HEIGHT }}
        >
          {hourLabels.map((hour, index) => (
            <li
              key={hour}
              className="absolute right-2 -translate-y-1/2 text-xs text-muted-foreground tabular-nums"
              style={{ top: percent(index * 60, minutes) }}
            >
              {index === 0 ? "" : `${hour} h`}
            </li>
          ))}
        </ol>
        {days.map((day) => {
          const dayBlocked = placeDay(day, blocked, hours);
          const dayBookings = placeDay(day, shown, hours);
          const opening = dayOpening(day, openings);
          return (
            <section
              key={day}
              aria-label={longDayFr(day)}
              className="relative border-l border-border"
              style={{
                height: (minutes / 60) * HOUR_HEIGHT,
                backgroundImage: `repeating-linear-gradient(to bottom, var(--color-border) 0 1px, transparent 1px ${HOUR_HEIGHT}px)`,
              }}
            >
              {/* The studios' hours in words, and the closed time hatched and named (decision 0138). */}
              <p className="sr-only">{opening.summary}.</p>
              {closedSpans(opening.open, hours).map((span) => (
                <div
                  key={span.top}
                  aria-hidden="true"
                  className="pointer-events-none absolute inset-x-0 flex items-start justify-center overflow-hidden border-y border-stone-300 bg-[repeating-linear-gradient(45deg,var(--color-stone-100)_0_5px,var(--color-stone-300)_5px_7px)] pt-1 text-xs font-medium text-stone-700"
                  style={{ top: percent(span.top, minutes), height: percent(span.height, minutes) }}
                >
                  {span.height >= 30 ? (
                    <span className="rounded-sm bg-stone-100 px-1">Fermé</span>
                  ) : null}
                </div>
              ))}
              {/* Under everything: each hour is a link to add a booking there (tap a free time). */}
              {hourLabels.map((hour, index) => (
                <Link
                  key={hour}
                  to={newBookingHref(day, `${String(hour).padStart(2, "0")}:00`)}
                  tabIndex={-1}
                  aria-label={`Réserver le ${longDayFr(day)} à ${clockFr(`${hour}:00`)}${
                    hourClosed(opening.open, hour) ? ", hors des heures d'ouverture" : ""
                  }`}
                  className="absolute inset-x-0 hover:bg-amber-50/60"
                  style={{ top: percent(index * 60, minutes), height: percent(60, minutes) }}
                />
              ))}
              {dayBlocked.map((entry) => (
                <p
                  key={entry.item.id}
                  className="absolute overflow-hidden border border-dashed border-stone-400 bg-[repeating-linear-gradient(135deg,var(--color-stone-100)_0_6px,var(--color-stone-200)_6px_12px)] p-1 text-xs"
                  style={{ ...position(entry, minutes), left: 0, width: "100%" }}
                >
                  <span className="font-semibold">{entry.item.label}</span>
                  {/* Whose time it is, on the grid itself (decision 0125). */}
                  <span className="block">
                    {entry.item.photographerName ?? "Toutes les photographes"} ·{" "}
                    {entry.item.studioName ?? "tous les studios"}
                  </span>
                  <span className="sr-only"> · {blockedSummary(entry.item)}</span>
                </p>
              ))}
              <ul>
                {dayBookings.map((entry) => (
                  <li
                    key={entry.item.id}
                    className="absolute p-0.5"
                    style={position(entry, minutes)}
                  >
                    <Link
                      to={`/admin/reservations/${entry.item.id}`}
                      className={cn(
                        "relative block h-full overflow-hidden rounded-md border-l-4 px-1.5 py-0.5 text-xs leading-tight shadow-sm hover:brightness-95 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-stone-800",
                        colourOf(studios, entry.item.studioName).block,
                        entry.item.state === "pending" && "border-dashed",
                      )}
                    >
                      {/* The studio first, never cut: the colour is not the only sign. */}
                      <span className="block font-semibold break-words">
                        {entry.item.studioName}
                      </span>{" "}
                      <span className="font-semibold tabular-nums">
                        {timeFr(entry.item.startsAt)}
                        <span className="sr-only"> – {timeFr(entry.item.endsAt)}</span>
                      </span>{" "}
                      <span>{entry.item.clientName}</span>
                      <span className="block truncate text-muted-foreground">
                        {entry.item.sessionTypeName}
                      </span>
                      {entry.item.state === "confirmed" ? null : (
                        <span className="block font-medium">
                          {bookingStateLabel(
                            entry.item.state,
                            entry.item.depositAwaited,
                            entry.item.depositHeld,
                          )}
                        </span>
                      )}
                      <span className="sr-only"> · {entry.item.photographerName}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
      <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
        <span>
          De {clockFr(`${hours.first}:00`)} à {clockFr(`${hours.last}:00`)}.
        </span>
        <span className="inline-flex items-center gap-2">
          <span
            aria-hidden="true"
            className="inline-block size-3 border border-stone-300 bg-[repeating-linear-gradient(45deg,var(--color-stone-100)_0_3px,var(--color-stone-300)_3px_5px)]"
          />
          {openings.length === 1
            ? "Hachuré : le studio est fermé."
            : "Hachuré : tous les studios sont fermés."}
        </span>
        <span>
          Les réservations annulées, refusées, expirées ou non payées sont dans la vue « Liste ».
        </span>
      </p>
    </div>
  );
}
