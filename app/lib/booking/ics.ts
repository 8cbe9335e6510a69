import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
  ICalEventTransparency,
} from "ical-generator";
import type { BookingState } from "./model";

/*
 * A booking as an iCalendar event (RFC 5545), the `.ics` attached to the client's e-mails: a stable UID (the
 * booking's id at the site's host) and the booking's SEQUENCE, so that a calendar updates the same event when
 * the booking moves and marks it cancelled (STATUS:CANCELLED, METHOD:CANCEL) instead of adding another.
 * Written by ical-generator, as the owner's feed is (calendar-feed.server.ts): escaping, folding at 75 octets
 * and CRLF are the library's; times in UTC (no VTIMEZONE needed).
 */

export type IcsEvent = {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  /** When this version of the event was written (DTSTAMP). */
  stamp: Date;
  summary: string;
  description: string;
  location: string;
  url?: string;
  organizer?: { name: string; email: string };
  /**
   * The client, who booked it: a METHOD:REQUEST names its attendee (RFC 5546 §3.2.2), without which some
   * calendars take a later version for a new event instead of an update.
   */
  attendee?: { name: string; email: string };
  status: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
  /**
   * A file the client downloads from her page (« Ajouter à mon agenda », decision 0124): METHOD:PUBLISH and
   * no attendee (RFC 5546 §3.2.1), an event to add rather than an invitation to answer. Same UID and
   * SEQUENCE, so the e-mails' later versions update it.
   */
  publish?: boolean;
};

const STATUS = {
  CONFIRMED: ICalEventStatus.CONFIRMED,
  TENTATIVE: ICalEventStatus.TENTATIVE,
  CANCELLED: ICalEventStatus.CANCELLED,
} as const;

/**
 * A booking's event status, in the client's `.ics` and in the owner's calendar feed alike: a request or a
 * booking whose deposit is not paid yet may still not take place; refused, expired or cancelled, it will not.
 */
export const BOOKING_EVENT_STATUS: Record<BookingState, IcsEvent["status"]> = {
  pending: "TENTATIVE",
  awaiting_payment: "TENTATIVE",
  confirmed: "CONFIRMED",
  done: "CONFIRMED",
  no_show: "CONFIRMED",
  cancelled: "CANCELLED",
  declined: "CANCELLED",
  expired: "CANCELLED",
};

/** A status as the calendar library writes it. */
export const icalStatus = (status: IcsEvent["status"]): ICalEventStatus => STATUS[status];

/** The calendar file of one event: METHOD:REQUEST, or METHOD:CANCEL for a cancelled one. */
export function icsCalendar(event: IcsEvent): string {
  const calendar = ical({
    prodId: { company: "Studio photo", product: "Reservations", language: "FR" },
    method: event.publish
      ? ICalCalendarMethod.PUBLISH
      : event.status === "CANCELLED"
        ? ICalCalendarMethod.CANCEL
        : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    id: event.uid,
    sequence: event.sequence,
    stamp: event.stamp,
    start: event.start,
    end: event.end,
    summary: event.summary,
    description: event.description,
    location: event.location,
    ...(event.url ? { url: event.url } : {}),
    ...(event.organizer
      ? { organizer: { name: event.organizer.name, email: event.organizer.email } }
      : {}),
    ...(event.attendee && !event.publish
      ? {
          attendees: [
            {
              name: event.attendee.name,
              email: event.attendee.email,
              role: ICalAttendeeRole.REQ,
              // She asked for it: nothing to answer.
              status: ICalAttendeeStatus.ACCEPTED,
              rsvp: false,
            },
          ],
        }
      : {}),
    status: STATUS[event.status],
    transparency: ICalEventTransparency.OPAQUE,
  });
  // Every content line ends with CRLF (RFC 5545 §3.1), the last one too, which the library leaves off.
  const text = calendar.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}
