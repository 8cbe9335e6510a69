import { Save } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { ADMIN_FORM_ID } from "~/components/admin/field";
import { PreviewButton, submitPreviewToNewTab } from "~/components/admin/preview-button";
import { Button } from "~/components/ui/button";
import { ErrorSummary, fieldMeta, FormAlert, focusFirstInvalid } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { cn } from "~/lib/utils";

/**
 * The form of one record the owner edits with « Prévisualiser » and « Enregistrer » (a studio, a session
 * type): Enter saves, the server's answer on top (its alert, then each field to correct in the fields'
 * order, the first focused), the fields, then the two buttons. Posts without JavaScript too.
 */
export function RecordForm({
  summaryId,
  notSaved,
  order,
  errors,
  labelOf,
  alert,
  saveLabel,
  stickyActions = false,
  preventScrollReset,
  children,
}: {
  /** The error summary's id (« studio-erreurs »). */
  summaryId: string;
  /** « Le studio n'est pas enregistré »: the summary's title before what is to correct. */
  notSaved: string;
  /** The fields' names in the order the form shows them. */
  order: readonly string[];
  errors: FieldErrors;
  labelOf: (name: string) => string;
  alert: ToastMessage | undefined;
  /** « Créer le studio », « Enregistrer ». */
  saveLabel: string;
  /** The buttons stay in view at the bottom of a long form. */
  stickyActions?: boolean;
  preventScrollReset?: boolean;
  children: ReactNode;
}) {
  const busy = useNavigation().state === "submitting";
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    focusFirstInvalid(form.current, order, errors);
    // Only when an answer arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [errors]);
  const summaryItems = Object.keys(errors)
    .sort((a, b) => order.indexOf(a) - order.indexOf(b))
    .map((name) => ({ field: fieldMeta(ADMIN_FORM_ID, name, errors[name]), label: labelOf(name) }));
  return (
    <Form
      method="post"
      noValidate
      ref={form}
      className="space-y-8"
      preventScrollReset={preventScrollReset}
      onSubmit={submitPreviewToNewTab}
    >
      {/* Enter in a field saves (the first submit button is the form's default one). */}
      <button type="submit" name="intent" value="save" hidden tabIndex={-1} aria-hidden="true" />
      <FormAlert message={alert} />
      <ErrorSummary
        id={summaryId}
        items={summaryItems}
        title={(count) =>
          count === 1
            ? `${notSaved} : un champ est à corriger.`
            : `${notSaved} : ${count} champs sont à corriger.`
        }
      />
      {children}
      <div
        className={cn(
          "flex flex-wrap justify-end gap-3",
          stickyActions &&
            "sticky bottom-0 z-10 gap-2 rounded-xl border border-border bg-white/95 p-3 shadow-sm",
        )}
      >
        <PreviewButton disabled={busy} />
        <Button type="submit" name="intent" value="save" disabled={busy}>
          <Save aria-hidden="true" />
          {busy ? "Enregistrement..." : saveLabel}
        </Button>
      </div>
    </Form>
  );
}
