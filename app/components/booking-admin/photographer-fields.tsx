import { Plus, Save } from "lucide-react";
import { instantLabelFr } from "~/lib/booking/words";
import { useId } from "react";
import { Form } from "react-router";
import { Field, Input } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import type { FieldErrors } from "~/lib/forms";

/** What the calendar field says under it: how to find the address, and how the last import went. */
function calendarHint(calendar: { syncedAt: string | null; error: string | null } | null): string {
  const how =
    "Ses rendez-vous personnels y deviennent des heures occupées (ni titres ni détails ne sont gardés), lues toutes les 15 minutes. Google Agenda : Paramètres › l'agenda › « Adresse secrète au format iCal ».";
  if (!calendar) return how;
  if (calendar.error) return `${how} Dernière lecture impossible : ${calendar.error}`;
  return calendar.syncedAt
    ? `${how} Dernière lecture : ${instantLabelFr(calendar.syncedAt)}.`
    : `${how} Première lecture dans les 15 minutes.`;
}

export type PhotographerFormState = { values: Record<string, string>; errors: FieldErrors };

/**
 * One photographer's form (her name, whether she takes new bookings, her studios), or, without
 * `photographer`, the form that adds one. After a refusal it shows what was typed.
 */
export function PhotographerFields({
  studios,
  photographer,
  state,
}: {
  studios: readonly { id: string; name: string }[];
  photographer?: {
    id: string;
    name: string;
    active: boolean;
    studioIds: string[];
    calendar: { url: string; syncedAt: string | null; error: string | null } | null;
  };
  state?: PhotographerFormState;
}) {
  const prefix = useId();
  const adding = photographer === undefined;
  const value = (name: string, stored: string) => state?.values[name] ?? stored;
  const checked = (name: string, stored: boolean) => (state ? state.values[name] === "on" : stored);
  const title = adding ? "Ajouter une photographe" : photographer.name;
  return (
    <Form
      method="post"
      noValidate
      className="space-y-3 rounded-lg border border-border p-4"
      aria-label={title}
    >
      <h3 className="font-sans text-base font-semibold">{title}</h3>
      {photographer ? <input type="hidden" name="id" value={photographer.id} /> : null}
      <Field
        name={adding ? "nouvelle-photographe" : `photographe-${photographer.id}`}
        label="Nom"
        error={state?.errors.name}
      >
        {(props) => (
          <Input
            {...props}
            name="name"
            maxLength={100}
            autoComplete="off"
            defaultValue={value("name", photographer?.name ?? "")}
          />
        )}
      </Field>
      <fieldset>
        <legend className="text-sm font-semibold">Studios</legend>
        <div className="mt-1 flex flex-wrap gap-x-6">
          {studios.map((studio) => {
            const id = `${prefix}-${studio.id}`;
            return (
              <div key={studio.id} className="flex min-h-11 items-center gap-2">
                <input
                  id={id}
                  type="checkbox"
                  name={`studio-${studio.id}`}
                  defaultChecked={checked(
                    `studio-${studio.id}`,
                    photographer ? photographer.studioIds.includes(studio.id) : true,
                  )}
                  className="size-5 accent-stone-800"
                />
                <label htmlFor={id} className="text-sm">
                  {studio.name}
                </label>
              </div>
            );
          })}
        </div>
      </fieldset>
      {photographer ? (
        <Field
          name={`agenda-${photographer.id}`}
          label="Son agenda personnel (adresse iCal, facultative)"
          error={state?.errors.calendarUrl}
          hint={calendarHint(photographer.calendar)}
        >
          {(props) => (
            <Input
              {...props}
              name="calendarUrl"
              type="url"
              inputMode="url"
              autoComplete="off"
              maxLength={2000}
              placeholder="https://…/basic.ics"
              defaultValue={value("calendarUrl", photographer.calendar?.url ?? "")}
            />
          )}
        </Field>
      ) : null}
      {photographer ? (
        <div className="flex min-h-11 items-center gap-2">
          <input
            id={`${prefix}-active`}
            type="checkbox"
            name="active"
            defaultChecked={checked("active", photographer.active)}
            className="size-5 accent-stone-800"
          />
          <label htmlFor={`${prefix}-active`} className="text-sm">
            Prend de nouvelles réservations
          </label>
        </div>
      ) : null}
      <Button
        type="submit"
        name="intent"
        value={adding ? "add-photographer" : "save-photographer"}
        variant={adding ? "outline" : "default"}
        size="sm"
      >
        {adding ? <Plus aria-hidden="true" /> : <Save aria-hidden="true" />}
        {adding ? "Ajouter" : "Enregistrer"}
        {adding ? null : <span className="sr-only"> « {photographer.name} »</span>}
      </Button>
    </Form>
  );
}
