import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { ConfirmedActionForm } from "./confirmed-action-form";

/** The search parameter that opens the confirmation of one row's delete (how it works without JavaScript). */
export const CONFIRM_DELETE_PARAM = "supprimer";

type DeleteFormProps = {
  id: string;
  /** The question asked first (SPEC §5 "Deletes"). */
  confirmation: string;
  /** Text naming what is deleted, e.g. the article's title. */
  itemLabel?: ReactNode;
};

/** A 'Supprimer' button for one row, confirmed in a dialog; posts `intent=delete` with the row's `id`. */
export function DeleteForm({ id, confirmation, itemLabel }: DeleteFormProps) {
  return (
    <ConfirmedActionForm
      id={id}
      intent="delete"
      param={CONFIRM_DELETE_PARAM}
      confirmation={confirmation}
      itemLabel={itemLabel}
      variant="destructive"
      label={
        <>
          <Trash2 aria-hidden="true" />
          Supprimer
        </>
      }
    />
  );
}
