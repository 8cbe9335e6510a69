import { data } from "react-router";
import type { Route } from "./+types/reglages";
import { parseTravelMinutes, travelText } from "~/lib/booking/travel-input";
import { formValues, isUuid, type FieldErrors, type FormAnswer } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  calendarFeedCreatedAt,
  calendarFeedPath,
  renewCalendarFeed,
  revokeCalendarFeed,
} from "~/server/booking/calendar-feed.server";
import {
  addPhotographer,
  deletePhotographer,
  movePhotographer,
  pairKey,
  travelMinutesByPair,
  updatePhotographer,
  type PhotographerDeletion,
} from "~/server/booking/photographer-admin.server";
import {
  checkCalendarUrl,
  listExternalCalendars,
  setExternalCalendar,
} from "~/server/booking/external-busy.server";
import { listPhotographers, setTravelTime } from "~/server/booking/photographers.server";
import { listStudios } from "~/server/content/content-store.server";
import { env } from "~/server/env.server";
import { redirectWithToast } from "~/server/toast.server";

const PAGE = "/admin/reservations/reglages";

async function onSiteStudios() {
  return (await listStudios())
    .filter((studio) => studio.retiredAt === null)
    .map((studio) => ({ id: studio.id, name: studio.data.name, city: studio.data.city }));
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [studios, people, travel, feedSince, calendars] = await Promise.all([
    onSiteStudios(),
    listPhotographers(),
    travelMinutesByPair(),
    calendarFeedCreatedAt(),
    listExternalCalendars(),
  ]);
  const pairs = studios.flatMap((from, index) =>
    studios.slice(index + 1).map((to) => ({
      field: `travel-${from.id}-${to.id}`,
      label: `${from.city} – ${to.city}`,
      value: travelText(travel.get(pairKey(from.id, to.id))),
    })),
  );
  return {
    studios: studios.map(({ id, name }) => ({ id, name })),
    photographers: people.map((person) => ({
      id: person.id,
      name: person.name,
      active: person.active,
      studioIds: person.studioIds,
      calendar: (() => {
        const calendar = calendars.find((row) => row.photographerId === person.id);
        return calendar
          ? {
              url: calendar.url,
              syncedAt: calendar.lastSyncedAt?.toISOString() ?? null,
              error: calendar.lastError,
            }
          : null;
      })(),
    })),
    pairs,
    feedSince: feedSince?.toISOString() ?? null,
  };
}

/** A refused form of the page (`form`: a photographer's id, « new » or « travel »), or the feed's new address. */
type Answer = FormAnswer<{ form: string; errors: FieldErrors }> | { form: "feed"; feedUrl: string };

const nameError = (name: string) =>
  name === "" ? "Indiquez un nom" : name.length > 100 ? "100 caractères au plus" : undefined;

const DELETION_TOASTS: Record<PhotographerDeletion, ToastMessage> = {
  deleted: { type: "success", title: "Photographe supprimée" },
  not_found: { type: "error", title: "Cette photographe n'existe plus" },
  has_bookings: {
    type: "error",
    title: "Cette photographe a des réservations",
    description:
      "Elle reste dans leur historique : décochez plutôt « Prend de nouvelles réservations ».",
  },
  last: {
    type: "error",
    title: "Il faut au moins une photographe",
    description: "Ajoutez-en une autre avant de supprimer celle-ci.",
  },
};

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const values = formValues(formData, ["intent"]);
  const studios = await onSiteStudios();
  const ticked = studios
    .filter((studio) => values[`studio-${studio.id}`] === "on")
    .map((s) => s.id);

  if (intent === "add-photographer" || intent === "save-photographer") {
    const name = (values.name ?? "").trim();
    const id = values.id ?? "";
    const form = intent === "add-photographer" ? "new" : id;
    const error = nameError(name);
    const calendar = checkCalendarUrl(values.calendarUrl ?? "");
    const calendarError =
      intent === "save-photographer" && (values.calendarUrl ?? "").trim() !== "" && !calendar.ok
        ? calendar.error
        : undefined;
    if (error || calendarError) {
      const errors: FieldErrors = {};
      if (error) errors.name = error;
      if (calendarError) errors.calendarUrl = calendarError;
      return data<Answer>({ status: "invalid", form, values, errors }, { status: 400 });
    }
    if (intent === "add-photographer") {
      await addPhotographer(name, ticked);
      return redirectWithToast(PAGE, { type: "success", title: "Photographe ajoutée" });
    }
    if (!isUuid(id)) return data({ error: "Photographe inconnue" }, { status: 400 });
    // A studio retired since stays covered: its box is not shown.
    const current = (await listPhotographers()).find((person) => person.id === id);
    if (!current) return data({ error: "Photographe inconnue" }, { status: 404 });
    const retired = current.studioIds.filter((studioId) => !studios.some((s) => s.id === studioId));
    await updatePhotographer(id, {
      name,
      active: values.active === "on",
      studioIds: [...ticked, ...retired],
    });
    await setExternalCalendar(id, calendar.ok ? calendar.url : null);
    return redirectWithToast(PAGE, {
      type: "success",
      title: "Photographe enregistrée",
      description: "Les réservations déjà prises ne changent pas.",
    });
  }

  if (intent === "up" || intent === "down") {
    const moved = isUuid(values.id) && (await movePhotographer(values.id, intent));
    return redirectWithToast(
      PAGE,
      moved
        ? {
            type: "success",
            title: "Ordre des photographes enregistré",
            description: "Une réservation va à la première photographe libre de la liste.",
          }
        : { type: "error", title: "Cette photographe ne peut pas aller plus loin" },
    );
  }

  if (intent === "delete-photographer") {
    const outcome = await deletePhotographer(values.id ?? "");
    return redirectWithToast(PAGE, DELETION_TOASTS[outcome]);
  }

  if (intent === "save-travel") {
    const errors: FieldErrors = {};
    const figures: { a: string; b: string; minutes: number }[] = [];
    for (const [index, from] of studios.entries()) {
      for (const to of studios.slice(index + 1)) {
        const field = `travel-${from.id}-${to.id}`;
        const read = parseTravelMinutes(values[field] ?? "");
        if (!read.ok) errors[field] = read.error;
        else if (read.minutes !== null)
          figures.push({ a: from.id, b: to.id, minutes: read.minutes });
      }
    }
    if (Object.keys(errors).length > 0) {
      return data<Answer>({ status: "invalid", form: "travel", values, errors }, { status: 400 });
    }
    for (const figure of figures) await setTravelTime(figure.a, figure.b, figure.minutes);
    return redirectWithToast(PAGE, {
      type: "success",
      title: "Temps de trajet enregistrés",
      description: "Ils comptent pour les prochaines réservations.",
    });
  }

  if (intent === "renew-feed") {
    const token = await renewCalendarFeed(admin.id);
    return data<Answer>({ form: "feed", feedUrl: `${env().SITE_URL}${calendarFeedPath(token)}` });
  }
  if (intent === "revoke-feed") {
    await revokeCalendarFeed();
    return redirectWithToast(PAGE, {
      type: "success",
      title: "Lien de l'agenda désactivé",
      description: "Les agendas abonnés ne reçoivent plus vos réservations.",
    });
  }
  return data({ error: "Action inconnue" }, { status: 400 });
}
