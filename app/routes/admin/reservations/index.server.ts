import { data } from "react-router";
import type { Route } from "./+types/index";
import { dayOf } from "~/components/booking-admin/agenda-parts";
import {
  AGENDA_LIST_DAYS,
  AGENDA_PAGE,
  AGENDA_VIEWS,
  type AgendaView,
} from "~/lib/booking/admin-pages";
import type { BlockedLine } from "~/lib/booking/agenda-lines";
import { isIsoDay, mondayOf } from "~/lib/booking/agenda-format";
import { BOOKING_STATE_READINGS } from "~/lib/booking/model";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis, parisDateTimeToInstant } from "~/lib/dates";
import { formValues, isUuid, type FieldErrors, answerStatus, type FormAnswer } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { pagePosition } from "~/server/db/keyset.server";
import {
  agendaBlockedPeriods,
  AGENDA_LIST_ORDER,
  agendaBookingPage,
  agendaBookings,
  agendaLine,
  pendingRequests,
  type AgendaBlockedPeriod,
} from "~/server/booking/agenda.server";
import { blockPeriod, unblockPeriod } from "~/server/booking/bookings.server";
import { listPhotographers } from "~/server/booking/photographers.server";
import { BookingRefusedError } from "~/server/booking/refusals.server";
import { listStudios } from "~/server/content/content-store.server";
import { redirectWithToast } from "~/server/toast.server";

const blockedLine = (row: AgendaBlockedPeriod): BlockedLine => ({
  id: row.id,
  startsAt: row.startsAt.toISOString(),
  endsAt: row.endsAt.toISOString(),
  label: row.label,
  studioName: row.studioName,
  photographerName: row.photographerName,
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const view: AgendaView =
    (Object.keys(AGENDA_VIEWS) as AgendaView[]).find((v) => v === url.searchParams.get("vue")) ??
    "semaine";
  const today = isoDayInParis(new Date());
  const asked = url.searchParams.get("date");
  const date = isIsoDay(asked) ? asked : today;
  const studioParam = url.searchParams.get("studio");
  const studioId = isUuid(studioParam) ? studioParam : null;
  const stateParam = url.searchParams.get("etat");
  // A state as she reads it: `expired` (a request unanswered), `unpaid` (a deposit that never came), and
  // `awaiting_held` / `unpaid_held` (a deposit payment that came, held for her decision).
  const state = BOOKING_STATE_READINGS.find((candidate) => candidate === stateParam) ?? null;

  const [fromDay, toDay] =
    view === "jour"
      ? [date, date]
      : view === "semaine"
        ? [mondayOf(date), addParisDays(mondayOf(date), 6)]
        : [date, addParisDays(date, AGENDA_LIST_DAYS - 1)];
  const filter = { studioId, reading: state };
  // The list view reads a page of its days (decision 0130); the day and the week read their few bookings.
  const listPage =
    view === "liste"
      ? agendaBookingPage(fromDay, toDay, filter, pagePosition(AGENDA_LIST_ORDER, url.searchParams))
      : agendaBookings(fromDay, toDay, filter).then((rows) => ({
          rows,
          previous: null,
          next: null,
          matching: rows.length,
        }));
  const [{ rows, previous, next, matching }, blocked, requests, studios, people] =
    await Promise.all([
      listPage,
      agendaBlockedPeriods(fromDay, toDay, studioId),
      pendingRequests(),
      listStudios(),
      listPhotographers(),
    ]);
  return {
    view,
    date,
    today,
    now: new Date().toISOString(),
    fromDay,
    toDay,
    studioId,
    state,
    bookings: rows.map(agendaLine),
    previous,
    next,
    matching,
    blocked: blocked.map(blockedLine),
    requests: requests.map((row) => ({
      ...agendaLine(row),
      respondBy: row.respondBy?.toISOString() ?? null,
    })),
    studios: studios
      .filter((studio) => studio.retiredAt === null)
      .map((studio) => ({ id: studio.id, name: studio.data.name })),
    photographers: people.map((person) => ({ id: person.id, name: person.name })),
    // The week grid shades the time the studios shown are closed (decision 0138).
    openings: studios
      .filter((studio) => studio.retiredAt === null && (!studioId || studio.id === studioId))
      .map((studio) => ({
        name: studio.data.name,
        hours: studio.data.hours,
        closures: studio.data.closures,
      })),
  };
}

type BlockAnswer = FormAnswer<{ errors: FieldErrors; message: string }>;

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "unblock") {
    const id = formData.get("id");
    const done = isUuid(id) && (await unblockPeriod(id));
    return redirectWithToast(
      AGENDA_PAGE,
      done
        ? {
            type: "success",
            title: "Période débloquée",
            description: "Ce temps est de nouveau réservable.",
          }
        : { type: "error", title: "Cette période n'existe plus" },
    );
  }
  if (intent !== "block") return data({ error: "Action inconnue" }, { status: 400 });

  const values = formValues(formData, ["intent"]);
  const errors: FieldErrors = {};
  const start = parisDateTimeToInstant(values.start ?? "");
  const end = parisDateTimeToInstant(values.end ?? "");
  if (!start) errors.start = "Indiquez le début (date et heure)";
  if (!end) errors.end = "Indiquez la fin (date et heure)";
  const studioId = values.studioId ? values.studioId : null;
  const photographerId = values.photographerId ? values.photographerId : null;
  const refuse = (fieldErrors: FieldErrors, message: string, status = 400) =>
    data<BlockAnswer>(
      { status: answerStatus(status), values, errors: fieldErrors, message },
      { status },
    );
  if (!start || !end)
    return refuse(errors, "La période n'est pas bloquée : un champ est à corriger.");
  try {
    await blockPeriod({
      studioId,
      photographerId,
      start,
      end,
      label: values.label ?? "",
      createdBy: admin.id,
    });
  } catch (error) {
    if (error instanceof BookingRefusedError) {
      return refuse({ ...error.fieldErrors }, error.message, error.status);
    }
    throw error;
  }
  return redirectWithToast(`${AGENDA_PAGE}?vue=semaine&date=${dayOf(start.toISOString())}`, {
    type: "success",
    title: "Période bloquée",
    description: "Aucune réservation ne peut y être prise.",
  });
}
