import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { choiceClass } from "./booking-layout";
import { freeDayLabelFr, monthLabelFr, monthWeeks } from "~/lib/booking/month";
import { cn } from "~/lib/utils";

const WEEKDAYS = [
  ["lun.", "lundi"],
  ["mar.", "mardi"],
  ["mer.", "mercredi"],
  ["jeu.", "jeudi"],
  ["ven.", "vendredi"],
  ["sam.", "samedi"],
  ["dim.", "dimanche"],
] as const;

/**
 * A month of free days (decision 0124): a table of the month's weeks, each free day a link to its times
 * (« jeudi 3 décembre, 5 horaires libres »), the other days plain; the previous and next months as links.
 * Plain markup: it works without JavaScript, on a light page.
 */
export function MonthCalendar({
  month,
  days,
  selected,
  previousMonth,
  nextMonth,
  hrefOfDay,
  hrefOfMonth,
}: {
  month: string;
  days: { day: string; count: number }[];
  selected: string | null;
  previousMonth: string | null;
  nextMonth: string | null;
  hrefOfDay: (day: string) => string;
  hrefOfMonth: (month: string) => string;
}) {
  const free = new Map(days.map(({ day, count }) => [day, count]));
  const monthLink = (target: string | null, direction: "previous" | "next") =>
    target ? (
      <Link
        to={hrefOfMonth(target)}
        aria-label={`${direction === "previous" ? "Mois précédent" : "Mois suivant"} : ${monthLabelFr(target)}`}
        className="inline-flex size-11 items-center justify-center rounded-full border border-border bg-white hover:border-gold-dark"
      >
        {direction === "previous" ? (
          <ChevronLeft aria-hidden="true" className="size-5" />
        ) : (
          <ChevronRight aria-hidden="true" className="size-5" />
        )}
      </Link>
    ) : (
      <span className="size-11" />
    );
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        {monthLink(previousMonth, "previous")}
        <p id="mois-titre" className="text-lg font-semibold first-letter:uppercase">
          {monthLabelFr(month)}
        </p>
        {monthLink(nextMonth, "next")}
      </div>
      <table
        aria-labelledby="mois-titre"
        className="mt-3 w-full table-fixed border-separate border-spacing-1"
      >
        <thead>
          <tr>
            {WEEKDAYS.map(([short, long]) => (
              <th key={long} scope="col" className="text-xs font-medium text-muted-foreground">
                <abbr title={long} className="no-underline">
                  {short}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((day, index) => {
                if (day === null) return <td key={`vide-${index}`} />;
                const count = free.get(day);
                // « 1er » as the link's name says it (its visible text is part of its name).
                const number = day.endsWith("-01") ? "1er" : String(Number(day.slice(8)));
                return (
                  <td key={day} className="p-0 text-center">
                    {count ? (
                      <Link
                        to={hrefOfDay(day)}
                        aria-label={freeDayLabelFr(day, count)}
                        aria-current={day === selected ? "date" : undefined}
                        className={cn(
                          choiceClass,
                          "w-full justify-center px-0 font-semibold",
                          day === selected &&
                            "border-gold-dark bg-gold-dark text-white hover:bg-gold-dark",
                        )}
                      >
                        {number}
                      </Link>
                    ) : (
                      <span className="flex min-h-11 items-center justify-center text-muted-foreground">
                        {number}
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {days.length === 0 ? <p className="mt-3">Aucun jour libre en ligne ce mois-ci.</p> : null}
    </div>
  );
}
