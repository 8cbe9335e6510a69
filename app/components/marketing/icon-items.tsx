import { Icon } from "~/components/ui/icon";
import type { IconName } from "~/content/schemas";
import { cn } from "~/lib/utils";

export type IconItem = { title: string; description: string; icon: IconName };

/** A grid of short points with an icon each: reasons to choose us, commitments, services. */
export function IconItems({ items, className }: { items: IconItem[]; className?: string }) {
  return (
    <ul className={cn("grid gap-6 sm:grid-cols-2 lg:grid-cols-3", className)}>
      {items.map(({ title, description, icon }) => (
        <li key={title} className="rounded-2xl border border-border bg-white p-6 shadow-sm">
          <Icon name={icon} className="size-8 text-gold-dark" />
          <h3 className="mt-4 text-lg font-semibold">{title}</h3>
          <p className="mt-2 text-sm text-muted-foreground">{description}</p>
        </li>
      ))}
    </ul>
  );
}
