import { ExternalLink as ExternalIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A link that leaves the site in a new tab, and says so to screen readers. */
export function ExternalLink({
  href,
  className,
  children,
}: {
  href: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <ExternalIcon aria-hidden="true" />
      <span className="sr-only"> (nouvel onglet)</span>
    </a>
  );
}
