import { lazy, Suspense, useRef, type ReactNode } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";
import { controlLook } from "~/components/ui/field";
import type { EditorProps } from "./rich-text-editor";

// TipTap and ProseMirror are browser code: the server's HTML only ever shows the plain text area, so the
// editor's module is imported once React runs in the browser and the server never loads it (decision
// record 0092).
// If its script cannot be fetched, the plain text area stays: the article can still be written and saved.
const RichTextEditor = lazy(() =>
  import("./rich-text-editor").then(
    (module) => ({ default: module.RichTextEditor }),
    () => ({ default: ({ fallback }: { fallback: ReactNode }) => fallback }),
  ),
);

/**
 * The article body's field: the rich-text editor once React runs in the browser; before it (the server's
 * HTML, or without JavaScript) a plain text area of the same name, so the form works without the editor.
 */
export function RichTextField(props: EditorProps) {
  const hydrated = useHydrated();
  const { name, id, defaultValue, invalid, describedBy } = props;
  // What the owner typed in the plain text area (before React ran, or while the editor's script loads)
  // goes on in the next text area and in the editor: the areas are replaced, never the text.
  // Each new text area takes it over when it appears (its props may date from an earlier render).
  const typed = useRef<string | undefined>(undefined);
  const plain = (
    <textarea
      id={id}
      name={name}
      rows={15}
      defaultValue={defaultValue}
      ref={(element) => {
        if (!element) return;
        if (typed.current === undefined) {
          if (element.value !== defaultValue) typed.current = element.value;
        } else if (element.value !== typed.current) {
          element.value = typed.current;
        }
      }}
      onInput={(event) => {
        typed.current = event.currentTarget.value;
      }}
      aria-labelledby={`${id}-libelle`}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      className={cn(controlLook, "py-2")}
    />
  );
  if (!hydrated) return plain;
  return (
    <Suspense fallback={plain}>
      <RichTextEditor {...props} typedText={() => typed.current} fallback={plain} />
    </Suspense>
  );
}
