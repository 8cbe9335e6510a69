import { AddItemButton, ListItem } from "~/components/admin/document-form";
import { ADMIN_FORM_ID, Field, Input, TableField } from "~/components/admin/field";
import { RecordForm } from "~/components/admin/record-form";
import { fieldMeta } from "~/components/ui/field";
import {
  hoursOverrideField,
  MAX_QUESTIONS,
  QUESTION_KIND_LABELS,
  questionCount,
  questionField,
  questionIntent,
  SESSION_TYPE_BOOKING_FIELDS,
  SESSION_TYPE_DEPOSIT_FIELDS,
  SESSION_TYPE_FIELDS,
  SESSION_TYPE_TIMING_FIELDS,
  studioField,
  WEEKDAYS,
} from "~/lib/booking/session-type-form";
import { QUESTION_KINDS } from "~/lib/booking/session-types";
import type { FieldErrors } from "~/lib/forms";
import type { FieldSpec, FieldSpecs } from "~/lib/field-table";
import type { ToastMessage } from "~/lib/toast";

const { fields: type } = SESSION_TYPE_FIELDS;
const { fields: timing } = SESSION_TYPE_TIMING_FIELDS;
const { fields: booking } = SESSION_TYPE_BOOKING_FIELDS;
const { fields: deposit } = SESSION_TYPE_DEPOSIT_FIELDS;
const LABELS: Record<string, string> = {
  ...SESSION_TYPE_FIELDS.labels,
  ...SESSION_TYPE_TIMING_FIELDS.labels,
  ...SESSION_TYPE_BOOKING_FIELDS.labels,
  ...SESSION_TYPE_DEPOSIT_FIELDS.labels,
  studios: "Studios",
  questions: "Questions",
  form: "Séance",
};

/** The parts of a question's row, drawn like the table's fields (read by `parseSessionTypeForm`). */
const QUESTION_ROW = {
  label: { kind: "text", label: "Question", max: 200 },
  kind: {
    kind: "choice",
    label: "Type de réponse",
    choices: QUESTION_KINDS.map((kind) => ({ value: kind, label: QUESTION_KIND_LABELS[kind] })),
    message: "Choisissez le type de réponse",
  },
  options: {
    kind: "textarea",
    label: "Réponses proposées (choix)",
    hint: "Une réponse par ligne, pour une question à choix.",
  },
} satisfies Record<string, FieldSpec>;

/**
 * A section's fields in rows of equal length, one grid of `columns` per row: the table gives the fields
 * and their order, the page only how many rows it draws them in.
 */
function rows<Name extends string>(
  names: readonly Name[],
  columns: readonly string[],
): [Name[], string][] {
  const size = Math.ceil(names.length / columns.length);
  return columns.map((grid, index) => [names.slice(index * size, (index + 1) * size), grid]);
}

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
  // The fields in the page's order: the type, its studios, its timing and hours, booking, questions.
  const order = [
    ...SESSION_TYPE_FIELDS.names,
    "studios",
    ...SESSION_TYPE_TIMING_FIELDS.names,
    ...WEEKDAYS.map(({ day }) => hoursOverrideField(day)),
    ...SESSION_TYPE_BOOKING_FIELDS.names,
    ...SESSION_TYPE_DEPOSIT_FIELDS.names,
    ...Array.from({ length: questions }, (_, index) =>
      (["kind", "label", "options"] as const).map((part) => questionField(index, part)),
    ).flat(),
  ];

  const text = (name: string) => values[name] ?? "";
  const field = <Specs extends FieldSpecs>(
    fields: Specs,
    name: keyof Specs & string,
    choices?: readonly { value: string; label: string }[],
  ) => (
    <TableField
      key={name}
      name={name}
      spec={fields[name] as FieldSpec}
      values={values}
      error={errors[name]}
      choices={choices}
    />
  );
  const questionPart = (index: number, part: keyof typeof QUESTION_ROW) => (
    <TableField
      name={questionField(index, part)}
      spec={QUESTION_ROW[part]}
      values={values}
      error={errors[questionField(index, part)]}
    />
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
          {field(type, "name")}
          {field(type, "slug")}
        </div>
        {field(type, "description")}
        {field(type, "photoId", [{ value: "", label: "Sans photo" }, ...photos])}
        {priceCard ? (
          <p className="rounded-md border border-gold-dark bg-amber-50 p-3 text-sm">
            Cette séance est l'offre de la carte « {priceCard.title} » de la page Tarifs : elle est
            vendue à son prix ({priceCard.price}), avec ses lignes comme « ce qui est compris ».
            Pour les changer, modifiez la carte dans <a href="/admin/tarifs">Tarifs</a> ; les deux
            champs ci-dessous ne servent que si aucune carte ne la nomme.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">{field(type, "priceText")}</div>
        {field(type, "includedText")}
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
        {rows(SESSION_TYPE_TIMING_FIELDS.names, ["sm:grid-cols-3", "sm:grid-cols-3"]).map(
          ([names, columns]) => (
            <div key={names[0]} className={`grid gap-4 ${columns}`}>
              {names.map((name) => field(timing, name))}
            </div>
          ),
        )}
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
        {rows(SESSION_TYPE_BOOKING_FIELDS.names, [
          "sm:grid-cols-2",
          "sm:grid-cols-2",
          "sm:grid-cols-[14rem_1fr]",
        ]).map(([names, columns]) => (
          <div key={names[0]} className={`grid gap-4 ${columns}`}>
            {names.map((name) => field(booking, name))}
          </div>
        ))}
      </fieldset>

      <fieldset className={section}>
        <legend className={legend}>Paiement à la réservation</legend>
        <p className="text-sm text-muted-foreground">
          Avec un paiement en ligne, la réservation attend le paiement et bloque son créneau : 35
          minutes pour une carte, le délai choisi pour un virement. Sans paiement, le créneau se
          libère et le client est prévenu. Arrhes ou acompte se choisit ci-dessus.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          {field(deposit, "depositAmount")}
          {field(deposit, "sessionPriceEuros")}
          {field(deposit, "depositEuros")}
          {field(deposit, "depositPercent")}
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          {field(deposit, "depositCard")}
          {field(deposit, "depositTransfer")}
          {field(deposit, "depositStudio")}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {field(deposit, "depositTransferHours")}
          {field(deposit, "depositRefundAtOnce")}
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
                {questionPart(index, "label")}
                {questionPart(index, "kind")}
                {questionPart(index, "options")}
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
