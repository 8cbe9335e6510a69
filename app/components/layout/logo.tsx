import { cn } from "~/lib/utils";

/** The studio's mark and name; the mark is the same drawing as public/images/logo.svg. */
export function Logo({ brand, className }: { brand: string; className?: string }) {
  return (
    <span className={cn("flex items-center gap-2.5 font-serif text-lg font-semibold", className)}>
      <svg viewBox="0 0 64 64" aria-hidden="true" className="size-9 shrink-0">
        <circle cx="32" cy="32" r="30" fill="#1c1917" />
        <circle cx="32" cy="32" r="22" fill="none" stroke="#d6a756" strokeWidth="3" />
        <g fill="#d6a756">
          <path d="M32 12 L40 26 L24 26 Z" />
          <path d="M52 32 L38 40 L38 24 Z" />
          <path d="M32 52 L24 38 L40 38 Z" />
          <path d="M12 32 L26 24 L26 40 Z" />
        </g>
        <circle cx="32" cy="32" r="5" fill="#1c1917" />
      </svg>
      <span>{brand}</span>
    </span>
  );
}
