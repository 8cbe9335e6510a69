import { Ban, Check, CheckCheck, MoveRight, Pencil, UserX } from "lucide-react";
import { instantLabelFr } from "~/lib/booking/words";
import { Form, Link } from "react-router";
import type { Route } from "./+types/reservation";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { Field, Input, Select, Textarea } from "~/components/admin/field";
import { OFFLINE_MEANS, OFFLINE_MEANS_LABELS } from "~/lib/payments/model";
import {
  dayOf,
  OwnerSlotChoice,
  StateBadge,
  timeFr,
} from "~/components/booking-admin/agenda-parts";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import { BOOKING_STEP_PARAMS, type BookingStepAnswer } from "~/lib/booking/admin-pages";
import { longDayFr } from "~/lib/booking/agenda-format";
import { isActive } from "~/lib/booking/model";
import { INTERNAL_NOTE_MAX } from "~/lib/booking/session-types";

export { action, loader } from "./reservation.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.booking.clientName ?? "Réservation"} - Administration` },
];

export default function BookingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, answers, history, move, step } = loaderData;
  const refusal =
    actionData && "step" in actionData ? (actionData as BookingStepAnswer) : undefined;
  useServerToast(refusal ? { type: "error", title: refusal.message } : undefined);
  // A booking waiting for its deposit is the owner's to move or cancel too (decision 0186).
  const active = isActive(booking.state);
  const here = `/admin/reservations/${booking.id}`;
  const day = dayOf(booking.startsAt);
  const openStep = refusal?.step === "cancel" || refusal?.step === "decline" ? refusal.step : step;
  const moveValues = refusal?.step === "move" ? refusal.values : undefined;
  // The client's details: the form opened by « Modifier », or given back with what was typed.
  const clientRefusal = refusal?.step === "client" ? refusal : undefined;
  const balanceRefusal = refusal?.step === "balance" ? refusal : undefined;
  // A balance recorded stays shown once the booking is cancelled: it may be the owner's to give back.
  const balanceShown =
    booking.state === "confirmed" || booking.state === "done" || loaderData.balance !== null;
  const editingClient = loaderData.editingClient || clientRefusal !== undefined;
  const section = "space-y-3 rounded-xl border border-border bg-white p-4 sm:p-6";

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title={booking.clientName}
        summary={`${booking.sessionTypeName} · ${longDayFr(day)}, ${timeFr(booking.startsAt)} – ${timeFr(booking.endsAt)}`}
      />
      <ReservationsNav />
      <p>
        <Link
          to={`/admin/reservations?vue=jour&date=${day}`}
          className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
        >
          ← Voir ce jour dans l'agenda
        </Link>
      </p>
      {(refusal && refusal.step === "other") || (balanceRefusal && !balanceShown) ? (
        <FormAlert message={{ type: "error", title: refusal?.message ?? "" }} />
      ) : null}

      <section aria-labelledby="seance" className={section}>
        <h2
          id="seance"
          className="flex flex-wrap items-center gap-2 font-sans text-lg font-semibold"
        >
          La séance{" "}
          <StateBadge
            state={booking.state}
            depositAwaited={booking.depositAwaited}
            depositHeld={booking.depositHeld}
          />
        </h2>
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-semibold">Quand</dt>
          <dd className="first-letter:uppercase">
            {longDayFr(day)}, {timeFr(booking.startsAt)} – {timeFr(booking.endsAt)} (
            {booking.duration})
          </dd>
          <dt className="font-semibold">Studio</dt>
          <dd>{booking.studioName}</dd>
          <dt className="font-semibold">Photographe</dt>
          <dd>{booking.photographerName}</dd>
          {loaderData.paidBy ? (
            <>
              <dt className="font-semibold">Règlement</dt>
              <dd>{loaderData.paidBy}</dd>
            </>
          ) : null}
          {loaderData.deposit ? (
            <>
              <dt className="font-semibold">Paiement</dt>
              <dd className="space-y-1">
                {loaderData.deposit.lines.map((line) => (
                  <p key={line}>{line}</p>
                ))}
                {loaderData.deposit.orderId ? (
                  <p>
                    <a href={`/admin/ventes/${loaderData.deposit.orderId}`} className="underline">
                      {loaderData.deposit.held
                        ? "Voir la commande (accepter ou rembourser ce paiement)"
                        : "Voir la commande (marquer payé, rembourser)"}
                    </a>
                  </p>
                ) : null}
              </dd>
            </>
          ) : null}
          {loaderData.voucherToExtend ? (
            <>
              <dt className="font-semibold">Bon cadeau expiré</dt>
              <dd>
                <Link
                  to={`/admin/bons-cadeaux?q=${loaderData.voucherToExtend}`}
                  className="underline underline-offset-4"
                >
                  Prolonger le bon cadeau {loaderData.voucherToExtend}
                </Link>
              </dd>
            </>
          ) : null}
          {loaderData.invoices.length > 0 ? (
            <>
              <dt className="font-semibold">Factures</dt>
              <dd>
                <ul className="space-y-1">
                  {loaderData.invoices.map((invoice) => (
                    <li key={invoice.number}>
                      <a
                        href={`/admin/factures/${invoice.number}.pdf`}
                        className="underline underline-offset-4"
                      >
                        {invoice.title} {invoice.number}
                      </a>{" "}
                      du {invoice.issuedOn} : {invoice.amount} (PDF)
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
          {booking.state === "pending" && booking.respondBy ? (
            <>
              <dt className="font-semibold">Répondre avant le</dt>
              <dd>{instantLabelFr(booking.respondBy)}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Client</dt>
          <dd>{booking.clientName}</dd>
          <dt className="font-semibold">E-mail</dt>
          <dd>
            {booking.clientEmail ? (
              <a href={`mailto:${booking.clientEmail}`} className="underline underline-offset-4">
                {booking.clientEmail}
              </a>
            ) : (
              "Aucune adresse"
            )}
            {booking.clientMail ? null : (
              <span className="block text-muted-foreground">
                Le site n'envoie aucun e-mail au client pour cette réservation.
              </span>
            )}
          </dd>
          {booking.clientPhone ? (
            <>
              <dt className="font-semibold">Téléphone</dt>
              <dd>
                <a
                  href={`tel:${booking.clientPhone.replace(/\s/g, "")}`}
                  className="underline underline-offset-4"
                >
                  {booking.clientPhone}
                </a>
              </dd>
            </>
          ) : null}
          {answers.map((answer) => (
            <div key={answer.question} className="contents">
              <dt className="font-semibold">{answer.question}</dt>
              <dd className="whitespace-pre-line">{answer.answer}</dd>
            </div>
          ))}
        </dl>
        {editingClient ? null : (
          <p>
            <Link
              to={`${here}?${BOOKING_STEP_PARAMS.client}=1#coordonnees`}
              preventScrollReset
              className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
            >
              <Pencil aria-hidden="true" className="mr-1 size-4" />
              Modifier les coordonnées du client
            </Link>
          </p>
        )}
        <div className="space-y-1 text-sm">
          <h3 className="font-semibold">Lien de la réservation pour le client</h3>
          <p className="text-muted-foreground">
            {booking.clientMail
              ? "Le client le reçoit dans ses e-mails : il y voit, déplace ou annule sa séance."
              : "Aucun e-mail ne le lui apporte : donnez-le-lui par téléphone ou par SMS. Il y voit, déplace ou annule sa séance."}
          </p>
          <p className="break-all">
            <a href={booking.clientLink} className="underline underline-offset-4">
              {booking.clientLink}
            </a>
          </p>
        </div>
      </section>

      {editingClient ? (
        <section aria-labelledby="coordonnees" className={section}>
          <h2 id="coordonnees" className="font-sans text-lg font-semibold">
            Coordonnées du client
          </h2>
          {clientRefusal ? (
            <FormAlert message={{ type: "error", title: clientRefusal.message }} />
          ) : null}
          <p className="text-sm text-muted-foreground">
            Pour corriger une faute dans le nom, une adresse e-mail erronée ou le téléphone. Les
            factures déjà émises gardent le nom qu'elles portent ; un paiement encore attendu prend
            les nouvelles coordonnées.
          </p>
          <Form method="post" noValidate className="space-y-3">
            <Field name="name" label="Nom" error={clientRefusal?.errors?.name}>
              {(props) => (
                <Input
                  {...props}
                  maxLength={200}
                  autoComplete="off"
                  defaultValue={clientRefusal?.values.name ?? booking.clientName}
                />
              )}
            </Field>
            <Field
              name="email"
              label="E-mail"
              error={clientRefusal?.errors?.email}
              hint="Facultatif : sans adresse, le site n'écrit pas au client."
            >
              {(props) => (
                <Input
                  {...props}
                  type="email"
                  maxLength={255}
                  autoComplete="off"
                  defaultValue={clientRefusal?.values.email ?? booking.clientEmail}
                />
              )}
            </Field>
            <Field name="phone" label="Téléphone" error={clientRefusal?.errors?.phone}>
              {(props) => (
                <Input
                  {...props}
                  type="tel"
                  maxLength={30}
                  autoComplete="off"
                  defaultValue={clientRefusal?.values.phone ?? booking.clientPhone}
                />
              )}
            </Field>
            {active ? (
              <div className="space-y-1">
                <label className="flex items-center gap-3 text-sm font-semibold">
                  <input
                    type="checkbox"
                    name="sendRecap"
                    id="champ-sendRecap"
                    defaultChecked={clientRefusal ? clientRefusal.values.sendRecap === "on" : true}
                    aria-describedby="champ-sendRecap-aide"
                    className="size-5 accent-stone-800"
                  />
                  Si l'adresse e-mail change, envoyer à la nouvelle adresse le récapitulatif de la
                  réservation
                </label>
                <p id="champ-sendRecap-aide" className="text-sm text-muted-foreground">
                  {booking.clientMail
                    ? "Avec le lien de sa réservation, que le client n'a peut-être jamais reçu. Les e-mails suivants (rappels, changements) partent à la nouvelle adresse."
                    : "Avec le lien de sa réservation. Le site n'écrit pas au client pour cette réservation : cochée, cette case l'y autorise (récapitulatif, rappels, changements)."}
                </p>
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">
                Cette réservation est terminée ou annulée : le site n'envoie aucun e-mail à la
                nouvelle adresse.
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="intent" value="client">
                Enregistrer les coordonnées
              </Button>
              <Button asChild variant="outline">
                <Link to={here} preventScrollReset>
                  Ne pas modifier
                </Link>
              </Button>
            </div>
          </Form>
        </section>
      ) : null}

      {balanceShown ? (
        <section aria-labelledby="solde" className={section}>
          <h2 id="solde" className="font-sans text-lg font-semibold">
            Solde payé au studio
          </h2>
          {/* Above either: an entry refused because another one was recorded meanwhile shows the latter. */}
          {balanceRefusal ? (
            <FormAlert message={{ type: "error", title: balanceRefusal.message }} />
          ) : null}
          {loaderData.balance ? (
            <div className="space-y-1 text-sm">
              <p>Solde enregistré : {loaderData.balance.sentence}</p>
              {loaderData.balance.orderId ? (
                <p>
                  <a
                    href={`/admin/ventes/${loaderData.balance.orderId}`}
                    className="underline underline-offset-4"
                  >
                    Voir la commande du solde (rembourser)
                  </a>
                </p>
              ) : null}
              {loaderData.balance.voucher ? (
                <p>
                  <Link
                    to={`/admin/bons-cadeaux?q=${loaderData.balance.voucher.code}`}
                    className="underline underline-offset-4"
                  >
                    Voir le bon cadeau {loaderData.balance.voucher.code}
                  </Link>
                </p>
              ) : null}
            </div>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                Enregistrez ce que la cliente a réglé au studio : sa facture de solde est émise.
              </p>
              <Form method="post" className="space-y-3">
                <Field
                  name="amount"
                  label="Montant reçu (€)"
                  hint="Laissez vide si un bon cadeau règle tout le solde."
                  error={balanceRefusal?.errors?.amount}
                >
                  {(props) => (
                    <Input
                      {...props}
                      inputMode="decimal"
                      defaultValue={balanceRefusal?.values.amount ?? ""}
                    />
                  )}
                </Field>
                <Field name="means" label="Réglé par" error={balanceRefusal?.errors?.means}>
                  {(props) => (
                    <Select
                      {...props}
                      defaultValue={balanceRefusal?.values.means ?? "card_terminal"}
                    >
                      {OFFLINE_MEANS.map((means) => (
                        <option key={means} value={means}>
                          {OFFLINE_MEANS_LABELS[means]}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
                <fieldset className="space-y-3">
                  <legend className="text-sm font-medium">
                    Réglé en partie ou en entier par un bon cadeau « montant » (facultatif)
                  </legend>
                  <Field
                    name="voucherCode"
                    label="Code du bon cadeau"
                    error={balanceRefusal?.errors?.voucherCode}
                  >
                    {(props) => (
                      <Input
                        {...props}
                        autoComplete="off"
                        defaultValue={balanceRefusal?.values.voucherCode ?? ""}
                      />
                    )}
                  </Field>
                  <Field
                    name="voucherAmount"
                    label="Montant pris sur le bon (€)"
                    hint="Il est retiré du bon. Si vous facturez la TVA, il a sa propre facture, que la facture de solde déduit."
                    error={balanceRefusal?.errors?.voucherAmount}
                  >
                    {(props) => (
                      <Input
                        {...props}
                        inputMode="decimal"
                        defaultValue={balanceRefusal?.values.voucherAmount ?? ""}
                      />
                    )}
                  </Field>
                </fieldset>
                <Button type="submit" name="intent" value="balance" variant="outline">
                  Enregistrer le solde
                </Button>
              </Form>
            </>
          )}
        </section>
      ) : null}

      <section aria-labelledby="note-interne" className={section}>
        <h2 id="note-interne" className="font-sans text-lg font-semibold">
          Pour vous
        </h2>
        <Form method="post" className="space-y-3">
          <Field
            name="internalNote"
            label="Note interne"
            error={refusal?.step === "note" ? refusal.errors?.internalNote : undefined}
            hint="Visible seulement ici, par les administrateurs : jamais par le client ni dans ses e-mails."
          >
            {(props) => (
              <Textarea
                {...props}
                rows={3}
                maxLength={INTERNAL_NOTE_MAX}
                defaultValue={
                  refusal?.step === "note"
                    ? (refusal.values.internalNote ?? "")
                    : booking.internalNote
                }
              />
            )}
          </Field>
          <Button type="submit" name="intent" value="note" variant="outline">
            Enregistrer la note
          </Button>
        </Form>
      </section>

      {active ? (
        <section aria-labelledby="actions" className={section}>
          <h2 id="actions" className="font-sans text-lg font-semibold">
            Actions
          </h2>
          <div className="flex flex-wrap gap-2">
            {booking.state === "pending" && loaderData.acceptNotice ? (
              <p role="note" className="basis-full text-sm">
                {loaderData.acceptNotice}
              </p>
            ) : null}
            {booking.state === "pending" ? (
              <Form method="post">
                <Button type="submit" name="intent" value="accept">
                  <Check aria-hidden="true" />
                  Accepter la demande
                </Button>
              </Form>
            ) : null}
            <Button asChild variant="outline">
              <Link to={`${here}?${BOOKING_STEP_PARAMS.move}=1`} preventScrollReset>
                <MoveRight aria-hidden="true" />
                Déplacer
              </Link>
            </Button>
            {booking.state === "pending" ? (
              <Button asChild variant="ghost-destructive">
                <Link to={`${here}?${BOOKING_STEP_PARAMS.decline}=1`} preventScrollReset>
                  <Ban aria-hidden="true" />
                  Refuser la demande…
                </Link>
              </Button>
            ) : (
              <Button asChild variant="ghost-destructive">
                <Link to={`${here}?${BOOKING_STEP_PARAMS.cancel}=1`} preventScrollReset>
                  <Ban aria-hidden="true" />
                  Annuler la réservation…
                </Link>
              </Button>
            )}
            {booking.state === "confirmed" && booking.started ? (
              <>
                <Form method="post">
                  <Button type="submit" name="intent" value="done" variant="outline">
                    <CheckCheck aria-hidden="true" />
                    Séance effectuée
                  </Button>
                </Form>
                <ConfirmedActionForm
                  id={booking.id}
                  intent="no_show"
                  param="absence"
                  confirmation="Noter que le client n'est pas venu ?"
                  itemLabel={booking.clientName}
                  variant="destructive"
                  label={
                    <>
                      <UserX aria-hidden="true" />
                      Client absent
                    </>
                  }
                />
              </>
            ) : null}
          </div>

          {openStep === "cancel" || openStep === "decline" ? (
            <Form
              method="post"
              className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4"
              aria-labelledby="confirmer"
            >
              <h3 id="confirmer" className="font-sans text-base font-semibold">
                {openStep === "cancel" ? "Annuler cette réservation ?" : "Refuser cette demande ?"}
              </h3>
              {refusal && refusal.step === openStep ? (
                <FormAlert message={{ type: "error", title: refusal.message }} />
              ) : null}
              <p className="text-sm">
                {booking.clientMail
                  ? "Le créneau redevient libre. Le client est prévenu par e-mail."
                  : `Le créneau redevient libre. Le site n'envoie aucun e-mail au client pour cette réservation : prévenez-le vous-même${booking.clientPhone ? ` (${booking.clientPhone})` : ""}.`}
              </p>
              {openStep === "cancel" && loaderData.deposit?.onCancel ? (
                <p className="text-sm">{loaderData.deposit.onCancel}</p>
              ) : null}
              {openStep === "cancel" && loaderData.balance ? (
                <p className="text-sm">
                  Solde enregistré : {loaderData.balance.sentence}{" "}
                  {loaderData.balance.orderId ? (
                    <>
                      L'annulation ne le rembourse pas : rendez ce qui est dû depuis{" "}
                      <a
                        href={`/admin/ventes/${loaderData.balance.orderId}`}
                        className="underline underline-offset-4"
                      >
                        la commande du solde
                      </a>
                      .
                    </>
                  ) : null}
                  {loaderData.balance.voucher
                    ? `${loaderData.balance.orderId ? " " : ""}L'annulation ne remet pas sur le bon cadeau ce qui en a été pris.`
                    : null}
                </p>
              ) : null}
              <Field name="message" label="Message pour le client (facultatif)">
                {(props) => (
                  <Textarea
                    {...props}
                    rows={3}
                    maxLength={2000}
                    defaultValue={refusal?.values.message ?? ""}
                  />
                )}
              </Field>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" name="intent" value={openStep} variant="destructive">
                  {openStep === "cancel" ? "Confirmer l'annulation" : "Confirmer le refus"}
                </Button>
                <Button asChild variant="outline">
                  <Link to={here} preventScrollReset>
                    {openStep === "cancel" ? "Ne pas annuler" : "Ne pas refuser"}
                  </Link>
                </Button>
              </div>
            </Form>
          ) : null}
        </section>
      ) : null}

      {active && move ? (
        <section aria-labelledby="deplacer" className={section}>
          <h2 id="deplacer" className="font-sans text-lg font-semibold">
            Déplacer la séance
          </h2>
          {refusal?.step === "move" ? (
            <FormAlert message={{ type: "error", title: refusal.message }} />
          ) : null}
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name={BOOKING_STEP_PARAMS.move} value="1" />
            <label className="text-sm">
              <span className="block font-semibold">Jour</span>
              <input
                type="date"
                name="jour"
                defaultValue={move.day}
                className="min-h-11 rounded-md border border-border px-2"
              />
            </label>
            {move.studios.length > 1 ? (
              <label className="text-sm">
                <span className="block font-semibold">Studio</span>
                <select
                  name="studio"
                  defaultValue={move.studioId}
                  className="min-h-11 rounded-md border border-border px-2"
                >
                  {move.studios.map((studio) => (
                    <option key={studio.id} value={studio.id}>
                      {studio.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <Button type="submit" variant="outline" className="min-h-11">
              Voir les horaires libres
            </Button>
          </Form>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="studioId" value={move.studioId} />
            <OwnerSlotChoice
              day={move.day}
              slots={move.slots}
              chosen={moveValues?.slot}
              otherTime={moveValues?.slotTime ?? ""}
              otherTimeHint="Hors des horaires proposés : vous pouvez choisir n'importe quelle heure libre."
            />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="intent" value="move">
                <MoveRight aria-hidden="true" />
                Déplacer la séance
              </Button>
              <Button asChild variant="outline">
                <Link to={here}>Ne pas déplacer</Link>
              </Button>
            </div>
          </Form>
        </section>
      ) : null}

      <section aria-labelledby="historique" className={section}>
        <h2 id="historique" className="font-sans text-lg font-semibold">
          Historique
        </h2>
        <ol className="space-y-2 text-sm">
          {history.map((event) => (
            <li key={event.id}>
              <span className="text-muted-foreground">{instantLabelFr(event.at)}</span> —{" "}
              {event.sentence}
              {event.message ? (
                <blockquote className="mt-1 border-l-2 border-border pl-3 whitespace-pre-line">
                  {event.message}
                </blockquote>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
