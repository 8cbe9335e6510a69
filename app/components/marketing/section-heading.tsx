import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

type SectionHeadingProps = { id?: string; title: ReactNode; intro?: ReactNode; className?: string };

/** The centred h2 and introduction that open a section of a marketing page. */
export function SectionHeading({ id, title, intro, className }: SectionHeadingProps) {
  return (
    <div className={cn("mx-auto max-w-3xl text-center", className)}>
      <h2 id={id} className="text-3xl font-bold sm:text-4xl">
        {title}
      </h2>
      {intro ? <p className="mt-4 text-muted-foreground">{intro}</p> : null}
    </div>
  );
}

/** A page section: full-width band, centred content. */
export function Section({
  children,
  labelledBy,
  muted = false,
  className,
}: {
  children: ReactNode;
  /** Id of the section's heading. */
  labelledBy: string;
  muted?: boolean;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={labelledBy}
      className={cn("py-16 sm:py-20", muted && "bg-muted", className)}
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6">{children}</div>
    </section>
  );
}
