import { data, redirect } from "react-router";
import type { Route } from "./+types/reservation";
import { dayOf } from "~/components/booking-admin/agenda-parts";
import { BOOKING_STEP_PARAMS, type BookingStepAnswer } from "~/lib/booking/admin-pages";
import { durationFr, isIsoDay } from "~/lib/booking/agenda-format";
import { eventMessage, eventSentence } from "~/lib/booking/event-lines";
import { managePath } from "~/lib/booking/urls";
import { instantLabelFr } from "~/lib/booking/words";
import { formValues, isUuid, answerStatus } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { env } from "~/server/env.server";
import { manageTokenFor } from "~/server/booking/manage-token.server";
import { bookingDetail, ownerFreeSlots, studiosOffering } from "~/server/booking/agenda.server";
import {
  acceptRequest,
  cancelBooking,
  depositAcceptanceNotice,
  correctBookingClient,
  declineRequest,
  markBookingOutcome,
  moveBooking,
  ownerAuthor,
  setInternalNote,
} from "~/server/booking/bookings.server";
import { BookingRefusedError } from "~/server/booking/refusals.server";
import { voucherForOwner } from "~/server/booking/vouchers.server";
import {
  depositForOwner,
  recordBalancePaid,
  recordedBalance,
  VoucherPartRefusedError,
} from "~/server/booking/deposits.server";
import { invoicesOfBooking } from "~/server/invoices/orders.server";
import { INVOICE_TITLES, invoiceAmount, type InvoiceKind } from "~/lib/invoices/model";
import { formatDateFr } from "~/lib/dates";
import { typedCents } from "~/lib/payments/admin-words";
import { OFFLINE_MEANS } from "~/lib/payments/model";
import { PaymentRefusedError } from "~/server/payments/refusals.server";
import { redirectWithToast } from "~/server/toast.server";

/** A booking's documents as its page names them: the balance's invoice is its « facture de solde ». */
const BOOKING_INVOICE_TITLES: Record<InvoiceKind, string> = {
  ...INVOICE_TITLES,
  final: "Facture de solde",
};

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
  const moving = url.searchParams.has(BOOKING_STEP_PARAMS.move);
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
  const deposit = await depositForOwner(booking.id);
  // The way her client chose to pay its deposit no longer taken: what accepting does (decision 0186).
  const acceptNotice = await depositAcceptanceNotice(booking.id);
  const voucher = await voucherForOwner(booking.id);
  return {
    booking: {
      id: booking.id,
      state: booking.state,
      depositAwaited: booking.depositAwaited,
      depositHeld: booking.depositHeld,
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
    /** Above « Accepter la demande »: the way of paying its client chose is no longer taken, and so. */
    acceptNotice,
    /** Its deposit, the rules the client accepted, what is owed (decisions 0186 and 0199). */
    deposit,
    /** The balance recorded at the studio, in place of its form (one a booking). */
    balance: await recordedBalance(booking.id),
    /** Its invoices and credit notes (deposit, balance, refunds), each a PDF. */
    invoices: (await invoicesOfBooking(booking.id)).map((invoice) => ({
      number: invoice.number,
      title: BOOKING_INVOICE_TITLES[invoice.kind],
      amount: invoiceAmount(invoice.ttcCents),
      issuedOn: formatDateFr(invoice.issuedAt),
    })),
    /** « Réglée par bon cadeau … » when a session voucher pays it (decision 0170); a deposit an amount
     * voucher paid is said in its section (decision 0199). */
    paidBy: deposit && !deposit.orderId ? null : voucher.line,
    /** The code of the voucher it gave back expired (after its last day): her link to extend it. */
    voucherToExtend: voucher.toExtend,
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
    /** The client's details' form, opened by « Modifier » (its own step: a form of its own). */
    editingClient: url.searchParams.has(BOOKING_STEP_PARAMS.client),
    step: url.searchParams.has(BOOKING_STEP_PARAMS.cancel)
      ? ("cancel" as const)
      : url.searchParams.has(BOOKING_STEP_PARAMS.decline)
        ? ("decline" as const)
        : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const by = ownerAuthor(admin);
  const here = `/admin/reservations/${params.id}`;
  if (!isUuid(params.id)) return data({ error: "Réservation inconnue" }, { status: 404 });
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const values = formValues(formData, ["intent"]);
  const message = (values.message ?? "").trim();
  const step: BookingStepAnswer["step"] =
    intent === "move"
      ? "move"
      : intent === "cancel"
        ? "cancel"
        : intent === "decline"
          ? "decline"
          : intent === "note"
            ? "note"
            : intent === "client"
              ? "client"
              : intent === "balance"
                ? "balance"
                : "other";
  try {
    switch (intent) {
      case "accept":
        return redirectWithToast(here, {
          type: "success",
          title: "Demande acceptée",
          description:
            (await acceptRequest(params.id, by)) === "awaiting_payment"
              ? "Le lien de paiement part à la cliente par e-mail : la séance sera confirmée à la réception de son paiement."
              : "La séance est confirmée.",
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
      case "balance": {
        // The balance paid at the studio (decision 0186), part or all of it maybe by an amount voucher
        // (decision 0201), for its final invoice. Each field's message at its field; nothing typed is lost.
        const code = (values.voucherCode ?? "").trim();
        const voucherText = (values.voucherAmount ?? "").trim();
        const received = (values.amount ?? "").trim();
        const errors: Record<string, string> = {};
        const voucherCents = voucherText ? typedCents(voucherText) : null;
        if (code && voucherCents === null) {
          errors.voucherAmount =
            "Indiquez le montant pris sur le bon en euros (par exemple 50 ou 49,50).";
        }
        if (!code && voucherText) errors.voucherCode = "Indiquez le code du bon cadeau.";
        // With a voucher, the money received may be nothing (the voucher pays it all).
        const cents =
          received === "" || (code && /^0+([.,]0*)?$/.test(received)) ? 0 : typedCents(received);
        if (cents === null || (cents === 0 && !code)) {
          errors.amount = "Indiquez le montant reçu en euros (par exemple 90 ou 89,50).";
        }
        const means = OFFLINE_MEANS.find((candidate) => candidate === values.means);
        if (!means) errors.means = "Choisissez comment la cliente a réglé.";
        const refused = (message: string, status: number) =>
          data<BookingStepAnswer>(
            { status: "invalid", message, values, step: "balance", errors },
            { status },
          );
        if (Object.keys(errors).length > 0 || cents === null || !means) {
          return refused("Le solde n'est pas enregistré : corrigez les champs signalés.", 400);
        }
        try {
          await recordBalancePaid({
            bookingId: params.id,
            amountCents: cents,
            means,
            voucher: code && voucherCents !== null ? { code, amountCents: voucherCents } : null,
          });
        } catch (error) {
          if (!(error instanceof PaymentRefusedError)) throw error;
          if (error instanceof VoucherPartRefusedError) errors.voucherCode = error.message;
          return refused(error.message, error.status);
        }
        return redirectWithToast(here, {
          type: "success",
          title: "Solde enregistré",
          description: "Sa facture est émise (ou le sera dès l'identité du vendeur complète).",
        });
      }
      case "note":
        await setInternalNote(params.id, values.internalNote ?? "");
        return redirectWithToast(here, { type: "success", title: "Note enregistrée" });
      case "client": {
        // The owner's phone booking's rules (name, optional e-mail, phone), not the visitor's limits.
        const corrected = await correctBookingClient(
          params.id,
          { name: values.name ?? "", email: values.email ?? "", phone: values.phone ?? "" },
          by,
          { sendRecap: values.sendRecap === "on" },
        );
        if (!corrected.changed) {
          return redirectWithToast(here, {
            type: "info",
            title: "Aucune modification",
            description: "Les coordonnées du client étaient déjà celles-ci.",
          });
        }
        return redirectWithToast(here, {
          type: "success",
          title: "Coordonnées enregistrées",
          ...(corrected.recapTo
            ? {
                description: `Le récapitulatif de la réservation, avec son lien, part à ${corrected.recapTo}.`,
              }
            : corrected.emailChanged
              ? {
                  description: corrected.email
                    ? "Le site n'a envoyé aucun e-mail à la nouvelle adresse : prévenez le client vous-même si besoin."
                    : "Sans adresse e-mail, le site n'écrit plus au client pour cette réservation : donnez-lui vous-même le lien de sa réservation.",
                }
              : {}),
        });
      }
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
          return data<BookingStepAnswer>(
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
      return data<BookingStepAnswer>(
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
