import { Check } from "lucide-react";
import { cn } from "~/lib/utils";

/** The "what you get" list of a card. */
export function FeatureList({ features, className }: { features: string[]; className?: string }) {
  return (
    <ul className={cn("space-y-2 text-sm", className)}>
      {features.map((feature) => (
        <li key={feature} className="flex items-start gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-dark" />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}
