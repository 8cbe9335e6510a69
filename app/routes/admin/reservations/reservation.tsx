import { Ban, Check, CheckCheck, MoveRight, UserX } from "lucide-react";
import { instantLabelFr } from "~/lib/booking/words";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/reservation";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { Field, Textarea } from "~/components/admin/field";
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
import { durationFr, isIsoDay, longDayFr } from "~/lib/booking/agenda-format";
import { eventMessage, eventSentence } from "~/lib/booking/event-lines";
import { formValues, isUuid, answerStatus, type FormAnswer } from "~/lib/forms";
import { INTERNAL_NOTE_MAX } from "~/lib/booking/session-types";
import { managePath } from "~/lib/booking/urls";
import { requireAdmin } from "~/server/admin/guard.server";
import { env } from "~/server/env.server";
import { manageTokenFor } from "~/server/booking/manage-token.server";
import { bookingDetail, ownerFreeSlots, studiosOffering } from "~/server/booking/agenda.server";
import {
  acceptRequest,
  cancelBooking,
  declineRequest,
  markBookingOutcome,
  moveBooking,
  ownerAuthor,
  setInternalNote,
} from "~/server/booking/bookings.server";
import { BookingRefusedError } from "~/server/booking/refusals.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.booking.clientName ?? "Réservation"} - Administration` },
];

/** The search parameters that open a step of the page without JavaScript. */
const STEP = { move: "deplacer", cancel: "annuler", decline: "refuser" } as const;

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const detail = await bookingDetail(params.id);
  if (!detail) {
    throw await redirectWithToast("/admin/reservations", {
      type: "error",
      title: "Réservation introuvable",
      description: "Cette réservation n'existe pas ou plus.",
    });
  }
  const { booking, questions, events } = detail;
  const url = new URL(request.url);
  const moving = url.searchParams.has(STEP.move);
  const studios = moving ? await studiosOffering(booking.sessionTypeId) : [];
  const askedStudio = url.searchParams.get("studio");
  const moveStudio = studios.find((studio) => studio.id === askedStudio)?.id ?? booking.studioId;
  const askedDay = url.searchParams.get("jour");
  const moveDay = isIsoDay(askedDay) ? askedDay : dayOf(booking.startsAt.toISOString());
  const durationMinutes = (booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000;
  const slots = moving
    ? await ownerFreeSlots({
        studioId: moveStudio,
        sessionTypeId: booking.sessionTypeId,
        day: moveDay,
        exceptBookingId: booking.id,
        booking: {
          durationMinutes,
          bufferBeforeMinutes: booking.bufferBeforeMinutes,
          bufferAfterMinutes: booking.bufferAfterMinutes,
        },
      })
    : [];
  const labelOf = new Map(questions.map((question) => [question.id, question.label]));
  return {
    booking: {
      id: booking.id,
      state: booking.state,
      startsAt: booking.startsAt.toISOString(),
      endsAt: booking.endsAt.toISOString(),
      duration: durationFr(durationMinutes),
      respondBy: booking.respondBy?.toISOString() ?? null,
      started: booking.startsAt.getTime() <= Date.now(),
      clientName: booking.clientName,
      clientEmail: booking.clientEmail,
      clientPhone: booking.clientPhone,
      sessionTypeName: booking.sessionTypeName,
      sessionTypeId: booking.sessionTypeId,
      studioName: booking.studioName,
      photographerName: booking.photographerName,
      source: booking.source,
      createdAt: booking.createdAt.toISOString(),
      clientMail: booking.clientMail,
      internalNote: booking.internalNote,
      // The client's page, for the owner to give by phone when no e-mail carries it (decision 0138).
      clientLink: `${env().SITE_URL.replace(/\/$/, "")}${managePath(await manageTokenFor(booking.id))}`,
    },
    answers: Object.entries(booking.answers).map(([id, answer]) => ({
      question: labelOf.get(id) ?? id,
      answer,
    })),
    history: events.map((event) => ({
      id: event.id,
      at: event.at.toISOString(),
      sentence: eventSentence(event, admin.id),
      message: eventMessage(event),
    })),
    move: moving
      ? {
          studios,
          studioId: moveStudio,
          day: moveDay,
          slots: slots.map((slot) => ({ key: slot.key, time: slot.time })),
        }
      : null,
    step: url.searchParams.has(STEP.cancel)
      ? ("cancel" as const)
      : url.searchParams.has(STEP.decline)
        ? ("decline" as const)
        : null,
  };
}

type Answer = FormAnswer<{
  message: string;
  step: "move" | "cancel" | "decline" | "note" | "other";
}>;

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const by = ownerAuthor(admin);
  const here = `/admin/reservations/${params.id}`;
  if (!isUuid(params.id)) return data({ error: "Réservation inconnue" }, { status: 404 });
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const values = formValues(formData, ["intent"]);
  const message = (values.message ?? "").trim();
  const step: Answer["step"] =
    intent === "move"
      ? "move"
      : intent === "cancel"
        ? "cancel"
        : intent === "decline"
          ? "decline"
          : intent === "note"
            ? "note"
            : "other";
  try {
    switch (intent) {
      case "accept":
        await acceptRequest(params.id, by);
        return redirectWithToast(here, {
          type: "success",
          title: "Demande acceptée",
          description: "La séance est confirmée.",
        });
      case "decline":
        await declineRequest(params.id, by, { message });
        return redirectWithToast(here, {
          type: "success",
          title: "Demande refusée",
          description: "Le créneau est de nouveau libre.",
        });
      case "cancel":
        await cancelBooking(params.id, by, { message });
        return redirectWithToast(here, {
          type: "success",
          title: "Réservation annulée",
          description: "Le créneau est de nouveau libre.",
        });
      case "note":
        await setInternalNote(params.id, values.internalNote ?? "");
        return redirectWithToast(here, { type: "success", title: "Note enregistrée" });
      case "done":
      case "no_show":
        await markBookingOutcome(params.id, intent, by);
        return redirectWithToast(here, {
          type: "success",
          title: intent === "done" ? "Séance notée comme effectuée" : "Absence notée",
        });
      case "move": {
        const slot = (values.slot || values.slotTime || "").slice(0, 16);
        if (slot === "") {
          return data<Answer>(
            {
              status: "invalid",
              message: "Choisissez un horaire libre ou indiquez une date et une heure.",
              values,
              step,
            },
            { status: 400 },
          );
        }
        const studioId = isUuid(values.studioId) ? values.studioId : undefined;
        const moved = await moveBooking(params.id, { slot, studioId }, by);
        return redirectWithToast(here, {
          type: "success",
          title: "Réservation déplacée",
          description: `Nouvel horaire : ${instantLabelFr(moved.startsAt)}.`,
        });
      }
      default:
        return data({ error: "Action inconnue" }, { status: 400 });
    }
  } catch (error) {
    if (error instanceof BookingRefusedError) {
      if (error.code === "not_found") throw redirect("/admin/reservations");
      return data<Answer>(
        {
          status: answerStatus(error.status),
          message: error.message,
          values,
          step,
          errors: { ...error.fieldErrors },
        },
        { status: error.status },
      );
    }
    throw error;
  }
}

export default function BookingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, answers, history, move, step } = loaderData;
  const refusal = actionData && "step" in actionData ? (actionData as Answer) : undefined;
  useServerToast(refusal ? { type: "error", title: refusal.message } : undefined);
  const active = booking.state === "pending" || booking.state === "confirmed";
  const here = `/admin/reservations/${booking.id}`;
  const day = dayOf(booking.startsAt);
  const openStep = refusal?.step === "cancel" || refusal?.step === "decline" ? refusal.step : step;
  const moveValues = refusal?.step === "move" ? refusal.values : undefined;
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
      {refusal && refusal.step === "other" ? (
        <FormAlert message={{ type: "error", title: refusal.message }} />
      ) : null}

      <section aria-labelledby="seance" className={section}>
        <h2
          id="seance"
          className="flex flex-wrap items-center gap-2 font-sans text-lg font-semibold"
        >
          La séance <StateBadge state={booking.state} />
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
            {booking.state === "pending" ? (
              <Form method="post">
                <Button type="submit" name="intent" value="accept">
                  <Check aria-hidden="true" />
                  Accepter la demande
                </Button>
              </Form>
            ) : null}
            <Button asChild variant="outline">
              <Link to={`${here}?${STEP.move}=1`} preventScrollReset>
                <MoveRight aria-hidden="true" />
                Déplacer
              </Link>
            </Button>
            {booking.state === "pending" ? (
              <Button asChild variant="ghost-destructive">
                <Link to={`${here}?${STEP.decline}=1`} preventScrollReset>
                  <Ban aria-hidden="true" />
                  Refuser la demande…
                </Link>
              </Button>
            ) : (
              <Button asChild variant="ghost-destructive">
                <Link to={`${here}?${STEP.cancel}=1`} preventScrollReset>
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
                Le créneau redevient libre. Le client est prévenu par e-mail.
              </p>
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
            <input type="hidden" name={STEP.move} value="1" />
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
