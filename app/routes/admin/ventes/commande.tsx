import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/commande";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { Field, Input, Select } from "~/components/admin/field";
import { OrderFlags, OrderStatusBadge, VoucherStatusBadge } from "~/components/admin/sales-badges";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { formatLongDateTimeFr } from "~/lib/dates";
import { FORM_KEY_FIELD } from "~/lib/forms";
import {
  ATTEMPT_STATUS_LABELS,
  JOURNAL_KIND_LABELS,
  heldAmountText,
  mailLabel,
  mailStatusLabel,
  PAID_ORDER_EFFECTS,
  PROVIDER_LABELS,
  REFUND_STATUS_LABELS,
  sentenceOf,
} from "~/lib/payments/admin-words";
import {
  CURRENCY,
  OFFLINE_MEANS,
  OFFLINE_MEANS_LABELS,
  PAYMENT_METHOD_LABELS,
  REFUND_MEANS_LABELS,
  type OfflineMeans,
  type PaymentMethod,
} from "~/lib/payments/model";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { formatCalendarDayFr } from "~/lib/vouchers/terms";
import { formatCents } from "~/lib/prices";

export { action, loader } from "./commande.server";

export const meta: Route.MetaFunction = () => [{ title: "Commande - Administration" }];

type Moment = { at: string; title: string; detail?: string };

const section = "space-y-3 rounded-xl border border-border bg-white p-4 sm:p-6";

/** « Espèces », « Carte bancaire »… for a journal row's `method`, or null. */
const journalMeansLabel = (method: string | null): string | null =>
  OFFLINE_MEANS.find((means) => means === method)
    ? REFUND_MEANS_LABELS[method as OfflineMeans]
    : (PAYMENT_METHOD_LABELS[method as PaymentMethod] ?? null);

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, lines, attempts, refunds, events, journal, mails, voucher, extensions } =
    loaderData;
  const here = `/admin/ventes/${order.id}`;
  const unpaid =
    order.status === "awaiting_payment" ||
    order.status === "expired" ||
    order.status === "cancelled";
  const offlineUnpaid = unpaid && order.method !== "card";
  const canRefund = loaderData.refundableCents > 0;
  const pendingRefunds = refunds.filter((refund) => refund.status === "pending");
  const failedRefunds = refunds.filter((refund) => refund.status === "failed" && !refund.replaced);
  // Decision 0172: payments held for a total that differs, and held payments given back whose refund
  // failed (nothing on its way any more).
  const toDecide = attempts.filter(
    (attempt) => attempt.status === "held" || attempt.returnLeftCents > 0,
  );
  // The page's two forms answer each with its own fields: the refund's, and the buyer's address.
  const refundAnswer = actionData && "reason" in actionData ? actionData : null;
  const emailAnswer = actionData && "emailError" in actionData ? actionData : null;
  const refundError = refundAnswer?.error ?? loaderData.confirmRefund?.error ?? null;

  const moments: Moment[] = [
    { at: order.createdAt, title: "Commande passée", detail: `par ${order.buyerName}` },
    ...attempts.map((attempt) => ({
      at: attempt.succeededAt ?? attempt.createdAt,
      title: `Paiement ${PROVIDER_LABELS[attempt.provider] ?? attempt.provider} : ${ATTEMPT_STATUS_LABELS[attempt.status]}`,
      detail: [
        formatCents(attempt.amountCents),
        attempt.means ? OFFLINE_MEANS_LABELS[attempt.means] : null,
        attempt.duplicate ? "payé une deuxième fois : à rendre" : null,
        attempt.heldReason,
      ]
        .filter(Boolean)
        .join(" · "),
    })),
    ...events.map((event) => ({
      at: event.receivedAt,
      title: `Message du prestataire reçu : ${event.type}`,
      detail: event.error ? `erreur : ${event.error}` : event.processedAt ? "traité" : "en attente",
    })),
    ...refunds.map((refund) => ({
      at: refund.completedAt ?? refund.createdAt,
      title: `Remboursement de ${formatCents(refund.amountCents)} : ${REFUND_STATUS_LABELS[refund.status]}`,
      detail: refund.reason || undefined,
    })),
    ...journal.map((row) => ({
      at: row.at,
      title: `Journal : ${row.partial ? "Solde du bon cadeau réduit (remboursement partiel)" : JOURNAL_KIND_LABELS[row.kind]}`,
      // How the money came or went (a refund given back another way than its payment, decision 0171).
      detail: [formatCents(row.amountCents), journalMeansLabel(row.method)]
        .filter(Boolean)
        .join(" · "),
    })),
    ...extensions.map((extension) => ({
      at: extension.at,
      title: `Validité prolongée jusqu'au ${formatCalendarDayFr(extension.newExpiresOn)}`,
      detail: `Auparavant jusqu'au ${formatCalendarDayFr(extension.previousExpiresOn)}`,
    })),
    ...mails.map((mail) => ({
      at: mail.sentAt ?? mail.createdAt,
      title: mailLabel(mail.kind),
      detail: mailStatusLabel(mail),
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={`Commande de ${order.buyerName}`}
        summary={`${formatCents(order.amountCents)} · ${PAYMENT_METHOD_LABELS[order.method]}`}
      />
      <p>
        <Link to="/admin/ventes" className="underline underline-offset-4">
          ← Toutes les ventes
        </Link>
      </p>

      <section aria-labelledby="resume" className={section}>
        <h2 id="resume" className="font-sans text-lg font-semibold">
          Résumé
        </h2>
        <div className="flex flex-wrap gap-2">
          <OrderStatusBadge status={order.status} />
          <OrderFlags
            late={order.latePayment}
            held={attempts.some((attempt) => attempt.status === "held")}
            duplicate={attempts.some((attempt) => attempt.duplicate)}
            refundPending={pendingRefunds.length > 0}
            refundToMake={refunds.some((refund) => refund.status === "to_refund_offline")}
            refundFailed={failedRefunds.length > 0}
          />
        </div>
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-semibold">Acheteur</dt>
          <dd className="break-words">
            {order.buyerName} · <a href={`mailto:${order.buyerEmail}`}>{order.buyerEmail}</a>
            {order.buyerPhone ? ` · ${order.buyerPhone}` : ""}
          </dd>
          <dt className="font-semibold">Conditions acceptées le</dt>
          <dd>{formatLongDateTimeFr(order.termsAcceptedAt)}</dd>
          <dt className="font-semibold">Paiement</dt>
          <dd>{PAYMENT_METHOD_LABELS[order.method]}</dd>
          {order.transferReference ? (
            <>
              <dt className="font-semibold">Référence du virement</dt>
              <dd className="font-mono">{order.transferReference}</dd>
            </>
          ) : null}
          {order.payBy && unpaid ? (
            <>
              <dt className="font-semibold">À payer avant le</dt>
              <dd>{formatLongDateTimeFr(order.payBy)}</dd>
            </>
          ) : null}
          {order.paidAt ? (
            <>
              <dt className="font-semibold">Payée le</dt>
              <dd>{formatLongDateTimeFr(order.paidAt)}</dd>
            </>
          ) : null}
          {voucher ? (
            <>
              <dt className="font-semibold">Bon cadeau</dt>
              <dd className="flex flex-wrap items-center gap-2">
                {voucher.code ? (
                  <Link
                    to={`/admin/bons-cadeaux?q=${voucher.code}`}
                    className="font-mono underline underline-offset-4"
                  >
                    {formatVoucherCode(voucher.code)}
                  </Link>
                ) : (
                  "émis au paiement"
                )}
                <VoucherStatusBadge status={voucher.status} />
              </dd>
            </>
          ) : null}
        </dl>
        <h3 className="font-sans text-base font-semibold">Contenu</h3>
        <ul className="divide-y divide-border text-sm">
          {lines.map((line) => (
            <li key={line.id} className="flex justify-between gap-4 py-2">
              <span>
                {line.quantity > 1 ? `${line.quantity} × ` : ""}
                {line.label}
              </span>
              <span>{formatCents(line.quantity * line.unitPriceCents)}</span>
            </li>
          ))}
          <li className="flex justify-between gap-4 py-2 font-semibold">
            <span>Total</span>
            <span>{formatCents(order.amountCents)}</span>
          </li>
        </ul>
      </section>

      {toDecide.length > 0 ? (
        <section aria-labelledby="paiement-a-verifier" className={section}>
          <h2 id="paiement-a-verifier" className="font-sans text-lg font-semibold">
            Paiement à vérifier
          </h2>
          {toDecide.map((attempt) => {
            const otherCurrency =
              attempt.heldCurrency !== null && attempt.heldCurrency !== CURRENCY;
            const takenText = heldAmountText(
              attempt.heldAmountCents ?? attempt.amountCents,
              attempt.heldCurrency,
            );
            return (
              <div
                key={attempt.id}
                className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm"
              >
                {attempt.status === "held" ? (
                  <>
                    <p className="font-semibold">
                      Le prestataire de paiement a encaissé {takenText} au lieu de{" "}
                      {formatCents(order.amountCents)}.
                    </p>
                    <p>
                      Rien n'a été appliqué : la commande n'est pas payée et{" "}
                      {PAID_ORDER_EFFECTS[order.kind].undone}. À vous de décider :
                    </p>
                    <ul className="list-disc space-y-1 pl-5">
                      {otherCurrency ? (
                        <li>
                          Ce paiement a été fait dans une autre devise que l'euro : il ne peut
                          qu'être remboursé.
                        </li>
                      ) : (
                        <li>
                          « Accepter ce paiement » : la commande est payée avec {takenText} et{" "}
                          {PAID_ORDER_EFFECTS[order.kind].done}.
                        </li>
                      )}
                      <li>
                        « Rembourser ce paiement » : les {takenText} sont rendus au client sur sa
                        carte ; la commande reste impayée (elle est annulée à son échéance) et le
                        client peut commander de nouveau.
                      </li>
                    </ul>
                  </>
                ) : (
                  <p className="font-semibold">
                    Le remboursement de ce paiement de {takenText} a échoué : relancez-le avec «
                    Rembourser ce paiement », ou contactez {order.buyerName} pour lui rendre
                    l'argent autrement.
                  </p>
                )}
                <div className="flex flex-wrap gap-2">
                  {attempt.status === "held" && !otherCurrency ? (
                    <ConfirmedActionForm
                      id={attempt.id}
                      intent="accept-held"
                      param="accepter"
                      confirmation={`Accepter le paiement de ${takenText} pour cette commande de ${formatCents(order.amountCents)} ?`}
                      variant="default"
                      label="Accepter ce paiement"
                    />
                  ) : null}
                  <ConfirmedActionForm
                    id={attempt.id}
                    intent="refund-held"
                    param="rendre"
                    confirmation={`Rembourser ${attempt.status === "held" ? takenText : formatCents(attempt.returnLeftCents)} à ${order.buyerName} ?`}
                    variant="destructive"
                    label="Rembourser ce paiement"
                  />
                </div>
              </div>
            );
          })}
        </section>
      ) : null}

      {offlineUnpaid ? (
        <section aria-labelledby="marquer-paye" className={section}>
          <h2 id="marquer-paye" className="font-sans text-lg font-semibold">
            Marquer payé
          </h2>
          {loaderData.confirmPayment ? (
            <ConfirmPanel
              here={here}
              question={`Confirmer le paiement de ${formatCents(order.amountCents)} (${OFFLINE_MEANS_LABELS[loaderData.confirmPayment]}) ?`}
              fields={{ means: loaderData.confirmPayment }}
              intent="mark-paid"
              label="Confirmer le paiement"
            >
              <p className="text-sm">{sentenceOf(PAID_ORDER_EFFECTS[order.kind].done)}</p>
            </ConfirmPanel>
          ) : (
            <Form method="get" action={here} className="flex flex-wrap items-end gap-3">
              <Field name="payer" label="Payée par">
                {(props) => (
                  <Select
                    {...props}
                    defaultValue={order.method === "transfer" ? "transfer" : "cash"}
                  >
                    {OFFLINE_MEANS.map((means) => (
                      <option key={means} value={means}>
                        {OFFLINE_MEANS_LABELS[means]}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Button type="submit">Marquer payé…</Button>
            </Form>
          )}
        </section>
      ) : null}

      {pendingRefunds.length > 0 || failedRefunds.length > 0 ? (
        <section aria-labelledby="remboursements-suivis" className={section}>
          <h2 id="remboursements-suivis" className="font-sans text-lg font-semibold">
            Remboursements par carte
          </h2>
          {pendingRefunds.map((refund) => (
            <div
              key={refund.id}
              className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm"
            >
              <p className="font-semibold">
                Remboursement en cours : {formatCents(refund.amountCents)}
              </p>
              <p>
                Demandé le {formatLongDateTimeFr(refund.createdAt)}
                {refund.reason ? ` (${refund.reason})` : ""}.{" "}
                {refund.unanswered
                  ? "Le prestataire de paiement n'a pas encore répondu : le site lui redemande tout seul toutes les 15 minutes. Si rien ne change d'ici demain, vérifiez ce remboursement dans votre tableau de bord Stripe."
                  : "Le prestataire de paiement le traite ; la carte du client est en général recréditée sous 5 à 10 jours. Vous n'avez rien à faire : cette page l'indiquera quand il sera terminé."}
              </p>
            </div>
          ))}
          {failedRefunds.map((refund) => (
            <div
              key={refund.id}
              role="alert"
              className="space-y-1 rounded-lg border border-red-300 bg-red-50 p-3 text-sm"
            >
              <p className="font-semibold">
                Le remboursement de {formatCents(refund.amountCents)} a échoué
              </p>
              {refund.alreadyRefunded ? (
                <p>
                  {refund.error} Le client a donc déjà reçu cet argent : ne relancez pas ce
                  remboursement. Il a été fait en dehors du site : notez-le pour votre comptabilité.
                </p>
              ) : (
                <>
                  <p>
                    {refund.error ?? "Le prestataire de paiement a refusé ce remboursement."}{" "}
                    L'argent n'a pas quitté votre compte et le client n'a rien reçu.
                  </p>
                  <p>
                    Que faire : relancez le remboursement avec{" "}
                    {attempts.find((attempt) => attempt.id === refund.attemptId)?.status ===
                    "returned"
                      ? "« Rembourser ce paiement » plus haut"
                      : "« Rembourser » ci-dessous"}{" "}
                    (ce montant est de nouveau disponible). S'il échoue encore, contactez{" "}
                    {order.buyerName} pour lui rendre l'argent autrement, par exemple par virement.
                  </p>
                </>
              )}
            </div>
          ))}
        </section>
      ) : null}

      {canRefund || refunds.some((refund) => refund.status === "to_refund_offline") ? (
        <section aria-labelledby="rembourser" className={section}>
          <h2 id="rembourser" className="font-sans text-lg font-semibold">
            Rembourser
          </h2>
          {refunds
            .filter((refund) => refund.status === "to_refund_offline")
            .map((refund) => (
              <div
                key={refund.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3"
              >
                <p className="text-sm">
                  {formatCents(refund.amountCents)} à rendre au client
                  {refund.reason ? ` (${refund.reason})` : ""}.
                </p>
                <ConfirmedActionForm
                  id={refund.id}
                  intent="refunded-offline"
                  param="rembourse"
                  confirmation={`Avez-vous rendu ${formatCents(refund.amountCents)} au client ?`}
                  variant="default"
                  label="Remboursé"
                >
                  {/* How she gave it back: the refund's « Mode de règlement » in the accountant's files. */}
                  <Field
                    name="mode"
                    label="Rendu par"
                    hint="Le mode de règlement du remboursement dans les fichiers de votre comptable."
                  >
                    {(props) => (
                      <Select {...props} defaultValue={refund.defaultMeans}>
                        {OFFLINE_MEANS.map((means) => (
                          <option key={means} value={means}>
                            {REFUND_MEANS_LABELS[means]}
                          </option>
                        ))}
                      </Select>
                    )}
                  </Field>
                </ConfirmedActionForm>
              </div>
            ))}
          {canRefund ? (
            loaderData.confirmRefund && !refundError && loaderData.confirmRefund.cents ? (
              <ConfirmPanel
                here={here}
                question={`Rembourser ${formatCents(loaderData.confirmRefund.cents)} à ${order.buyerName} ?`}
                fields={{
                  amount: loaderData.confirmRefund.typed,
                  reason: loaderData.confirmRefund.reason,
                  [FORM_KEY_FIELD]: loaderData.refundKey,
                  // The voucher's usable balance the note below names: a use made since is told.
                  ...(loaderData.refundShownVoucherCents === null
                    ? {}
                    : { bon: String(loaderData.refundShownVoucherCents) }),
                }}
                intent="refund"
                label="Confirmer le remboursement"
                variant="destructive"
              >
                {loaderData.refundVoucherNote ? (
                  <p className="text-sm">{loaderData.refundVoucherNote}</p>
                ) : null}
              </ConfirmPanel>
            ) : (
              <Form method="get" action={here} noValidate className="space-y-3">
                <input type="hidden" name="rembourser" value="1" />
                <FormAlert
                  message={refundError ? { type: "error", title: refundError } : undefined}
                />
                <p className="text-sm text-muted-foreground">
                  Reste remboursable : {formatCents(loaderData.refundableCents)}.
                </p>
                {loaderData.refundVoucherNote ? (
                  <p className="text-sm">{loaderData.refundVoucherNote}</p>
                ) : null}
                <div className="grid gap-3 sm:grid-cols-2">
                  <Field name="montant" label="Montant (€)">
                    {(props) => (
                      <Input
                        {...props}
                        inputMode="decimal"
                        defaultValue={
                          refundAnswer?.typed ??
                          loaderData.confirmRefund?.typed ??
                          loaderData.refundableText
                        }
                      />
                    )}
                  </Field>
                  <Field name="motif" label="Motif">
                    {(props) => (
                      <Input
                        {...props}
                        maxLength={500}
                        defaultValue={
                          refundAnswer?.reason ?? loaderData.confirmRefund?.reason ?? ""
                        }
                      />
                    )}
                  </Field>
                </div>
                <Button type="submit" variant="outline">
                  Rembourser…
                </Button>
              </Form>
            )
          ) : null}
        </section>
      ) : null}

      {loaderData.buyerEmailCorrectable ? (
        <section aria-labelledby="adresse-acheteur" className={section}>
          <h2 id="adresse-acheteur" className="font-sans text-lg font-semibold">
            Adresse e-mail de l'acheteur
          </h2>
          <Form method="post" action={here} noValidate className="space-y-3">
            <input type="hidden" name="intent" value="buyer-email" />
            <Field
              name="acheteurEmail"
              label="Adresse e-mail"
              error={emailAnswer?.emailError}
              hint="L'acheteur s'est trompé d'adresse ? Corrigez-la : la commande lui est envoyée à la nouvelle adresse, avec le lien de sa page, et le bon cadeau aussi s'il devait le recevoir et n'a pas pu lui être remis."
            >
              {(props) => (
                <Input
                  {...props}
                  type="email"
                  autoComplete="off"
                  maxLength={255}
                  defaultValue={emailAnswer?.emailTyped ?? order.buyerEmail}
                />
              )}
            </Field>
            <Button type="submit" variant="outline">
              Corriger et renvoyer
            </Button>
          </Form>
        </section>
      ) : null}

      <section aria-labelledby="historique" className={section}>
        <h2 id="historique" className="font-sans text-lg font-semibold">
          Historique
        </h2>
        <ol className="space-y-2 text-sm">
          {moments.map((moment, index) => (
            <li key={index} className="border-l-2 border-border pl-3">
              <p className="text-muted-foreground">{formatLongDateTimeFr(moment.at)}</p>
              <p className="font-semibold">{moment.title}</p>
              {moment.detail ? <p className="break-words">{moment.detail}</p> : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/**
 * A question the page asks before an action (« Marquer payé », « Rembourser »), rendered by the server open
 * (the form's GET asked it), so that it works without JavaScript: its form posts `intent` with `fields`,
 * « Annuler » goes back to the order.
 */
function ConfirmPanel({
  here,
  question,
  fields,
  intent,
  label,
  variant = "default",
  children,
}: {
  here: string;
  question: string;
  fields: Record<string, string>;
  intent: string;
  label: string;
  variant?: "default" | "destructive";
  children?: ReactNode;
}) {
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <p className="font-semibold">{question}</p>
      {children}
      <div className="flex flex-wrap gap-2">
        <Form method="post" action={here}>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <Button type="submit" name="intent" value={intent} variant={variant}>
            {label}
          </Button>
        </Form>
        <Button asChild variant="outline">
          <Link to={here}>Annuler</Link>
        </Button>
      </div>
    </div>
  );
}
