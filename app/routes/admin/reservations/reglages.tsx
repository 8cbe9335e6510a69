import { Trash2 } from "lucide-react";
import { Form } from "react-router";
import type { Route } from "./+types/reglages";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { MoveButtons } from "~/components/admin/move-buttons";
import { CalendarFeedSection } from "~/components/booking-admin/calendar-feed-section";
import {
  PhotographerFields,
  type PhotographerFormState,
} from "~/components/booking-admin/photographer-fields";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { Field, Input } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";

export { action, loader } from "./reglages.server";

export const meta: Route.MetaFunction = () => [
  { title: "Photographes et agenda - Administration" },
];

export default function BookingSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { studios, photographers, pairs, feedSince } = loaderData;
  const answer = actionData && "form" in actionData ? actionData : undefined;
  const stateOf = (form: string): PhotographerFormState | undefined =>
    answer && answer.form === form && "errors" in answer ? answer : undefined;
  const travelAnswer = stateOf("travel");
  const section = "space-y-4 rounded-xl border border-border bg-white p-4 sm:p-6";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Photographes et agenda"
        summary="Qui fait les séances, où, le temps de trajet entre les studios, et votre agenda sur téléphone."
      />
      <ReservationsNav />

      <section aria-labelledby="photographes" className={section}>
        <h2 id="photographes" className="font-sans text-lg font-semibold">
          Photographes
        </h2>
        <p className="text-sm text-muted-foreground">
          Chaque réservation occupe son studio et la photographe qui la fait : une photographe n'est
          jamais réservée à deux endroits à la fois, trajet compris.
        </p>
        {photographers.length > 1 ? (
          <p className="text-sm text-muted-foreground">
            Une réservation va à la première photographe libre de la liste, dans cet ordre.
          </p>
        ) : null}
        {photographers.map((person, index) => (
          <div key={person.id} className="space-y-2">
            <PhotographerFields
              studios={studios}
              photographer={person}
              state={stateOf(person.id)}
            />
            {photographers.length > 1 ? (
              <div className="flex flex-wrap items-center gap-2">
                <Form method="post" className="flex gap-1">
                  <input type="hidden" name="id" value={person.id} />
                  <MoveButtons name={person.name} index={index} count={photographers.length} />
                </Form>
                <ConfirmedActionForm
                  id={person.id}
                  intent="delete-photographer"
                  param="supprimer-photographe"
                  confirmation="Supprimer cette photographe ? Possible seulement si elle n'a aucune réservation ; ses congés bloqués disparaissent avec elle."
                  itemLabel={person.name}
                  variant="destructive"
                  label={
                    <>
                      <Trash2 aria-hidden="true" />
                      Supprimer
                    </>
                  }
                />
              </div>
            ) : null}
          </div>
        ))}
        <PhotographerFields studios={studios} state={stateOf("new")} />
      </section>

      <section aria-labelledby="trajets" className={section}>
        <h2 id="trajets" className="font-sans text-lg font-semibold">
          Temps de trajet entre les studios
        </h2>
        <p className="text-sm text-muted-foreground">
          Par exemple « 1 h 15 » ou « 75 ». Sans durée indiquée, 2 h sont comptées. Un changement
          vaut pour les prochaines réservations.
        </p>
        {pairs.length === 0 ? (
          <p className="text-sm">Un seul studio : pas de trajet à indiquer.</p>
        ) : (
          <Form method="post" noValidate className="space-y-3">
            <FormAlert
              message={
                travelAnswer
                  ? { type: "error", title: "Les temps de trajet ne sont pas enregistrés" }
                  : undefined
              }
            />
            {pairs.map((pair) => (
              <Field
                key={pair.field}
                name={pair.field}
                label={pair.label}
                error={travelAnswer?.errors[pair.field]}
                className="sm:grid sm:grid-cols-[14rem_10rem] sm:items-baseline sm:gap-x-3 [&>label]:sm:mb-0"
              >
                {(props) => (
                  <Input
                    {...props}
                    autoComplete="off"
                    maxLength={20}
                    placeholder="2 h"
                    defaultValue={travelAnswer?.values[pair.field] ?? pair.value}
                  />
                )}
              </Field>
            ))}
            <Button type="submit" name="intent" value="save-travel">
              Enregistrer les trajets
            </Button>
          </Form>
        )}
      </section>

      <CalendarFeedSection
        since={feedSince}
        feedUrl={answer && "feedUrl" in answer ? answer.feedUrl : null}
      />
    </div>
  );
}
