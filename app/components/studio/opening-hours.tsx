import type { HoursLine } from "~/content/studios";
import { cn } from "~/lib/utils";

/** One reading of a studio's opening hours, as a list of days and hours. */
export function OpeningHours({ lines, className }: { lines: HoursLine[]; className?: string }) {
  return (
    <dl className={cn("space-y-2", className)}>
      {lines.map((line) => (
        <div key={`${line.days}-${line.hours}`}>
          <dt className="font-semibold">{line.days}</dt>
          <dd className="text-muted-foreground">{line.hours}</dd>
        </div>
      ))}
    </dl>
  );
}
