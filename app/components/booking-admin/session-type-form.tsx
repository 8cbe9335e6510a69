import { AddItemButton, ListItem } from "~/components/admin/document-form";
import { ADMIN_FORM_ID, Field, Input, Select, Textarea } from "~/components/admin/field";
import { RecordForm } from "~/components/admin/record-form";
import { fieldMeta } from "~/components/ui/field";
import {
  DEPOSIT_LABELS,
  hoursOverrideField,
  MAX_QUESTIONS,
  QUESTION_KIND_LABELS,
  questionCount,
  questionField,
  questionIntent,
  studioField,
  WEEKDAYS,
} from "~/lib/booking/session-type-form";
import { QUESTION_KINDS } from "~/lib/booking/session-types";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

const LABELS: Record<string, string> = {
  name: "Nom de la séance",
  slug: "Adresse",
  description: "Description",
  photoId: "Photo",
  durationMinutes: "Durée",
  bufferBeforeMinutes: "Préparation avant",
  bufferAfterMinutes: "Rangement après",
  studios: "Studios",
  priceText: "Prix",
  includedText: "Ce qui est compris",
  minimumNoticeHours: "Délai minimum",
  horizonDays: "Réservable jusqu'à",
  stepMinutes: "Intervalle des horaires",
  mode: "Réservation",
  responseDeadlineHours: "Délai de réponse",
  depositKind: "Acompte ou arrhes",
  depositText: "Montant et règlement",
  visibility: "Visibilité",
  cancellationCutoffHours: "Annulation en ligne",
  questions: "Questions",
  form: "Séance",
};

function labelOf(name: string): string {
  const day = WEEKDAYS.find(({ day: candidate }) => hoursOverrideField(candidate) === name);
  if (day) return `Horaires du ${day.label.toLowerCase()}`;
  const question = /^question-(\d+)-(\w+)$/.exec(name);
  if (question) return `Question ${Number(question[1]) + 1}`;
  return LABELS[name] ?? name;
}

type SessionTypeFormProps = {
  creating: boolean;
  values: Record<string, string>;
  errors: FieldErrors | undefined;
  alert: ToastMessage | undefined;
  studios: readonly { id: string; name: string }[];
  photos: readonly { value: string; label: string }[];
  /** The card of /tarifs whose offer this type is (decision 0127): its price and inclusions win. */
  priceCard?: { title: string; price: string } | null;
};

/** Every setting of a session type, in one form that posts without JavaScript. */
export function SessionTypeForm({
  creating,
  values,
  errors = {},
  alert,
  studios,
  photos,
  priceCard,
}: SessionTypeFormProps) {
  const questions = questionCount(values);
  const order = [
    ...Object.keys(LABELS),
    ...WEEKDAYS.map(({ day }) => hoursOverrideField(day)),
    ...Array.from({ length: questions }, (_, index) =>
      (["kind", "label", "options"] as const).map((part) => questionField(index, part)),
    ).flat(),
  ];

  const text = (name: string) => values[name] ?? "";
  const input = (
    name: string,
    label: string,
    options: { hint?: string; suffix?: string; maxLength?: number; numeric?: boolean } = {},
  ) => (
    <Field name={name} label={label} error={errors[name]} hint={options.hint}>
      {(props) =>
        options.numeric ? (
          <div className="flex items-center gap-2">
            <Input
              {...props}
              inputMode="numeric"
              autoComplete="off"
              className="w-28"
              defaultValue={text(name)}
            />
            {options.suffix ? <span className="text-sm">{options.suffix}</span> : null}
          </div>
        ) : (
          <Input
            {...props}
            autoComplete="off"
            maxLength={options.maxLength}
            defaultValue={text(name)}
          />
        )
      }
    </Field>
  );
  const area = (name: string, label: string, hint?: string, rows = 3) => (
    <Field name={name} label={label} error={errors[name]} hint={hint}>
      {(props) => <Textarea {...props} rows={rows} defaultValue={text(name)} />}
    </Field>
  );
  const choice = (
    name: string,
    label: string,
    choices: readonly { value: string; label: string }[],
    hint?: string,
  ) => (
    <Field name={name} label={label} error={errors[name]} hint={hint}>
      {(props) => (
        <Select {...props} defaultValue={text(name)}>
          {choices.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );

  const studiosError = fieldMeta(ADMIN_FORM_ID, "studios", errors.studios);
  const section = "space-y-4 rounded-xl border border-border bg-white p-4 sm:p-6";
  const legend = "px-1 font-sans text-lg font-semibold";

  return (
    <RecordForm
      summaryId="seance-erreurs"
      notSaved="La séance n'est pas enregistrée"
      order={order}
      errors={errors}
      labelOf={labelOf}
      alert={alert}
      saveLabel={creating ? "Créer la séance" : "Enregistrer"}
      stickyActions
      preventScrollReset
    >
      <input type="hidden" name="questionCount" value={questions} />

      <fieldset className={section}>
        <legend className={legend}>La séance</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {input("name", "Nom de la séance", { maxLength: 150 })}
          {input("slug", "Adresse", {
            maxLength: 100,
            hint: "Lettres minuscules, chiffres et tirets. Laissez vide : elle se déduit du nom.",
          })}
        </div>
        {area("description", "Description", "Ce que les visiteurs lisent avant de choisir.", 4)}
        <Field
          name="photoId"
          label="Photo (facultative)"
          error={errors.photoId}
          hint="Une photo de la médiathèque, décrite par son texte alternatif. Pour en ajouter une : Photos › Téléverser."
        >
          {(props) => (
            <Select {...props} defaultValue={text("photoId")}>
              <option value="">Sans photo</option>
              {photos.map((photo) => (
                <option key={photo.value} value={photo.value}>
                  {photo.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {priceCard ? (
          <p className="rounded-md border border-gold-dark bg-amber-50 p-3 text-sm">
            Cette séance est l'offre de la carte « {priceCard.title} » de la page Tarifs : elle est
            vendue à son prix ({priceCard.price}), avec ses lignes comme « ce qui est compris ».
            Pour les changer, modifiez la carte dans <a href="/admin/tarifs">Tarifs</a> ; les deux
            champs ci-dessous ne servent que si aucune carte ne la nomme.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {input("priceText", "Prix", {
            maxLength: 200,
            hint: "Par exemple 129 € ou à partir de 90 €.",
          })}
        </div>
        {area(
          "includedText",
          "Ce qui est compris",
          "Par exemple : 10 photos retouchées, galerie en ligne.",
        )}
      </fieldset>

      <fieldset
        className={section}
        aria-describedby={errors.studios ? studiosError.errorId : undefined}
      >
        <legend className={legend}>Studios qui la proposent</legend>
        {errors.studios ? (
          <p id={studiosError.errorId} className="text-sm font-medium text-red-700">
            {errors.studios}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {studios.map((studio, index) => (
            <div key={studio.id} className="flex min-h-11 items-center gap-2">
              <input
                id={index === 0 ? studiosError.id : `${ADMIN_FORM_ID}-${studioField(studio.id)}`}
                type="checkbox"
                name={studioField(studio.id)}
                defaultChecked={text(studioField(studio.id)) === "on"}
                className="size-5 accent-stone-800"
              />
              <label
                htmlFor={
                  index === 0 ? studiosError.id : `${ADMIN_FORM_ID}-${studioField(studio.id)}`
                }
                className="text-sm font-semibold"
              >
                {studio.name}
              </label>
            </div>
          ))}
        </div>
      </fieldset>

      <fieldset className={section}>
        <legend className={legend}>Durée et horaires</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          {input("durationMinutes", "Durée", { numeric: true, suffix: "minutes" })}
          {input("bufferBeforeMinutes", "Préparation avant", {
            numeric: true,
            suffix: "minutes",
            hint: "Le studio est pris avant la séance.",
          })}
          {input("bufferAfterMinutes", "Rangement après", {
            numeric: true,
            suffix: "minutes",
            hint: "Le studio est pris après la séance.",
          })}
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          {input("stepMinutes", "Intervalle des horaires", {
            numeric: true,
            suffix: "minutes",
            hint: "30 : des débuts à 9h, 9h30, 10h…",
          })}
          {input("minimumNoticeHours", "Délai minimum", {
            numeric: true,
            suffix: "heures",
            hint: "Pas de réservation moins de … heures à l'avance (24 par défaut).",
          })}
          {input("horizonDays", "Réservable jusqu'à", {
            numeric: true,
            suffix: "jours",
            hint: "À l'avance (90 par défaut).",
          })}
        </div>
        <div className="space-y-3">
          <p className="text-sm text-muted-foreground">
            Horaires réservables : laissez un jour vide pour reprendre les horaires d'ouverture du
            studio, écrivez « 9h–12h, 14h–18h » pour d'autres horaires, ou « fermé » pour ne pas
            proposer cette séance ce jour-là. Les fermetures du studio s'appliquent toujours.
          </p>
          {WEEKDAYS.map(({ day, label }) => (
            <Field
              key={day}
              name={hoursOverrideField(day)}
              label={label}
              error={errors[hoursOverrideField(day)]}
              className="sm:grid sm:grid-cols-[8rem_1fr] sm:items-baseline sm:gap-x-3 [&>label]:sm:mb-0"
            >
              {(props) => (
                <Input
                  {...props}
                  maxLength={300}
                  placeholder="Horaires du studio"
                  defaultValue={text(hoursOverrideField(day))}
                />
              )}
            </Field>
          ))}
        </div>
      </fieldset>

      <fieldset className={section}>
        <legend className={legend}>Réservation</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {choice("mode", "Réservation", [
            { value: "instant", label: "Immédiate : le créneau est réservé aussitôt" },
            { value: "request", label: "Sur demande : vous acceptez ou refusez" },
          ])}
          {input("responseDeadlineHours", "Délai de réponse (sur demande)", {
            numeric: true,
            suffix: "heures",
            hint: "Le créneau reste bloqué pendant ce délai ; sans réponse, il se libère.",
          })}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {choice("visibility", "Visibilité", [
            { value: "public", label: "Publique : proposée sur la page Réserver" },
            { value: "private", label: "Privée : seulement par son lien" },
          ])}
          {input("cancellationCutoffHours", "Annulation en ligne", {
            numeric: true,
            suffix: "heures avant",
            hint: "Jusqu'à quand le client peut annuler ou déplacer lui-même (48 par défaut).",
          })}
        </div>
        <div className="grid gap-4 sm:grid-cols-[14rem_1fr]">
          {choice(
            "depositKind",
            "Acompte ou arrhes",
            [
              { value: "", label: "Aucun" },
              { value: "acompte", label: DEPOSIT_LABELS.acompte },
              { value: "arrhes", label: DEPOSIT_LABELS.arrhes },
            ],
            "Des arrhes se perdent si le client annule ; un acompte engage les deux parties.",
          )}
          {input("depositText", "Montant et règlement", {
            maxLength: 500,
            hint: "Par exemple : 30 € à régler au studio ou par virement.",
          })}
        </div>
      </fieldset>

      <fieldset className={section}>
        <legend className={legend}>Questions posées à la réservation</legend>
        <p className="text-sm text-muted-foreground">
          {MAX_QUESTIONS} questions au plus. Ajouter, retirer ou déplacer une question ne change la
          séance qu'après « Enregistrer ».
        </p>
        {Array.from({ length: questions }, (_, index) => {
          const heading = text(questionField(index, "label")) || `Question ${index + 1}`;
          return (
            <ListItem
              key={index}
              index={index}
              length={questions}
              heading={heading}
              legend={`Question ${index + 1}`}
              intents={{
                up: questionIntent.up(index),
                down: questionIntent.down(index),
                remove: questionIntent.remove(index),
              }}
            >
              <input
                type="hidden"
                name={questionField(index, "id")}
                value={text(questionField(index, "id"))}
              />
              <div className="space-y-4">
                {input(questionField(index, "label"), "Question", { maxLength: 200 })}
                {choice(
                  questionField(index, "kind"),
                  "Type de réponse",
                  QUESTION_KINDS.map((kind) => ({
                    value: kind,
                    label: QUESTION_KIND_LABELS[kind],
                  })),
                )}
                {area(
                  questionField(index, "options"),
                  "Réponses proposées (choix)",
                  "Une réponse par ligne, pour une question à choix.",
                )}
                <div className="flex min-h-11 items-center gap-2">
                  <input
                    id={`${ADMIN_FORM_ID}-${questionField(index, "required")}`}
                    type="checkbox"
                    name={questionField(index, "required")}
                    defaultChecked={text(questionField(index, "required")) === "on"}
                    className="size-5 accent-stone-800"
                  />
                  <label
                    htmlFor={`${ADMIN_FORM_ID}-${questionField(index, "required")}`}
                    className="text-sm font-semibold"
                  >
                    Réponse obligatoire
                  </label>
                </div>
              </div>
            </ListItem>
          );
        })}
        {questions < MAX_QUESTIONS ? (
          <AddItemButton intent={questionIntent.add} label="Ajouter une question" />
        ) : null}
      </fieldset>
    </RecordForm>
  );
}
