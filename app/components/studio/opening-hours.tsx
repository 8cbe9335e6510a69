import type { WeeklyHours } from "~/content/studios";
import { openingLines } from "~/lib/opening-hours";
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
