import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/** The colours of a state in the admin's lists: done, planned, waiting, failed, a draft, over. */
const TONES = {
  success: "bg-emerald-100 text-emerald-900",
  info: "bg-sky-100 text-sky-900",
  warning: "bg-amber-100 text-amber-900",
  danger: "bg-red-100 text-red-900",
  neutral: "bg-stone-200 text-stone-800",
  muted: "bg-stone-100 text-stone-700",
} as const;

export type StatusTone = keyof typeof TONES;

/** A short state (« Publié », « À traiter », « abandonné »…) as a coloured pill in the admin's lists. */
export function StatusBadge({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return (
    <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", TONES[tone])}>
      {children}
    </span>
  );
}
