import type { ReactNode } from "react";
import { Link } from "react-router";
import { dayLabelFr, slotLabelFr, timeLabelFr } from "~/lib/booking/words";
import { cn } from "~/lib/utils";

/*
 * The parts of the visitor's booking pages (decision 0115): server-rendered, light (no framework script), every
 * choice a real link or button of at least 44 px, labelled in full French for screen readers.
 */

/** A booking page: where the visitor is (a trail of the steps done), a title, the step's content. */
export function BookingPage({
  trail,
  title,
  intro,
  children,
}: {
  trail: { label: string; to?: string }[];
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 pt-28 pb-16 sm:px-6">
      {trail.length > 0 ? (
        <nav aria-label="Étapes de la réservation" className="text-sm text-muted-foreground">
          <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
            {trail.map((step, index) => (
              <li key={step.label} className="flex items-center gap-2">
                {index > 0 ? <span aria-hidden="true">›</span> : null}
                {step.to ? (
                  <Link
                    to={step.to}
                    className="inline-flex min-h-11 items-center underline underline-offset-4 hover:text-gold-dark"
                  >
                    {step.label}
                  </Link>
                ) : (
                  <span aria-current="step" className="font-semibold text-foreground">
                    {step.label}
                  </span>
                )}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <h1 className="mt-4 text-3xl font-bold sm:text-4xl">{title}</h1>
      {intro ? <div className="mt-3 text-muted-foreground">{intro}</div> : null}
      <div className="mt-8 space-y-8">{children}</div>
    </div>
  );
}

export const choiceClass =
  "flex min-h-11 items-center justify-between gap-3 rounded-xl border border-border bg-white px-4 py-3 text-left font-medium shadow-sm transition-colors hover:border-gold-dark hover:bg-amber-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-dark";

/** The free times of a day as links (a new booking) or as buttons of a POST form (a move). */
export function TimeChoices({
  slots,
  hrefOf,
  buttonName,
}: {
  slots: { key: string; time: string }[];
  hrefOf?: (key: string) => string;
  /** Buttons named so (their value: the slot key) instead of links. */
  buttonName?: string;
}) {
  return (
    <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
      {slots.map((slot) => {
        const label = `${slotLabelFr(slot.key)}, disponible`;
        return (
          <li key={slot.key}>
            {buttonName ? (
              <button
                type="submit"
                name={buttonName}
                value={slot.key}
                aria-label={label}
                className={cn(choiceClass, "w-full justify-center")}
              >
                {timeLabelFr(slot.time)}
              </button>
            ) : (
              <Link
                to={hrefOf?.(slot.key) ?? "#"}
                aria-label={label}
                className={cn(choiceClass, "w-full justify-center")}
              >
                {timeLabelFr(slot.time)}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The next free times after a refused one. Once her day is full they fall on other days: each day's times then
 * stand under that day's heading, so the hour she clicks is on a day she can see.
 */
export function NextFreeTimes({
  slots,
  chosenDay,
  headingLevel,
  ...choices
}: {
  slots: { key: string; time: string }[];
  /** The day of the time she chose (null: her address named no time). */
  chosenDay: string | null;
  /** The days' headings, one below the heading of the times. */
  headingLevel: 3 | 4;
  hrefOf?: (key: string) => string;
  buttonName?: string;
}) {
  const days: { day: string; slots: { key: string; time: string }[] }[] = [];
  for (const slot of slots) {
    const day = slot.key.slice(0, 10);
    const last = days.at(-1);
    if (last?.day === day) last.slots.push(slot);
    else days.push({ day, slots: [slot] });
  }
  if (days.length === 1 && days[0]?.day === chosenDay) {
    return <TimeChoices slots={slots} {...choices} />;
  }
  const DayHeading = headingLevel === 3 ? "h3" : "h4";
  return (
    <div className="space-y-4">
      {days.map(({ day, slots: times }) => (
        <div key={day} className="space-y-2">
          {/* Sans at either level: the base style sets an h3, not an h4, in the serif. */}
          <DayHeading className="font-sans text-sm font-semibold first-letter:uppercase">
            {dayLabelFr(day, true)}
          </DayHeading>
          <TimeChoices slots={times} {...choices} />
        </div>
      ))}
    </div>
  );
}

/** A message the page must say at once (a refusal, a slot taken, a change done). */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: "error" | "success" | "info";
  title: string;
  children?: ReactNode;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "rounded-xl border p-4",
        tone === "error" && "border-red-300 bg-red-50 text-red-900",
        tone === "success" && "border-emerald-300 bg-emerald-50 text-emerald-900",
        tone === "info" && "border-border bg-muted",
      )}
    >
      <p className="font-semibold">{title}</p>
      {children ? <div className="mt-1">{children}</div> : null}
    </div>
  );
}

export const NO_INDEX = { name: "robots", content: "noindex, nofollow" } as const;
