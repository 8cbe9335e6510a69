import { randomUUID } from "node:crypto";
import { data } from "react-router";
import type { Route } from "./+types/commande";
import {
  centsForInput,
  heldAcceptedToast,
  PAID_ORDER_EFFECTS,
  typedCents,
} from "~/lib/payments/admin-words";
import {
  defaultRefundMeans,
  failedRefundReplaced,
  OFFLINE_MEANS,
  REFUND_MEANS_LABELS,
  type OfflineMeans,
  type RefundStatus,
} from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { isUuid, postedFormKey } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { parseBuyerEmailCorrection } from "~/lib/vouchers/redelivery";
import { voucherRefundNote, type VoucherRefundHold } from "~/lib/vouchers/refund-note";
import { requireAdmin } from "~/server/admin/guard.server";
import { orderHistory } from "~/server/payments/admin-orders.server";
import {
  ALREADY_REFUNDED_TEXT,
  findOrder,
  markPaidOffline,
  markRefundedOffline,
  requestOwnerRefund,
  type RefundAsked,
  type RefundsAsked,
} from "~/server/payments/orders.server";
import { acceptHeldPayment, refundHeldPayment } from "~/server/payments/held-payments.server";
import { PaymentRefusedError } from "~/server/payments/refusals.server";
import { redirectWithToast } from "~/server/toast.server";
import { correctVoucherBuyerEmail } from "~/server/vouchers/emails.server";
import { voucherRefundHold } from "~/server/vouchers/queries.server";

const iso = (date: Date | null) => date?.toISOString() ?? null;

type Page = NonNullable<Awaited<ReturnType<typeof findOrder>>>;

/** What the refunds of `attemptIds` give back, done or on their way (a failed one no more). */
const givenBack = (page: Page, attemptIds: string[]) =>
  page.refunds
    .filter((refund) => refund.status !== "failed" && attemptIds.includes(refund.attemptId))
    .reduce((sum, refund) => sum + refund.amountCents, 0);

/**
 * Paid minus what is refunded or on its way: what « Rembourser » may still give back. A held payment
 * given back (`returned`, decision 0172) is neither paid nor refunded for the order.
 */
function refundable(page: Page): number {
  const paid = page.attempts.filter((attempt) => attempt.status === "succeeded");
  const total = paid.reduce((sum, attempt) => sum + attempt.amountCents, 0);
  return Math.max(
    total -
      givenBack(
        page,
        paid.map((attempt) => attempt.id),
      ),
    0,
  );
}

/**
 * What the refund note says is usable on an amount voucher (its balance less what the refunds on their
 * way will take); nothing once it no longer serves; null for a session voucher or none.
 */
function shownVoucherCents(
  voucher: { kind: string; status: string; balanceCents: number } | null,
  hold: VoucherRefundHold | null,
): number | null {
  if (voucher?.kind !== "amount") return null;
  if (voucher.status !== "active" && voucher.status !== "expired") return 0;
  if (hold?.cancels) return 0;
  return Math.max(0, voucher.balanceCents - (hold?.heldCents ?? 0));
}

/** The usable balance the confirmation posted (`bon`), as the page showed it; undefined for none. */
function postedVoucherCents(formData: FormData): number | undefined {
  const posted = formData.get("bon");
  return typeof posted === "string" && /^\d{1,9}$/.test(posted) ? Number(posted) : undefined;
}

const readMeans = (value: unknown): OfflineMeans | null =>
  OFFLINE_MEANS.find((means) => means === value) ?? null;

async function loadOrder(id: string) {
  const page = isUuid(id) ? await findOrder(id) : null;
  if (!page) throw data("Cette commande n'existe pas.", { status: 404 });
  return page;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = await loadOrder(params.id);
  const { order } = page;
  const history = await orderHistory(
    order.id,
    page.attempts.flatMap((attempt) =>
      attempt.providerReference ? [attempt.providerReference] : [],
    ),
    page.attempts.flatMap((attempt) =>
      attempt.paymentReference ? [attempt.paymentReference] : [],
    ),
  );
  const search = new URL(request.url).searchParams;
  const left = refundable(page);
  const hold = history.voucher ? await voucherRefundHold(page.order.id) : null;
  // The confirmations asked through the address (JavaScript off, decision 0130's GET forms).
  const meansAsked = readMeans(search.get("payer"));
  const refundAsked = search.has("rembourser");
  const refundCents = refundAsked ? typedCents(search.get("montant") ?? "") : null;
  return {
    order: {
      id: order.id,
      status: order.status,
      kind: order.kind,
      method: order.method,
      amountCents: order.amountCents,
      buyerName: order.buyerName,
      buyerEmail: order.buyerEmail,
      buyerPhone: order.buyerPhone,
      termsAcceptedAt: order.termsAcceptedAt.toISOString(),
      transferReference: order.transferReference,
      payBy: iso(order.payBy),
      paidAt: iso(order.paidAt),
      latePayment: order.latePayment,
      createdAt: order.createdAt.toISOString(),
    },
    lines: page.lines.map((line) => ({
      id: line.id,
      label: line.label,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
    })),
    attempts: page.attempts.map((attempt) => ({
      id: attempt.id,
      provider: attempt.provider,
      status: attempt.status,
      means: attempt.means,
      amountCents: attempt.amountCents,
      duplicate: attempt.duplicate,
      heldReason: attempt.heldReason,
      // Decision 0172: what the provider took, and for a held payment given back whose refund failed,
      // what is still to give back.
      heldAmountCents: attempt.heldAmountCents,
      heldCurrency: attempt.heldCurrency,
      returnLeftCents:
        attempt.status === "returned"
          ? Math.max(attempt.amountCents - givenBack(page, [attempt.id]), 0)
          : 0,
      createdAt: attempt.createdAt.toISOString(),
      succeededAt: iso(attempt.succeededAt),
    })),
    refunds: page.refunds.map((refund) => ({
      id: refund.id,
      // « Rendu par »'s choice at first, for one she gives back herself: its payment's way.
      defaultMeans: defaultRefundMeans(
        page.attempts.find((attempt) => attempt.id === refund.attemptId) ?? { means: null },
      ),
      attemptId: refund.attemptId,
      amountCents: refund.amountCents,
      reason: refund.reason,
      status: refund.status,
      error: refund.error,
      createdAt: refund.createdAt.toISOString(),
      completedAt: iso(refund.completedAt),
      // Decision 0171: a refund whose call got no answer yet (tried again by the reconciliation), and
      // a failed one that a later refund replaced (nothing left to do about it).
      unanswered: refund.status === "pending" && refund.providerReference === null,
      // Refused as done already (from the provider's dashboard): the client has the money.
      alreadyRefunded: refund.status === "failed" && refund.error === ALREADY_REFUNDED_TEXT,
      replaced: failedRefundReplaced(refund, page.refunds),
    })),
    events: history.events.map((event) => ({
      ...event,
      receivedAt: event.receivedAt.toISOString(),
      processedAt: iso(event.processedAt),
    })),
    journal: history.journal.map((row) => ({ ...row, at: row.at.toISOString() })),
    mails: history.mails.map((mail) => ({
      ...mail,
      createdAt: mail.createdAt.toISOString(),
      sentAt: iso(mail.sentAt),
    })),
    voucher: history.voucher,
    extensions: history.extensions.map((extension) => ({
      ...extension,
      at: extension.at.toISOString(),
    })),
    /** What a refund does to the order's voucher, told before it is confirmed (decision 0167). */
    refundVoucherNote: history.voucher
      ? // What is refundable beyond the price: a second payment of the order, given back first.
        voucherRefundNote(
          history.voucher,
          Math.max(0, left - order.amountCents),
          // What the refunds already on their way will take is no longer this one's to take.
          hold,
        )
      : null,
    /**
     * The amount voucher's usable balance that note names, posted with the confirmation: a use made
     * before the refund is written is then told to the owner instead of being refunded (decision 0200).
     */
    refundShownVoucherCents: shownVoucherCents(history.voucher, hold),
    /**
     * A voucher's buyer whose address was mistyped: the owner corrects it, and what was to reach her is
     * sent again (while the order waits for its payment or is paid).
     */
    buyerEmailCorrectable:
      order.kind === "voucher" && (order.status === "awaiting_payment" || order.status === "paid"),
    refundableCents: left,
    /** The refund confirmation's key, new with every page: posted twice, it refunds once. */
    refundKey: randomUUID(),
    refundableText: centsForInput(left || 1),
    confirmPayment:
      order.status === "awaiting_payment" ||
      order.status === "expired" ||
      order.status === "cancelled"
        ? meansAsked
        : null,
    confirmRefund: refundAsked
      ? {
          cents: refundCents,
          typed: search.get("montant") ?? "",
          reason: (search.get("motif") ?? "").slice(0, 500),
          error:
            refundCents === null
              ? "Indiquez un montant en euros, par exemple 40 ou 12,50."
              : refundCents > left
                ? `Vous ne pouvez pas rembourser plus que ce qui a été payé et pas encore remboursé (${formatCents(left)}).`
                : null,
        }
      : null,
  };
}

export type RefundAnswer = { error: string; typed: string; reason: string };

/** The buyer's address refused, with what the owner typed. */
export type BuyerEmailAnswer = { emailError: string; emailTyped: string };

/** What became of each part of a refund taken from several payments (an order paid twice). */
const REFUND_PART_WORDS: Record<RefundStatus, string> = {
  pending: "rendus sur sa carte par le prestataire de paiement",
  succeeded: "rendus sur sa carte par le prestataire de paiement",
  failed: "refusés par le prestataire de paiement (voyez sur cette page ce que vous pouvez faire)",
  to_refund_offline: "à lui rendre vous-même, puis cliquez sur « Remboursé »",
  refunded_offline: "rendus au client",
};

/**
 * What the owner is told of a refund she asked, or of the one her form had already asked: one refund, or
 * parts of one status, as one sum; parts of several (a card and a transfer of an order paid twice), each.
 */
function refundToast({ refunds: parts, repeated }: RefundsAsked): ToastMessage {
  const [first] = parts;
  const amountCents = parts.reduce((sum, part) => sum + part.amountCents, 0);
  if (first && parts.every((part) => part.status === first.status)) {
    return oneRefundToast({ ...first, amountCents, repeated });
  }
  return {
    type: parts.some((part) => part.status === "failed") ? "error" : "success",
    title: `Remboursement de ${formatCents(amountCents)} ${repeated ? "déjà demandé" : "demandé"}`,
    description: `${parts
      .map((part) => `${formatCents(part.amountCents)} ${REFUND_PART_WORDS[part.status]}`)
      .join(" ; ")}.`,
  };
}

function oneRefundToast(refund: RefundAsked): ToastMessage {
  const amount = formatCents(refund.amountCents);
  if (!refund.repeated) {
    // Refused by the provider at once (decision 0171): said now, not « demandé » then an e-mail.
    if (refund.status === "failed") {
      return {
        type: "error",
        title: `Remboursement de ${amount} refusé`,
        description: `${refund.error ?? "Le prestataire de paiement a refusé ce remboursement."} Voyez sur cette page ce que vous pouvez faire.`,
      };
    }
    return refund.status === "to_refund_offline"
      ? {
          type: "success",
          title: `Remboursement de ${amount} à faire`,
          description: "Rendez l'argent au client, puis cliquez sur « Remboursé ».",
        }
      : {
          type: "success",
          title: `Remboursement de ${amount} demandé`,
          description: "Le prestataire de paiement rembourse la carte du client.",
        };
  }
  switch (refund.status) {
    case "to_refund_offline":
      return {
        type: "success",
        title: "Ce remboursement est déjà enregistré",
        description: `Un seul remboursement de ${amount} est à faire : rendez l'argent au client, puis cliquez sur « Remboursé ».`,
      };
    case "refunded_offline":
      return {
        type: "success",
        title: "Ce remboursement est déjà fait",
        description: `${amount} rendus au client, une seule fois.`,
      };
    case "failed":
      return {
        type: "error",
        title: "Ce remboursement a déjà été demandé, et il a échoué",
        description:
          "Rien n'a été demandé une deuxième fois : voyez sur cette page ce que vous pouvez faire.",
      };
    default:
      // Pending or done at the provider: asked, as the first answer said; the card is credited later.
      return {
        type: "success",
        title: "Ce remboursement est déjà demandé",
        description: `Un seul remboursement de ${amount} : le prestataire de paiement rembourse la carte du client.`,
      };
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const page = await loadOrder(params.id);
  const back = `/admin/ventes/${page.order.id}`;
  const formData = await request.formData();
  const intent = formData.get("intent");
  try {
    if (intent === "mark-paid") {
      const means = readMeans(formData.get("means"));
      if (!means) {
        return redirectWithToast(back, {
          type: "error",
          title: "Choisissez comment vous avez été payée",
        });
      }
      await markPaidOffline(page.order.id, means);
      return redirectWithToast(back, {
        type: "success",
        title: "Commande payée",
        description: `Le paiement est enregistré ; ${PAID_ORDER_EFFECTS[page.order.kind].done}.`,
      });
    }
    if (intent === "refund") {
      const typed = String(formData.get("amount") ?? "");
      const reason = String(formData.get("reason") ?? "").slice(0, 500);
      const cents = typedCents(typed);
      const left = refundable(page);
      const refuse = (error: string) =>
        data<RefundAnswer>({ error, typed, reason }, { status: 400 });
      if (cents === null) return refuse("Indiquez un montant en euros, par exemple 40 ou 12,50.");
      // The confirmation's key: posted again, it finds the refund it made (even one that left nothing
      // to refund), so what is left is checked by requestRefund after it. A page drawn before the key
      // existed posts none: its refund is still made, unguarded as it always was, rather than making the
      // owner ask again for a refund only a new release of the site left keyless.
      const formKey = postedFormKey(formData) ?? undefined;
      try {
        // An order paid twice offers the sum of both payments: a refund is taken from each as needed.
        const asked = await requestOwnerRefund(page.order.id, cents, reason, {
          formKey,
          shownVoucherCents: postedVoucherCents(formData),
        });
        return redirectWithToast(back, refundToast(asked));
      } catch (error) {
        // A use of the voucher made since the page was drawn: told, her amount and reason kept.
        if (error instanceof PaymentRefusedError && error.code === "voucher_used_meanwhile") {
          return refuse(error.message);
        }
        if (error instanceof PaymentRefusedError && cents > left) {
          return refuse(
            `Vous ne pouvez pas rembourser plus que ce qui a été payé et pas encore remboursé (${formatCents(left)}).`,
          );
        }
        throw error;
      }
    }
    if (intent === "accept-held" || intent === "refund-held") {
      const id = formData.get("id");
      const held = page.attempts.find((attempt) => attempt.id === id);
      if (!held)
        return redirectWithToast(back, { type: "error", title: "Ce paiement n'existe pas" });
      if (intent === "accept-held") {
        const accepted = await acceptHeldPayment(page.order.id, held.id);
        const received = formatCents(held.heldAmountCents ?? held.amountCents);
        return redirectWithToast(back, heldAcceptedToast(accepted, received, page.order.kind));
      }
      const refund = await refundHeldPayment(
        page.order.id,
        held.id,
        "Montant différent de la commande",
      );
      return redirectWithToast(back, {
        type: "success",
        title: `Remboursement de ${formatCents(refund.amountCents)} demandé`,
        description:
          refund.status === "failed"
            ? "Le prestataire l'a refusé : voyez ci-dessous ce que vous pouvez faire."
            : "Le prestataire de paiement rembourse la carte du client ; la commande reste impayée.",
      });
    }
    if (intent === "buyer-email") {
      const parsed = parseBuyerEmailCorrection(formData);
      if (!parsed.ok) {
        return data<BuyerEmailAnswer>(
          { emailError: parsed.error, emailTyped: parsed.typed },
          { status: 400 },
        );
      }
      const corrected = await correctVoucherBuyerEmail(page.order.id, parsed.email);
      if (!corrected) {
        return redirectWithToast(back, {
          type: "error",
          title: "Cette adresse ne peut plus être corrigée",
          description: "La commande n'attend plus de paiement et n'est plus payée.",
        });
      }
      if (corrected.outcome === "unchanged") {
        // The form posted twice (the first corrected it and sent), or the address it had already.
        return redirectWithToast(back, {
          type: "info",
          title: "Aucune modification",
          description: "L'adresse de l'acheteur était déjà celle-ci : rien n'a été renvoyé.",
        });
      }
      return redirectWithToast(back, {
        type: "success",
        title: "Adresse corrigée",
        description: corrected.voucherSent
          ? `La commande et le bon cadeau sont envoyés à ${parsed.email}.`
          : `La commande est envoyée à ${parsed.email}.`,
      });
    }
    if (intent === "refunded-offline") {
      const id = formData.get("id");
      const mine = page.refunds.find((refund) => refund.id === id);
      if (!mine)
        return redirectWithToast(back, { type: "error", title: "Ce remboursement n'existe pas" });
      // « Rendu par »: how she gave it back (decision 0171, amended), the accountant's « Mode de
      // règlement » of the refund; a form without the field (a page loaded before it) keeps the payment's.
      const posted = formData.get("mode");
      const means = posted === null ? undefined : readMeans(posted);
      if (means === null) {
        return redirectWithToast(back, {
          type: "error",
          title: "Remboursement non enregistré",
          description:
            "Choisissez comment vous avez rendu l'argent : virement, chèque, espèces ou carte au studio.",
        });
      }
      await markRefundedOffline(mine.id, means);
      return redirectWithToast(back, {
        type: "success",
        title: "Remboursement enregistré",
        description: `${formatCents(mine.amountCents)} rendus au client${means ? ` (${REFUND_MEANS_LABELS[means].toLowerCase()})` : ""}.`,
      });
    }
  } catch (error) {
    if (error instanceof PaymentRefusedError) {
      if (intent === "refund") {
        return data<RefundAnswer>(
          {
            error: error.message,
            typed: String(formData.get("amount") ?? ""),
            reason: String(formData.get("reason") ?? ""),
          },
          { status: error.status },
        );
      }
      return redirectWithToast(back, { type: "error", title: error.message });
    }
    throw error;
  }
  return data({ error: "Action inconnue", typed: "", reason: "" }, { status: 400 });
}
