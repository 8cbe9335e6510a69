import { Link } from "react-router";
import { Field, fieldMeta, Input, Select, Textarea } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { ConsentCheckbox, ContactFields } from "~/components/ui/contact-fields";
import { HoneypotField } from "~/components/ui/honeypot-field";
import type { DepositSummary } from "~/lib/booking/deposit";
import type { BookingQuestion } from "~/lib/booking/session-types";
import { FORM_KEY_FIELD } from "~/lib/forms";
import { NextFreeTimes, Notice } from "./booking-layout";

const FORM_ID = "reservation";

/**
 * The client's details, the owner's questions and the consent, posted without JavaScript. After a refusal
 * it comes back with every value typed; a slot someone else took brings the next free times as buttons of
 * this same form, so one click books another time with everything already typed.
 */
export function BookingDetailsForm({
  action,
  formKey,
  questions,
  values,
  errors,
  message,
  request,
  depositText,
  cutoffHours,
  responseDeadlineHours,
  alternatives,
  chosenDay,
  phone,
  voucherField = false,
  deposit = null,
}: {
  action: string;
  /** Drawn with the page: the same form posted twice books once (visitor-form.server.ts). */
  formKey: string;
  questions: readonly BookingQuestion[];
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string | null;
  request: boolean;
  depositText: string | null;
  cutoffHours: number;
  responseDeadlineHours: number;
  alternatives: { key: string; time: string }[];
  /** The day of the time she chose (null: her address named no time). */
  chosenDay: string | null;
  phone: string;
  /** Offer the gift voucher's code (decision 0170): when one could pay this session, or one was typed. */
  voucherField?: boolean;
  /** The deposit paid online when booking (decision 0186), null: none. */
  deposit?: DepositSummary | null;
}) {
  const meta = (name: string, required = false) => fieldMeta(FORM_ID, name, errors[name], required);
  const value = (name: string) => values[name] ?? "";
  const voucher = meta("voucherCode");
  return (
    <form
      method="post"
      action={action}
      noValidate
      className="space-y-6"
      aria-labelledby="coordonnees"
    >
      <h2 id="coordonnees" className="text-xl font-semibold">
        Vos coordonnées
      </h2>
      {message ? (
        <Notice tone="error" title={message}>
          {alternatives.length > 0 ? (
            <p>Choisissez l'un des prochains horaires libres : vos informations sont gardées.</p>
          ) : Object.keys(errors).length > 0 ? (
            <p>Corrigez les champs signalés ci-dessous.</p>
          ) : (
            <p>Besoin d'aide ? Appelez le studio au {phone}.</p>
          )}
        </Notice>
      ) : null}
      {alternatives.length > 0 ? (
        <section aria-labelledby="autres-horaires" className="space-y-3">
          <h3 id="autres-horaires" className="font-semibold">
            Prochains horaires libres (un clic réserve avec vos informations)
          </h3>
          <NextFreeTimes
            slots={alternatives}
            chosenDay={chosenDay}
            headingLevel={4}
            buttonName="creneau"
          />
        </section>
      ) : null}

      <ContactFields
        formId={FORM_ID}
        names={{ name: "name", email: "email", phone: "phone" }}
        values={values}
        errors={errors}
        emailDescription="Pour la confirmation et votre lien personnel."
      />

      {questions.map((question) => {
        const field = meta(`answers.${question.id}`, question.required);
        const posted = value(`answers.${question.id}`);
        if (question.kind === "text") {
          return (
            <Field key={question.id} field={field} label={question.label}>
              {(props) => <Textarea {...props} rows={3} maxLength={1000} defaultValue={posted} />}
            </Field>
          );
        }
        const options = question.kind === "yes_no" ? ["oui", "non"] : question.options;
        return (
          <Field key={question.id} field={field} label={question.label}>
            {(props) => (
              <Select {...props} defaultValue={posted}>
                <option value="">Choisir…</option>
                {options.map((option) => (
                  <option key={option} value={option}>
                    {question.kind === "yes_no" ? (option === "oui" ? "Oui" : "Non") : option}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        );
      })}

      {voucherField ? (
        <Field
          field={voucher}
          label="Code du bon cadeau (facultatif)"
          description={
            deposit
              ? "Les 12 caractères imprimés sur le bon, par exemple 7K3Q-M2XD-9PTX : un bon pour cette séance la règle en entier, un bon d'un montant règle la somme demandée d'avance."
              : "Les 12 caractères imprimés sur le bon, par exemple 7K3Q-M2XD-9PTX : la séance est alors réglée par le bon."
          }
        >
          {(props) => (
            <Input
              {...props}
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              defaultValue={value("voucherCode")}
            />
          )}
        </Field>
      ) : null}

      <div className="rounded-xl bg-muted p-4 text-sm">
        <ul className="list-disc space-y-1 pl-5">
          {request ? (
            <li>
              C'est une demande : le studio l'accepte ou la refuse sous {responseDeadlineHours} h,
              et ce créneau vous est gardé d'ici là.
            </li>
          ) : null}
          {depositText ? <li>{depositText}</li> : null}
          {deposit ? (
            <li>
              <strong>{deposit.title}</strong>
              {request
                ? " à régler une fois la demande acceptée (le lien de paiement vous est envoyé par e-mail)."
                : deposit.methods.length === 1 && deposit.methods[0]?.value === "studio"
                  ? " à régler au studio."
                  : " à régler maintenant : la réservation est confirmée à réception du paiement (le créneau vous est gardé 35 minutes pour une carte, " +
                    `${deposit.transferHours} h pour un virement ; sans paiement, il se libère et rien n'est débité).`}{" "}
              {deposit.meaning}
            </li>
          ) : null}
          <li>
            Vous pourrez déplacer ou annuler votre séance en ligne jusqu'à {cutoffHours} h avant.
          </li>
        </ul>
      </div>

      {deposit && deposit.methods.length > 1 ? (
        <fieldset className="space-y-2">
          <legend className="font-semibold">Moyen de paiement</legend>
          {deposit.methods.map((method, index) => (
            <label key={method.value} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="paymentMethod"
                value={method.value}
                defaultChecked={
                  value("paymentMethod") ? value("paymentMethod") === method.value : index === 0
                }
                className="size-5 accent-stone-800"
              />
              {method.label}
            </label>
          ))}
          {errors.paymentMethod ? (
            <p className="text-sm text-destructive">{errors.paymentMethod}</p>
          ) : null}
        </fieldset>
      ) : deposit && deposit.methods[0] ? (
        <input type="hidden" name="paymentMethod" value={deposit.methods[0].value} />
      ) : null}

      <ConsentCheckbox
        formId={FORM_ID}
        name="consent"
        checked={value("consent") === "on"}
        error={errors.consent}
      >
        J'accepte les{" "}
        <Link to="/mentions-legales#conditions-reservation" className="underline">
          conditions de réservation
        </Link>{" "}
        et l'usage de mes données pour cette séance (
        <Link to="/donnees-personnelles#reservations" className="underline">
          données personnelles
        </Link>
        ).
      </ConsentCheckbox>

      <HoneypotField formId={FORM_ID} />
      <input type="hidden" name={FORM_KEY_FIELD} value={formKey} />

      <Button type="submit" size="lg" className="w-full sm:w-auto">
        {request
          ? "Envoyer ma demande"
          : deposit && !(deposit.methods.length === 1 && deposit.methods[0]?.value === "studio")
            ? "Réserver et payer"
            : "Confirmer la réservation"}
      </Button>
      {/* Last in the form: an alternative's button, earlier, names its own time first. */}
      {values.creneau ? <input type="hidden" name="creneau" value={values.creneau} /> : null}
    </form>
  );
}
