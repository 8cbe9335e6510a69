import { and, asc, eq, isNull, or } from "drizzle-orm";
import { data } from "react-router";
import { addMonths, monthBounds, monthOf } from "~/lib/booking/month";
import { horizonLastDay, nextFreeTimesWeek, type FreeSlot } from "~/lib/booking/slots";
import { isIsoDay, isoDayInParis } from "~/lib/dates";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { now as clockNow } from "../clock.server";
import type { SiteContent, StudioRecord } from "../content/site-content.server";
import { db } from "../db/client.server";
import { sessionTypes, sessionTypeStudios } from "../db/schema";
import { findFreeSlots, slotRulesOf } from "./availability.server";
import { BookingRefusedError } from "./refusals.server";

/*
 * What the visitor's booking pages read (decision 0115): the studios that take bookings on the
 * site, the session types each offers, the next free days. Every page's address is checked here: an
 * unknown studio, a studio with booking off, an unknown, archived or private type without its secret all
 * answer the same French 404.
 */

export type OfferedSessionType = Pick<
  typeof sessionTypes.$inferSelect,
  | "id"
  | "slug"
  | "name"
  | "description"
  | "photoId"
  | "durationMinutes"
  | "priceText"
  | "includedText"
  | "mode"
  | "depositText"
  | "deposit"
  | "visibility"
  | "questions"
  | "responseDeadlineHours"
  | "cancellationCutoffHours"
>;

/** The studios on the site whose « Réservation en ligne » is on, in menu order. */
export const bookingStudios = (content: SiteContent): StudioRecord[] =>
  content.studios.filter((studio) => studio.data.onlineBooking);

/**
 * The studio of a booking page's address, or a 404 (unknown, retired, or booking off). An administrator's
 * preview of a session type opens the studios it names even before their booking is on.
 */
export function bookingStudioAt(content: SiteContent, slug: string | undefined): StudioRecord {
  const previewed = content.sessionTypePreview?.value.studioIds ?? [];
  const studio = content.studios.find(
    (candidate) =>
      candidate.slug === slug && (candidate.data.onlineBooking || previewed.includes(candidate.id)),
  );
  if (!studio) throw data(null, NOT_FOUND_INIT);
  return studio;
}

/**
 * The session types of a studio's booking page, with the one an administrator previews in its place (or
 * added, for one not offered there yet or not created yet), whatever its visibility.
 */
export function withPreviewedType(
  types: readonly OfferedSessionType[],
  content: SiteContent,
  studioId: string,
): { types: OfferedSessionType[]; previewedId: string | null } {
  const preview = content.sessionTypePreview;
  if (!preview || !preview.value.studioIds.includes(studioId)) {
    return { types: [...types], previewedId: null };
  }
  const id = preview.id ?? "apercu";
  const { value } = preview;
  const previewed: OfferedSessionType = {
    id,
    slug: value.slug,
    name: value.name,
    description: value.description,
    photoId: value.photoId,
    durationMinutes: value.durationMinutes,
    priceText: value.priceText,
    includedText: value.includedText,
    mode: value.mode,
    depositText: value.depositText,
    deposit: value.deposit ?? null,
    visibility: value.visibility,
    questions: value.questions,
    responseDeadlineHours: value.responseDeadlineHours,
    cancellationCutoffHours: value.cancellationCutoffHours,
  };
  const at = types.findIndex((type) => type.id === id);
  return {
    types:
      at >= 0
        ? types.map((type, index) => (index === at ? previewed : type))
        : [...types, previewed],
    previewedId: id,
  };
}

const offeredColumns = {
  id: sessionTypes.id,
  slug: sessionTypes.slug,
  name: sessionTypes.name,
  description: sessionTypes.description,
  photoId: sessionTypes.photoId,
  durationMinutes: sessionTypes.durationMinutes,
  priceText: sessionTypes.priceText,
  includedText: sessionTypes.includedText,
  mode: sessionTypes.mode,
  depositText: sessionTypes.depositText,
  deposit: sessionTypes.deposit,
  visibility: sessionTypes.visibility,
  questions: sessionTypes.questions,
  responseDeadlineHours: sessionTypes.responseDeadlineHours,
  cancellationCutoffHours: sessionTypes.cancellationCutoffHours,
};

/** A private type's secret as an address may carry it; anything else is no secret. */
export const privateTokenOf = (value: string | null): string | null =>
  value && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;

/**
 * The session types offered at a studio: the public ones, and the private one whose secret the visitor's
 * link carries. Archived ones never.
 */
export async function offeredSessionTypes(
  studioId: string,
  privateToken: string | null,
): Promise<OfferedSessionType[]> {
  return db()
    .select(offeredColumns)
    .from(sessionTypes)
    .innerJoin(
      sessionTypeStudios,
      and(
        eq(sessionTypeStudios.sessionTypeId, sessionTypes.id),
        eq(sessionTypeStudios.studioId, studioId),
      ),
    )
    .where(
      and(
        isNull(sessionTypes.archivedAt),
        privateToken
          ? or(eq(sessionTypes.visibility, "public"), eq(sessionTypes.privateToken, privateToken))
          : eq(sessionTypes.visibility, "public"),
      ),
    )
    .orderBy(asc(sessionTypes.position), asc(sessionTypes.name));
}

/** The session type of a booking page's address at this studio, or a 404. */
export async function offeredSessionType(
  studioId: string,
  slug: string | undefined,
  privateToken: string | null,
): Promise<OfferedSessionType> {
  const found = (await offeredSessionTypes(studioId, privateToken)).find(
    (type) => type.slug === slug,
  );
  if (!found) throw data(null, NOT_FOUND_INIT);
  return found;
}

export type FreeMonth = {
  /** The month shown, « AAAA-MM ». */
  month: string;
  /** Its days with a free time, and how many. */
  days: { day: string; count: number }[];
  /** The months to step to, none before this month nor past the type's horizon. */
  previousMonth: string | null;
  nextMonth: string | null;
};

/**
 * A month of free days (the month view, decision 0124): the month asked for, else the month of the day
 * asked for, else the month of the first free day from today. A month before this one is this one; one
 * past the horizon is the horizon's.
 */
export async function freeDaysOfMonth(query: {
  studioId: string;
  sessionTypeId: string;
  privateToken: string | null;
  month?: string | null;
  day?: string | null;
  now?: Date;
  exceptBookingId?: string;
}): Promise<FreeMonth> {
  const now = query.now ?? new Date();
  const thisMonth = monthOf(isoDayInParis(now));
  const base = {
    studioId: query.studioId,
    sessionTypeId: query.sessionTypeId,
    privateToken: query.privateToken,
    now,
    exceptBookingId: query.exceptBookingId,
  };
  const asked = query.month ?? (query.day ? monthOf(query.day) : null);
  const inMonth = (month: string) => {
    const { first, last } = monthBounds(month);
    return findFreeSlots({ ...base, fromDay: first, toDay: last });
  };
  let month: string;
  let found: Awaited<ReturnType<typeof findFreeSlots>>;
  if (asked === null) {
    found = await findFreeSlots(base);
    const first = found.days.find((day) => day.slots.length > 0);
    month = first ? monthOf(first.day) : thisMonth;
  } else {
    month = asked < thisMonth ? thisMonth : asked;
    found = await inMonth(month);
  }
  const lastMonth = monthOf(horizonLastDay(slotRulesOf(found.context.sessionType), now));
  if (month > lastMonth) {
    month = lastMonth < thisMonth ? thisMonth : lastMonth;
    found = await inMonth(month);
  }
  return {
    month,
    days: found.days
      .filter((day) => day.slots.length > 0 && monthOf(day.day) === month)
      .map((day) => ({ day: day.day, count: day.slots.length })),
    previousMonth: month > thisMonth ? addMonths(month, -1) : null,
    nextMonth: month < lastMonth ? addMonths(month, 1) : null,
  };
}

/** The free times of one day (none when it is no day, past the horizon, or full). */
export async function freeTimesOf(query: {
  studioId: string;
  sessionTypeId: string;
  privateToken: string | null;
  day: string;
  now?: Date;
  exceptBookingId?: string;
}): Promise<FreeSlot[]> {
  if (!isIsoDay(query.day)) return [];
  const { days } = await findFreeSlots({ ...query, fromDay: query.day, toDay: query.day });
  return days.find((candidate) => candidate.day === query.day)?.slots ?? [];
}

/**
 * The next free times after a refused one (a slot someone else just took): a few to choose from at once,
 * from `fromDay` (null, or a day gone: from today in Paris).
 */
export async function nextFreeTimes(
  query: { studioId: string; sessionTypeId: string; privateToken: string | null; now?: Date },
  fromDay: string | null,
  howMany = 6,
): Promise<FreeSlot[]> {
  const now = query.now ?? clockNow();
  const firstWeek = nextFreeTimesWeek(fromDay, now);
  // A week first: computing the whole horizon for each of many visitors refused at once costs seconds.
  const week = await findFreeSlots({ ...query, now, ...firstWeek });
  const soon = week.days.flatMap((day) => day.slots);
  if (soon.length >= howMany) return soon.slice(0, howMany);
  const { days } = await findFreeSlots({ ...query, now, fromDay: firstWeek.fromDay });
  return days.flatMap((day) => day.slots).slice(0, howMany);
}

/**
 * At most this many bookings to come (requests and bookings waiting for their payment included) per e-mail
 * address: a robot cannot fill a week.
 */
export const MAX_ACTIVE_BOOKINGS_PER_EMAIL = 3;

/** True for a refusal the pages answer with a message (anything else is a server error). */
export const isRefusal = (error: unknown): error is BookingRefusedError =>
  error instanceof BookingRefusedError;
