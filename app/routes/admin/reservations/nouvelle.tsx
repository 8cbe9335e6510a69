import { Plus } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/nouvelle";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Input, Select, Textarea } from "~/components/admin/field";
import { OwnerSlotChoice } from "~/components/booking-admin/agenda-parts";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { answerField } from "~/lib/booking/admin-pages";
import { INTERNAL_NOTE_MAX } from "~/lib/booking/session-types";

export { action, loader } from "./nouvelle.server";

export const meta: Route.MetaFunction = () => [
  { title: "Ajouter une réservation - Administration" },
];

export default function NewBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { studios, sessionTypes, studioId, sessionTypeId, day, slots, busy, questions } =
    loaderData;
  const { photographers } = loaderData;
  const answer = actionData && "message" in actionData ? actionData : undefined;
  const value = (name: string, fallback = "") => answer?.values[name] ?? fallback;
  const errors = answer?.errors ?? {};
  const section = "space-y-4 rounded-xl border border-border bg-white p-4 sm:p-6";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Ajouter une réservation"
        summary="Une séance prise par téléphone : elle est confirmée aussitôt, sans passer par les règles de réservation en ligne (délai, horaires)."
      />
      <ReservationsNav />
      <FormAlert message={answer ? { type: "error", title: answer.message } : undefined} />
      <section aria-labelledby="choix" className={section}>
        <h2 id="choix" className="font-sans text-lg font-semibold">
          1. Studio, séance et jour
        </h2>
        <Form method="get" className="grid gap-4 sm:grid-cols-[1fr_1fr_11rem_auto] sm:items-end">
          <Field name="studio" label="Studio">
            {(props) => (
              <Select {...props} defaultValue={studioId ?? ""}>
                {studios.map((studio) => (
                  <option key={studio.id} value={studio.id}>
                    {studio.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field name="seance" label="Séance">
            {(props) => (
              <Select {...props} defaultValue={sessionTypeId ?? ""}>
                <option value="">Choisissez…</option>
                {sessionTypes.map((type) => (
                  <option key={type.id} value={type.id}>
                    {type.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field name="jour" label="Jour">
            {(props) => <Input {...props} type="date" defaultValue={day} />}
          </Field>
          {loaderData.askedHour ? (
            <input type="hidden" name="heure" value={loaderData.askedHour} />
          ) : null}
          <Button type="submit" variant="outline" className="min-h-11">
            Voir les horaires
          </Button>
        </Form>
        {loaderData.askedTypeMissing ? (
          <div role="alert" className="text-sm font-medium text-red-700">
            <p>Cette séance n'est pas proposée dans ce studio : choisissez-en une autre.</p>
            {loaderData.typeStudios.length > 0 ? (
              <p className="mt-1">
                Elle l'est au{" "}
                {loaderData.typeStudios.map((studio, index) => (
                  <span key={studio.href}>
                    {index > 0 ? ", au " : ""}
                    <Link to={studio.href} className="underline underline-offset-4">
                      {studio.name}
                    </Link>
                  </span>
                ))}
                .
              </p>
            ) : null}
          </div>
        ) : null}
      </section>

      {studioId && sessionTypeId ? (
        <Form method="post" noValidate className="space-y-6" aria-labelledby="details">
          <input type="hidden" name="studioId" value={studioId} />
          <input type="hidden" name="sessionTypeId" value={sessionTypeId} />
          <section className={section}>
            <h2 id="details" className="font-sans text-lg font-semibold">
              2. Horaire
            </h2>
            <OwnerSlotChoice
              day={day}
              slots={slots}
              chosen={value("slot", loaderData.askedSlot ?? "")}
              otherTime={value("slotTime", loaderData.askedOtherTime ?? "")}
              otherTimeError={errors.slotTime}
              otherTimeHint="N'importe quelle heure où le studio et une photographe sont libres."
            />
            <Field
              name="photographerId"
              label="Photographe"
              error={errors.photographerId}
              hint="Choix automatique : comme pour une réservation en ligne, la photographe déjà au studio ce jour-là, sinon celle qui couvre le moins de studios."
            >
              {(props) => (
                <Select {...props} defaultValue={value("photographerId")}>
                  <option value="">Choix automatique</option>
                  {photographers.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            {busy.length > 0 ? (
              <div className="text-sm">
                <h3 className="font-medium">Ce qui occupe ce jour-là</h3>
                <ul className="mt-1 list-disc space-y-1 pl-5 text-muted-foreground">
                  {busy.map((line, index) => (
                    <li key={`${index}-${line}`}>{line}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>
          <section className={section}>
            <h2 className="font-sans text-lg font-semibold">3. Client</h2>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field name="name" label="Nom" error={errors.name}>
                {(props) => (
                  <Input
                    {...props}
                    maxLength={200}
                    autoComplete="off"
                    defaultValue={value("name")}
                  />
                )}
              </Field>
              <Field name="phone" label="Téléphone" error={errors.phone}>
                {(props) => (
                  <Input
                    {...props}
                    type="tel"
                    maxLength={30}
                    autoComplete="off"
                    defaultValue={value("phone")}
                  />
                )}
              </Field>
            </div>
            <Field
              name="email"
              label="E-mail (facultatif)"
              error={errors.email}
              hint="Le client y reçoit la confirmation et son lien pour gérer la réservation. Sans e-mail, rien ne lui est envoyé : la page de la réservation vous donne ce lien à lui communiquer."
            >
              {(props) => (
                <Input
                  {...props}
                  type="email"
                  maxLength={255}
                  autoComplete="off"
                  defaultValue={value("email")}
                />
              )}
            </Field>
            {questions.map((question) => {
              const name = answerField(question.id);
              const label = `${question.label}${question.required ? "" : " (facultatif)"}`;
              return (
                <Field key={question.id} name={name} label={label} error={errors[name]}>
                  {(props) =>
                    question.kind === "text" ? (
                      <Textarea {...props} rows={2} maxLength={1000} defaultValue={value(name)} />
                    ) : (
                      <Select {...props} defaultValue={value(name)}>
                        <option value="">—</option>
                        {(question.kind === "yes_no" ? ["oui", "non"] : question.options).map(
                          (option) => (
                            <option key={option} value={option}>
                              {option}
                            </option>
                          ),
                        )}
                      </Select>
                    )
                  }
                </Field>
              );
            })}
            <div className="space-y-1">
              <label className="flex min-h-11 items-center gap-3 text-sm font-semibold">
                <input
                  type="checkbox"
                  name="silent"
                  id="champ-silent"
                  defaultChecked={value("silent") === "on"}
                  aria-describedby="champ-silent-aide"
                  className="size-5 accent-stone-800"
                />
                Ne pas envoyer d'e-mail au client
              </label>
              <p id="champ-silent-aide" className="text-sm text-muted-foreground">
                Ni confirmation, ni rappel, ni changement : le site n'écrit jamais au client pour
                cette réservation. La page de la réservation vous donne son lien à lui communiquer.
              </p>
            </div>
          </section>
          <section className={section}>
            <h2 className="font-sans text-lg font-semibold">4. Pour vous</h2>
            <Field
              name="internalNote"
              label="Note interne"
              error={errors.internalNote}
              hint="Visible seulement ici, sur la page de la réservation : jamais par le client ni dans ses e-mails."
            >
              {(props) => (
                <Textarea
                  {...props}
                  rows={3}
                  maxLength={INTERNAL_NOTE_MAX}
                  defaultValue={value("internalNote")}
                />
              )}
            </Field>
          </section>
          <Button type="submit">
            <Plus aria-hidden="true" />
            Ajouter la réservation
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
