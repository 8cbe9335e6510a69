import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/utils";

export const inputClass =
  "block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-base text-foreground shadow-sm placeholder:text-stone-500 focus-visible:border-gold-dark aria-invalid:border-destructive sm:text-sm";

type FieldProps = {
  /** The form field's name; also the base of the ids. */
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: (props: {
    id: string;
    name: string;
    "aria-invalid": boolean | undefined;
    "aria-describedby": string | undefined;
  }) => ReactNode;
};

/** A labelled control with its hint and error message wired for assistive technologies. */
export function Field({ name, label, error, hint, className, children }: FieldProps) {
  const id = `champ-${name}`;
  const describedBy =
    [hint ? `${id}-aide` : null, error ? `${id}-erreur` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })}
      {hint ? (
        <p id={`${id}-aide`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-erreur`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(inputClass, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(inputClass, className)} {...props} />;
}
