import { data } from "react-router";
import type { Route } from "./+types/nouvelle";
import { answerField } from "~/lib/booking/admin-pages";
import { isIsoDay } from "~/lib/booking/agenda-format";
import { bookingQuestionsSchema } from "~/lib/booking/session-types";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { formValues, isUuid, type FieldErrors, answerStatus, type FormAnswer } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { busyReasonsOf, ownerFreeSlots } from "~/server/booking/agenda.server";
import { createBooking, ownerAuthor } from "~/server/booking/bookings.server";
import { listPhotographers } from "~/server/booking/photographers.server";
import { BookingRefusedError } from "~/server/booking/refusals.server";
import { listSessionTypes } from "~/server/booking/session-type-store.server";
import { listStudios } from "~/server/content/content-store.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const [studioRows, types, people] = await Promise.all([
    listStudios(),
    listSessionTypes(),
    listPhotographers(),
  ]);
  const studios = studioRows
    .filter((studio) => studio.retiredAt === null)
    .map((studio) => ({ id: studio.id, name: studio.data.name }));
  const offered = types.filter((type) => type.archivedAt === null);
  const askedStudio = url.searchParams.get("studio");
  const askedType = url.searchParams.get("seance");
  const typeAsked = offered.find((type) => type.id === askedType);
  // The studio asked for; else one offering the type asked for; else the first offering any.
  const studioId =
    studios.find((studio) => studio.id === askedStudio)?.id ??
    studios.find((studio) => typeAsked?.studioIds.includes(studio.id))?.id ??
    studios.find((studio) => offered.some((type) => type.studioIds.includes(studio.id)))?.id ??
    studios[0]?.id ??
    null;
  const chosen =
    typeAsked && studioId !== null && typeAsked.studioIds.includes(studioId)
      ? typeAsked
      : undefined;
  const askedDay = url.searchParams.get("jour");
  const day = isIsoDay(askedDay) ? askedDay : addParisDays(isoDayInParis(new Date()), 1);
  const [slots, busy] =
    chosen && studioId
      ? await Promise.all([
          ownerFreeSlots({ studioId, sessionTypeId: chosen.id, day }),
          busyReasonsOf({ studioId, day }),
        ])
      : [[], []];
  const questions = chosen ? bookingQuestionsSchema.safeParse(chosen.questions) : null;
  // The hour tapped in the agenda's week (decision 0125): that free time chosen, else typed as another time.
  const askedHour =
    /^([01]\d|2[0-3]):[0-5]\d$/.exec(url.searchParams.get("heure") ?? "")?.[0] ?? null;
  const askedKey = askedHour ? `${day}T${askedHour}` : null;
  const askedFree = askedKey !== null && slots.some((slot) => slot.key === askedKey);
  return {
    askedHour,
    askedSlot: askedFree ? askedKey : null,
    askedOtherTime: askedKey !== null && !askedFree && chosen ? askedKey : null,
    studios,
    sessionTypes: offered.map((type) => ({
      id: type.id,
      name: type.name,
      studioIds: type.studioIds,
    })),
    studioId,
    sessionTypeId: chosen?.id ?? null,
    askedTypeMissing: askedType !== null && !chosen,
    // Where the type asked for is offered, when not at the studio chosen: one link each.
    typeStudios:
      typeAsked && !chosen
        ? studios
            .filter((studio) => typeAsked.studioIds.includes(studio.id))
            .map((studio) => ({
              name: studio.name,
              href: `?${new URLSearchParams({ studio: studio.id, seance: typeAsked.id, jour: day })}`,
            }))
        : [],
    day,
    slots: slots.map((slot) => ({ key: slot.key, time: slot.time })),
    busy,
    // Who may take it (decision 0138): the studio's active photographers, in the owner's order.
    photographers: people
      .filter((person) => person.active && studioId !== null && person.studioIds.includes(studioId))
      .map((person) => ({ id: person.id, name: person.name })),
    questions: questions?.success ? questions.data : [],
  };
}

type Answer = FormAnswer<{ errors: FieldErrors; message: string }>;

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const values = formValues(await request.formData(), ["intent"]);
  const slot = (values.slot || values.slotTime || "").slice(0, 16);
  const refuse = (errors: FieldErrors, message: string, status: number) =>
    data<Answer>({ status: answerStatus(status), values, errors, message }, { status });
  if (!isUuid(values.studioId) || !isUuid(values.sessionTypeId)) {
    return refuse({}, "Choisissez d'abord le studio et la séance.", 400);
  }
  if (slot === "") {
    return refuse(
      { slotTime: "Choisissez un horaire libre ou indiquez une date et une heure" },
      "La réservation n'est pas enregistrée : choisissez un horaire.",
      400,
    );
  }
  const answers: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith("reponse-")) answers[name.slice("reponse-".length)] = value;
  }
  try {
    const created = await createBooking({
      studioId: values.studioId,
      sessionTypeId: values.sessionTypeId,
      slot,
      client: { name: values.name ?? "", email: values.email ?? "", phone: values.phone ?? "" },
      answers,
      consentAt: null,
      by: ownerAuthor(admin),
      // Empty: the automatic choice, as online (decision 0123); a chosen one must be free (0138).
      photographerId: values.photographerId || undefined,
      internalNote: values.internalNote ?? "",
      notifyClient: values.silent !== "on",
    });
    const mailed = (values.email ?? "").trim() !== "" && values.silent !== "on";
    return redirectWithToast(`/admin/reservations/${created.id}`, {
      type: "success",
      title: "Réservation ajoutée",
      description: mailed
        ? "Elle est confirmée et apparaît dans l'agenda ; le client reçoit sa confirmation par e-mail."
        : "Elle est confirmée et apparaît dans l'agenda. Aucun e-mail n'est envoyé au client : donnez-lui le lien de sa réservation (ci-dessous).",
    });
  } catch (error) {
    if (error instanceof BookingRefusedError) {
      const errors: FieldErrors = {};
      for (const [field, message] of Object.entries(error.fieldErrors)) {
        errors[field.startsWith("answers.") ? answerField(field.slice(8)) : field] = message;
      }
      return refuse(errors, error.message, error.status);
    }
    throw error;
  }
}
