import { Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";

/** A read-only value with a button that copies it (selectable by hand without JavaScript). */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="min-h-11 w-full rounded-md border border-border px-3 font-mono text-sm"
        />
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          <Copy aria-hidden="true" />
          Copier<span className="sr-only"> {label.toLowerCase()}</span>
        </Button>
      </div>
      <p aria-live="polite" className="text-sm text-muted-foreground">
        {copied ? `${label} copié.` : ""}
      </p>
    </div>
  );
}
