import { data, redirect } from "react-router";
import type { Route } from "./+types/index";
import { parseMonth } from "~/lib/booking/month";
import { bookingStateLabel } from "~/lib/booking/model";
import { slotKeyOf } from "~/lib/booking/slots";
import { manageInvoicePath, managePath } from "~/lib/booking/urls";
import { durationLabelFr, instantLabelFr, slotLabelFr } from "~/lib/booking/words";
import { parseIsoDay } from "~/lib/dates";
import { cancelBooking, moveBooking } from "~/server/booking/bookings.server";
import { managedBooking } from "~/server/booking/manage-page.server";
import { voucherLineForClient } from "~/server/booking/vouchers.server";
import { depositForClient, recordedBalance } from "~/server/booking/deposits.server";
import { depositAwaitedOf } from "~/server/booking/state-reading.server";
import { invoiceLink } from "~/lib/invoices/links";
import { clientInvoicesOfBooking } from "~/server/invoices/voucher-uses.server";
import { BookingRefusedError } from "~/server/booking/refusals.server";
import { freeDaysOfMonth, freeTimesOf, type FreeMonth } from "~/server/booking/visitor.server";
import { consumeRateLimit } from "~/server/rate-limit.server";
import { clientAddressContext } from "~/server/context";
import { siteContent } from "~/server/content/site-content.server";
import { sessionOffer } from "~/lib/booking/offer";

const DONE: Record<string, string> = {
  annulee: "Votre séance est annulée. Un e-mail de confirmation vous est envoyé.",
  deplacee: "Votre séance est déplacée. Un e-mail avec le nouvel horaire vous est envoyé.",
  // Decision 0123: an address not yet confirmed gets a few e-mails a day from the client's own actions.
  "annulee-sans-email":
    "Votre séance est annulée. Cette adresse e-mail a déjà reçu plusieurs messages aujourd'hui : aucun e-mail n'est envoyé cette fois.",
  "deplacee-sans-email":
    "Votre séance est déplacée. Cette adresse e-mail a déjà reçu plusieurs messages aujourd'hui : aucun e-mail n'est envoyé cette fois.",
};
/** A booking the studio took by phone without e-mail (decision 0138): the site never writes to its client. */
const DONE_WITHOUT_MAIL: Record<string, string> = {
  annulee: "Votre séance est annulée. Le studio en est prévenu.",
  deplacee: "Votre séance est déplacée. Le studio en est prévenu.",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const [managed, content] = await Promise.all([
    managedBooking(params.token),
    siteContent(context),
  ]);
  const { booking, type, studio, changeable } = managed;
  // What the session costs and includes: its price card's when it is its offer (decision 0127).
  const offer = sessionOffer(content.documents.prices, type);
  const search = new URL(request.url).searchParams;
  const moving = changeable && search.get("deplacer") === "1" && !type.archived;
  const cancelling = changeable && search.get("annuler") === "1";
  // An impossible day in the address (2026-12-32, 0000-00-00) is no day chosen (decision 0122).
  const day = parseIsoDay(search.get("jour"));
  const month = parseMonth(search.get("mois"));
  let calendar: FreeMonth | null = null;
  let times: { key: string; time: string }[] = [];
  // The time chosen for a move, shown for confirmation before anything changes (decision 0124).
  let confirmMove: { key: string; label: string } | null = null;
  if (moving) {
    // Its own time does not stand in its way: it can move by half an hour.
    const query = {
      studioId: booking.studioId,
      sessionTypeId: booking.sessionTypeId,
      privateToken: type.privateToken,
      exceptBookingId: booking.id,
    };
    const [free, dayTimes] = await Promise.all([
      freeDaysOfMonth({ ...query, month, day }),
      day ? freeTimesOf({ ...query, day }) : Promise.resolve([]),
    ]);
    calendar = free;
    const current = slotKeyOf(booking.startsAt);
    times = dayTimes
      .filter((slot) => slot.key !== current)
      .map((slot) => ({ key: slot.key, time: slot.time }));
    // Only one of the day's free times is confirmed; any other value shows the day's times again.
    const chosen = times.find((slot) => slot.key === search.get("creneau"));
    if (chosen) confirmMove = { key: chosen.key, label: slotLabelFr(chosen.key) };
  }
  /** Its deposit and the rules she accepted (decision 0186). */
  const deposit = await depositForClient(booking, type.cutoffHours, managed.voucherPayment);
  // Her card payment, taken for another total, waits for the owner (decision 0172): it came; nothing is
  // to be paid before a deadline, nor booked and paid again.
  const held = deposit?.held ?? false;
  return data(
    {
      token: params.token,
      booking: {
        state: booking.state,
        stateLabel: bookingStateLabel(booking.state, await depositAwaitedOf(booking), held),
        when: instantLabelFr(booking.startsAt),
        duration: durationLabelFr(
          Math.round((booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000),
        ),
        clientName: booking.clientName,
        respondBy: booking.respondBy && !held ? instantLabelFr(booking.respondBy) : null,
      },
      type: {
        name: type.name,
        cutoffHours: type.cutoffHours,
        price: offer.price,
        included: offer.included,
      },
      // A session voucher paying it, or given back expired (the studio can extend it); an amount voucher
      // paid the deposit: its section says so, with the rules she accepted.
      paidBy: await voucherLineForClient(booking.id),
      deposit,
      /**
       * The balance the studio recorded (decisions 0186 and 0201), in the owner's page's words: how much,
       * which day, by what means and what a voucher (hers: its code is on her invoice) paid of it. Its
       * sentence only, never the owner's order or voucher ids.
       */
      balance: (await recordedBalance(booking.id))?.sentence ?? null,
      /**
       * The invoices of the gift vouchers' uses that paid its deposit or its balance (none under the
       * franchise) and the final invoice of its balance, and their credit notes (decisions 0199 and 0201):
       * hers, and no page of hers lists them otherwise.
       */
      invoices: (await clientInvoicesOfBooking(booking.id)).map((invoice) =>
        invoiceLink(invoice, manageInvoicePath(params.token, invoice.number)),
      ),
      changeUntil: instantLabelFr(
        new Date(booking.startsAt.getTime() - type.cutoffHours * 3_600_000),
      ),
      studio,
      changeable,
      rebookPath: held ? null : managed.rebookPath,
      moving,
      cancelling,
      day,
      calendar,
      times,
      confirmMove,
      done: booking.clientMail
        ? (DONE[search.get("fait") ?? ""] ?? null)
        : (DONE_WITHOUT_MAIL[(search.get("fait") ?? "").replace(/-sans-email$/, "")] ?? null),
      clientMail: booking.clientMail,
      created: search.get("nouvelle") === "1",
    },
    { headers: PRIVATE_HEADERS },
  );
}

/**
 * `same-origin` rather than `no-referrer` (the address is the key, and no other site may receive it): with
 * `no-referrer` a browser posts the page's forms with `Origin: null`, which the CSRF check refuses.
 */
const PRIVATE_HEADERS = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "same-origin",
};

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers(PRIVATE_HEADERS);
  for (const source of [loaderHeaders, actionHeaders]) {
    source.forEach((value, key) => headers.set(key, value));
  }
  return headers;
};

/** Cancelling and moving from the client's page: each refused as a French 4xx, never a 5xx. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const managed = await managedBooking(params.token);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const refuse = (status: number, message: string) =>
    data({ message }, { status, headers: PRIVATE_HEADERS });
  const limited = await consumeRateLimit(`booking-manage:${context.get(clientAddressContext)}`, {
    limit: 30,
    windowSeconds: 3600,
  });
  if (!limited.allowed) return refuse(429, "Trop de modifications : réessayez dans une heure.");
  try {
    if (intent === "cancel") {
      const { mailed } = await cancelBooking(managed.booking.id, { actor: "client" });
      return redirect(
        managePath(params.token, { fait: mailed ? "annulee" : "annulee-sans-email" }),
        303,
      );
    }
    if (intent === "move") {
      const slot = formData.get("creneau");
      if (typeof slot !== "string" || slot.length > 40) {
        return refuse(400, "Choisissez un horaire.");
      }
      const { mailed } = await moveBooking(managed.booking.id, { slot }, { actor: "client" });
      return redirect(
        managePath(params.token, { fait: mailed ? "deplacee" : "deplacee-sans-email" }),
        303,
      );
    }
    return refuse(400, "Cette action n'existe pas.");
  } catch (error) {
    if (error instanceof BookingRefusedError) return refuse(error.status, error.message);
    throw error;
  }
}
