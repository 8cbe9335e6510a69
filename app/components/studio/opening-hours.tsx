import { CalendarX } from "lucide-react";
import type { Closure, WeeklyHours } from "~/content/schemas";
import { closureText, openingLines } from "~/lib/opening-hours";
import { cn } from "~/lib/utils";

/** A studio's week, the same on its page and its contact page. */
export function OpeningHours({ hours, className }: { hours: WeeklyHours; className?: string }) {
  return (
    <dl className={cn("space-y-2", className)}>
      {openingLines(hours).map((line) => (
        <div key={line.days}>
          <dt className="font-semibold text-foreground">{line.days}</dt>
          {line.hours.map((text) => (
            <dd key={text} className="text-muted-foreground">
              {text}
            </dd>
          ))}
        </div>
      ))}
    </dl>
  );
}

/** The dated closures under way or to come (« Fermeture exceptionnelle du 24 décembre au 2 janvier »). */
export function Closures({ closures, className }: { closures: Closure[]; className?: string }) {
  if (closures.length === 0) return null;
  return (
    <ul className={cn("space-y-2", className)} aria-label="Fermetures exceptionnelles">
      {closures.map((closure) => (
        <li
          key={`${closure.from}-${closure.to}`}
          className="flex gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950"
        >
          <CalendarX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {closureText(closure)}
        </li>
      ))}
    </ul>
  );
}
