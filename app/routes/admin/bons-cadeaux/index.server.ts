import { randomUUID } from "node:crypto";
import { data } from "react-router";
import type { Route } from "./+types/index";
import { typedCents } from "~/lib/payments/admin-words";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { isUuid, postedFormKey } from "~/lib/forms";
import { instantLabelFr } from "~/lib/booking/words";
import { requireAdmin } from "~/server/admin/guard.server";
import { lastMailRefusal } from "~/server/mail/failures.server";
import { queueVoucherDeliveryMail } from "~/server/vouchers/emails.server";
import { VOUCHER_STATUSES } from "~/server/db/schema";
import { listPath, pagePosition, searchParam } from "~/server/db/keyset.server";
import {
  useSessionVoucherAtStudio,
  VOUCHER_LIST_ORDER,
  voucherById,
  voucherPage,
} from "~/server/vouchers/admin-vouchers.server";
import { extendVoucher } from "~/server/vouchers/lifecycle.server";
import { cancelVoucher } from "~/server/vouchers/queries.server";
import { useAmountVoucher } from "~/server/vouchers/redemption.server";
import { VoucherRefusedError } from "~/server/vouchers/refusals.server";
import { redirectWithToast } from "~/server/toast.server";

const PAGE = "/admin/bons-cadeaux";
/** What the list's address keeps when an action brings the owner back to it. */
const LIST_PARAMS = ["statut", "q", "apres", "avant"];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const status = VOUCHER_STATUSES.find((candidate) => candidate === params.get("statut")) ?? null;
  const search = searchParam(params);
  const page = await voucherPage({ status, search }, pagePosition(VOUCHER_LIST_ORDER, params));
  return {
    status,
    search,
    matching: page.matching,
    previous: page.previous,
    next: page.next,
    vouchers: await Promise.all(
      page.rows.map(async ({ deliveryFailedAt, reminderUndelivered, ...row }) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        /** Its reminder before expiry refused (decision 0167), at either address. */
        reminderUndelivered: reminderUndelivered
          ? { ...reminderUndelivered, at: instantLabelFr(reminderUndelivered.at) }
          : null,
        /**
         * Its e-mail given up: to which address, when, and what the mail server said (the outbox's failure
         * for that address, while it is kept).
         */
        undelivered:
          deliveryFailedAt && row.deliveryFailedTo
            ? {
                to: row.deliveryFailedTo,
                at: instantLabelFr(deliveryFailedAt),
                /** Sent to the recipient: the buyer was told by e-mail (her own address failed: not). */
                buyerTold: row.sendTo === "recipient",
                error:
                  (
                    await lastMailRefusal(
                      queueVoucherDeliveryMail.definition.failureKind,
                      row.deliveryFailedTo,
                    )
                  )?.error ?? null,
              }
            : null,
        /** Its « Utiliser » form's key, new with every page: posted twice, the amount is taken once. */
        useKey: randomUUID(),
      })),
    ),
  };
}

/** A refusal shown at the voucher's row, with what was typed. */
export type VoucherAnswer = {
  voucherId: string;
  field: "amount" | "expiry";
  error: string;
  typed: string;
};

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const id = formData.get("id");
  const back = listPath(PAGE, new URL(request.url).searchParams, LIST_PARAMS);
  const voucher = isUuid(id) ? await voucherById(id) : null;
  if (!voucher) return redirectWithToast(back, { type: "error", title: "Ce bon n'existe pas" });
  const name = voucher.code ? formatVoucherCode(voucher.code) : voucher.label;
  const refuse = (field: VoucherAnswer["field"], error: string, typed: string, status = 400) =>
    data<VoucherAnswer>({ voucherId: voucher.id, field, error, typed }, { status });
  try {
    if (intent === "use-amount") {
      const typed = String(formData.get("amount") ?? "");
      const cents = typedCents(typed);
      if (cents === null) {
        return refuse("amount", "Indiquez un montant en euros, par exemple 40 ou 12,50.", typed);
      }
      // A page drawn before the form had a key posts none: the amount is still taken, unguarded as it
      // always was, rather than making the owner type it again for a page a new release left keyless.
      const used = await useAmountVoucher({
        code: voucher.code ?? "",
        amountCents: cents,
        idempotencyKey: postedFormKey(formData) ?? undefined,
      });
      if (!used.ok) return refuse("amount", used.message, typed, 409);
      const taken = formatCents(used.use.amountCents);
      // Its invoice (the TVA of a multi-purpose voucher is due at its use) is listed with the voucher.
      const invoiced = used.invoice ? ` Facture ${used.invoice.number} émise.` : "";
      const left = `Il reste ${formatCents(used.voucher.balanceCents)}.${invoiced}`;
      return redirectWithToast(
        back,
        used.repeated
          ? {
              type: "success",
              title: `${taken} déjà utilisés sur le bon ${name}`,
              description: `Ce montant n'a été pris qu'une fois. ${left}`,
            }
          : { type: "success", title: `${taken} utilisés sur le bon ${name}`, description: left },
      );
    }
    if (intent === "use-session") {
      const used = await useSessionVoucherAtStudio(voucher.id);
      if (!used.ok) return redirectWithToast(back, { type: "error", title: used.message });
      return redirectWithToast(back, {
        type: "success",
        title: `Bon ${name} utilisé`,
        description: `${voucher.label} : la séance est réglée par ce bon.`,
      });
    }
    if (intent === "extend") {
      const typed = String(formData.get("expiresOn") ?? "");
      const extended = await extendVoucher(voucher.id, typed, admin.id).catch((error: unknown) => {
        if (error instanceof VoucherRefusedError) return error;
        throw error;
      });
      if (extended instanceof VoucherRefusedError) {
        return refuse("expiry", extended.message, typed, extended.status);
      }
      return redirectWithToast(back, { type: "success", title: `Bon ${name} prolongé` });
    }
    if (intent === "cancel") {
      await cancelVoucher(voucher.id, "owner");
      return redirectWithToast(back, {
        type: "success",
        title: `Bon ${name} annulé`,
        description: "Pour rendre l'argent, utilisez « Rembourser » sur sa commande.",
      });
    }
  } catch (error) {
    if (error instanceof VoucherRefusedError) {
      return redirectWithToast(back, { type: "error", title: error.message });
    }
    throw error;
  }
  return redirectWithToast(back, { type: "error", title: "Action inconnue" });
}
