import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/bons-cadeaux";
import type { SiteHandle } from "./site-layout";
import { BookingPage, Notice } from "~/components/booking/booking-layout";
import { ErrorList, Field, fieldMeta, Input, Textarea } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { ConsentCheckbox, ContactFields } from "~/components/ui/contact-fields";
import { HoneypotField } from "~/components/ui/honeypot-field";
import { Photo } from "~/components/ui/photo";
import { formatEuros } from "~/lib/prices";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { AMOUNT_OFFER, ANY_STUDIO, FREE_AMOUNT } from "~/lib/vouchers/order-form";
import { ORDER_KEY_FIELD, VOUCHERS_PATH } from "~/lib/vouchers/order-page";

export { action, headers, loader } from "./bons-cadeaux.server";

/**
 * /bons-cadeaux: order a gift voucher (a session, or an amount) and pay it, without JavaScript. A refused
 * post comes back with each message at its field and everything typed.
 */

export const handle: SiteHandle = { solidHeader: true };

const FORM_ID = "bon-cadeau";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Bons cadeaux | ${siteFrom(matches).brand}`,
    description:
      "Offrez une séance photo ou un montant à utiliser dans nos studios : bon cadeau à commander et payer en ligne, envoyé par e-mail.",
    path: VOUCHERS_PATH,
    matches,
  });

const radioClass = "mt-0.5 size-6 shrink-0 accent-stone-800";
const optionClass =
  "flex min-h-11 items-start gap-3 rounded-xl border border-border bg-white p-4 has-[:checked]:border-gold-dark has-[:checked]:bg-amber-50";

/** A group of choices with its legend and its message, the group described by the message. */
function Choices({
  name,
  legend,
  error,
  children,
  description,
}: {
  name: string;
  legend: string;
  error: string | undefined;
  children: ReactNode;
  description?: string;
}) {
  const field = fieldMeta(FORM_ID, name, error, true);
  const describedBy = [description ? field.descriptionId : null, error ? field.errorId : null]
    .filter(Boolean)
    .join(" ");
  return (
    <fieldset aria-describedby={describedBy || undefined} className="space-y-3">
      <legend className="mb-2 text-lg font-semibold">{legend}</legend>
      {description ? (
        <p id={field.descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      ) : null}
      {children}
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

export default function BonsCadeauxPage({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData ?? loaderData;
  const { sessions, studios, amounts, methods, terms, limits, today, values, errors } = page;
  const value = (name: string) => values[name] ?? "";
  const meta = (name: string, required = false) =>
    fieldMeta(FORM_ID, name, errors[name as keyof typeof errors], required);
  const radio = (name: string, option: string, label: ReactNode, extra?: ReactNode) => (
    <label className={optionClass}>
      <input
        type="radio"
        name={name}
        value={option}
        defaultChecked={value(name) === option}
        className={radioClass}
      />
      <span className="flex-1">
        {label}
        {extra}
      </span>
    </label>
  );
  const errorCount = Object.keys(errors).length;
  return (
    <BookingPage
      trail={[]}
      title="Offrir un bon cadeau"
      intro={
        <p>
          Une séance photo ou un montant à utiliser dans nos studios, avec votre message, envoyé par
          e-mail le jour de votre choix.
        </p>
      }
    >
      <form
        method="post"
        action={VOUCHERS_PATH}
        noValidate
        className="space-y-10"
        aria-label="Commander un bon cadeau"
      >
        {page.message ? (
          <Notice tone="error" title={page.message}>
            {errorCount > 0 ? (
              <p>Corrigez les champs signalés ci-dessous : le reste est gardé.</p>
            ) : null}
          </Notice>
        ) : null}

        <Choices name="offre" legend="Ce que vous offrez" error={errors.offre}>
          <ul className="space-y-3">
            {sessions.map((session) => (
              <li key={session.sessionTypeId}>
                {radio(
                  "offre",
                  session.sessionTypeId,
                  <>
                    <span className="block font-semibold">
                      {session.title} · {formatEuros(session.euros)}
                    </span>
                    <span className="mt-1 block text-sm text-muted-foreground">
                      {session.description}
                    </span>
                    <span className="mt-1 block text-sm">
                      Où : {session.studios.map((studio) => studio.name).join(", ")}.
                    </span>
                  </>,
                  <Photo
                    photo={session.photo}
                    alt=""
                    sizes="(min-width: 640px) 12rem, 100vw"
                    className="mt-3 block aspect-[3/2] max-w-48 overflow-hidden rounded-lg"
                  />,
                )}
              </li>
            ))}
            <li>
              {radio(
                "offre",
                AMOUNT_OFFER,
                <>
                  <span className="block font-semibold">Un montant</span>
                  <span className="mt-1 block text-sm text-muted-foreground">
                    À utiliser dans nos studios, en une ou plusieurs fois.
                  </span>
                </>,
              )}
            </li>
          </ul>
        </Choices>

        {studios.length > 0 ? (
          <Choices
            name="studio"
            legend="Pour une séance : dans quel studio ?"
            error={errors.studio}
          >
            <div className="space-y-2">
              {radio("studio", ANY_STUDIO, "Au choix du bénéficiaire")}
              {studios.map((studio) => (
                <div key={studio.slug}>{radio("studio", studio.slug, studio.name)}</div>
              ))}
            </div>
          </Choices>
        ) : null}

        <Choices name="montant" legend="Pour un montant : combien ?" error={errors.montant}>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {amounts.presets.map((euros) => (
              <div key={euros}>{radio("montant", String(euros), formatEuros(euros))}</div>
            ))}
            <div className="col-span-2 sm:col-span-3">
              {radio("montant", FREE_AMOUNT, "Un autre montant")}
            </div>
          </div>
          <Field
            field={meta("montantLibre")}
            label={`Autre montant, en euros (de ${amounts.min} à ${amounts.max} €)`}
          >
            {(props) => (
              <Input
                {...props}
                type="text"
                inputMode="numeric"
                maxLength={12}
                defaultValue={value("montantLibre")}
              />
            )}
          </Field>
        </Choices>

        <section aria-labelledby="pour-qui" className="space-y-6">
          <h2 id="pour-qui" className="text-lg font-semibold">
            Pour qui
          </h2>
          <Field
            field={meta("beneficiaire", true)}
            label="Nom du bénéficiaire"
            description="Il est imprimé sur le bon."
          >
            {(props) => (
              <Input
                {...props}
                type="text"
                maxLength={limits.name}
                defaultValue={value("beneficiaire")}
              />
            )}
          </Field>
          <Field
            field={meta("message")}
            label="Votre message (facultatif)"
            description={`Imprimé sur le bon : ${limits.message} caractères et ${limits.messageLines} lignes au plus.`}
          >
            {(props) => (
              <Textarea
                {...props}
                rows={4}
                maxLength={limits.message}
                defaultValue={value("message")}
              />
            )}
          </Field>
        </section>

        <Choices name="envoi" legend="Quand l'envoyer" error={undefined}>
          <div className="space-y-2">
            {radio("envoi", "maintenant", "Dès le paiement reçu")}
            {radio("envoi", "date", "Un jour choisi, à 9 h")}
          </div>
          <Field field={meta("dateEnvoi")} label="Jour de l'envoi">
            {(props) => (
              <Input {...props} type="date" min={today} defaultValue={value("dateEnvoi")} />
            )}
          </Field>
        </Choices>

        <Choices name="destinataire" legend="À qui l'envoyer" error={undefined}>
          <div className="space-y-2">
            {radio("destinataire", "acheteur", "À moi, pour l'offrir moi-même")}
            {radio("destinataire", "beneficiaire", "Directement au bénéficiaire")}
          </div>
          <Field
            field={meta("beneficiaireEmail")}
            label="E-mail du bénéficiaire (s'il le reçoit directement)"
          >
            {(props) => (
              <Input
                {...props}
                type="email"
                autoComplete="off"
                maxLength={255}
                defaultValue={value("beneficiaireEmail")}
              />
            )}
          </Field>
        </Choices>

        <section aria-labelledby="vos-coordonnees" className="space-y-6">
          <h2 id="vos-coordonnees" className="text-lg font-semibold">
            Vos coordonnées
          </h2>
          <ContactFields
            formId={FORM_ID}
            names={{ name: "acheteurNom", email: "acheteurEmail", phone: "acheteurTelephone" }}
            values={values}
            errors={errors}
            emailDescription="Pour la commande et le bon."
            nameMaxLength={limits.name}
          />
        </section>

        <Choices name="paiement" legend="Comment vous payez" error={errors.paiement}>
          <div className="space-y-2">
            {methods.map(({ method, label, line }) => (
              <div key={method}>
                {radio(
                  "paiement",
                  method,
                  <>
                    <span className="block font-semibold">{label}</span>
                    <span className="mt-1 block text-sm text-muted-foreground">{line}</span>
                  </>,
                )}
              </div>
            ))}
          </div>
        </Choices>

        <section
          aria-labelledby="conditions-bons"
          className="space-y-3 rounded-xl bg-muted p-4 text-sm"
        >
          <h2 id="conditions-bons" className="text-base font-semibold">
            Conditions des bons cadeaux
          </h2>
          {terms.session.length > 0 ? (
            <>
              <h3 className="font-semibold">Bon pour une séance</h3>
              <ul className="list-disc space-y-1 pl-5">
                {terms.session.map((term) => (
                  <li key={term}>{term}</li>
                ))}
              </ul>
              <h3 className="font-semibold">Bon d'un montant</h3>
            </>
          ) : null}
          <ul className="list-disc space-y-1 pl-5">
            {terms.amount
              .filter((term) => terms.session.length === 0 || !terms.session.includes(term))
              .map((term) => (
                <li key={term}>{term}</li>
              ))}
          </ul>
        </section>

        <ConsentCheckbox
          formId={FORM_ID}
          name="conditions"
          checked={value("conditions") === "on"}
          error={errors.conditions}
        >
          J'accepte les conditions des bons cadeaux ci-dessus et l'usage de mes données pour cette
          commande (
          <Link to="/donnees-personnelles" className="underline">
            données personnelles
          </Link>
          ).
        </ConsentCheckbox>

        <HoneypotField formId={FORM_ID} />
        <input type="hidden" name={ORDER_KEY_FIELD} value={page.orderKey} autoComplete="off" />

        <Button type="submit" size="lg" className="w-full sm:w-auto">
          Commander et payer
        </Button>
      </form>
    </BookingPage>
  );
}
