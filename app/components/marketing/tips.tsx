import type { ProcessStep } from "./process-steps";
import { cn } from "~/lib/utils";

/** Short pieces of advice, two by two. */
export function Tips({ tips, className }: { tips: ProcessStep[]; className?: string }) {
  return (
    <ul className={cn("grid gap-6 md:grid-cols-2", className)}>
      {tips.map((tip) => (
        <li
          key={tip.title}
          className="rounded-2xl border-l-4 border-gold-dark bg-white p-6 shadow-sm"
        >
          <h3 className="text-lg font-semibold">{tip.title}</h3>
          <p className="mt-2 text-sm text-muted-foreground">{tip.description}</p>
        </li>
      ))}
    </ul>
  );
}
