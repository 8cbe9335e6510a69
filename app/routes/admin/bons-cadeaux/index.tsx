import { Form, Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { ListFilters } from "~/components/admin/list-filters";
import { Pager } from "~/components/admin/pager";
import { VoucherStatusBadge } from "~/components/admin/sales-badges";
import { Button } from "~/components/ui/button";
import { FORM_KEY_FIELD } from "~/lib/forms";
import { VOUCHER_STATUS_LABELS } from "~/lib/payments/admin-words";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { refundOnItsWayNote } from "~/lib/vouchers/refund-note";
import { formatCalendarDayFr } from "~/lib/vouchers/terms";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Bons cadeaux - Administration" }];

/** What the list says of a voucher whose order was refunded in full (decision 0170). */
function refundedOrderNote(voucher: { status: string; kind: string }): string {
  if (voucher.status === "used" && voucher.kind === "session") {
    return "Commande remboursée en entier : si la séance réservée avec ce bon est annulée, il ne redeviendra pas utilisable.";
  }
  if (voucher.status === "cancelled") {
    return "Commande remboursée en entier : ce bon est annulé et ne peut plus servir.";
  }
  return "Commande remboursée en entier.";
}

const fieldClass = "min-h-11 w-full rounded-md border border-border px-2";

export default function Vouchers({ loaderData, actionData }: Route.ComponentProps) {
  const { vouchers, status, search, matching, previous, next } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Bons cadeaux"
        summary="Les bons vendus : retrouvez-en un par son code ou un nom, utilisez-le au studio, prolongez-le."
      />
      <ListFilters
        label="Chercher un bon cadeau"
        searchLabel="Code ou nom"
        search={search}
        states={VOUCHER_STATUS_LABELS}
        state={status}
        submitLabel="Chercher"
      />
      <section aria-labelledby="bons" className="space-y-4">
        <h2 id="bons" className="font-sans text-lg font-semibold">
          {matching} bon{matching > 1 ? "s" : ""}
        </h2>
        {vouchers.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun bon cadeau.</p>
        ) : (
          <ul className="space-y-3" aria-label="Bons cadeaux">
            {vouchers.map((voucher) => {
              const answer = actionData?.voucherId === voucher.id ? actionData : undefined;
              const name = voucher.code ? formatVoucherCode(voucher.code) : "sans code";
              // Its whole price on its way back: the redemption would refuse it.
              const usable = voucher.status === "active" && !voucher.refundHold?.cancels;
              const refundNote = refundOnItsWayNote(voucher, voucher.refundHold);
              const extendable = voucher.status === "active" || voucher.status === "expired";
              return (
                <li
                  key={voucher.id}
                  aria-label={`Bon ${name}`}
                  className="space-y-3 rounded-xl border border-border bg-white p-4"
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-mono text-base font-semibold">{name}</span>
                    <VoucherStatusBadge status={voucher.status} />
                  </div>
                  <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[9rem_1fr]">
                    <dt className="font-semibold">Pour</dt>
                    <dd>
                      {voucher.recipientName} (offert par {voucher.buyerName})
                    </dd>
                    <dt className="font-semibold">Couvre</dt>
                    <dd>{voucher.label}</dd>
                    <dt className="font-semibold">Solde</dt>
                    <dd>
                      {formatCents(voucher.balanceCents)} sur {formatCents(voucher.valueCents)}
                    </dd>
                    <dt className="font-semibold">Valable jusqu'au</dt>
                    <dd>{voucher.expiresOn ? formatCalendarDayFr(voucher.expiresOn) : "—"}</dd>
                    <dt className="font-semibold">Utilisations</dt>
                    <dd>{voucher.uses}</dd>
                    {voucher.useInvoices.length > 0 ? (
                      <>
                        <dt className="font-semibold">Factures</dt>
                        <dd>
                          <ul className="flex flex-wrap gap-x-3">
                            {voucher.useInvoices.map((number) => (
                              <li key={number}>
                                <a
                                  href={`/admin/factures/${number}.pdf`}
                                  download
                                  className="underline underline-offset-4"
                                >
                                  Facture {number}
                                </a>
                              </li>
                            ))}
                          </ul>
                        </dd>
                      </>
                    ) : null}
                  </dl>
                  {voucher.orderRefunded ? (
                    <p className="text-sm">{refundedOrderNote(voucher)}</p>
                  ) : null}
                  {refundNote ? <p className="text-sm">{refundNote}</p> : null}
                  {voucher.undelivered ? (
                    <p className="text-sm text-red-800">
                      {`Envoi impossible à ${voucher.undelivered.to} le ${voucher.undelivered.at}${voucher.undelivered.error ? ` (${voucher.undelivered.error})` : ""} : `}
                      {voucher.undelivered.buyerTold
                        ? "son acheteur en a été averti par e-mail ; il peut corriger l'adresse, ou recevoir le bon lui-même, depuis la page de sa commande."
                        : "c'est l'adresse de son acheteur : vérifiez-la avec lui et corrigez-la sur la page de la commande, qui lui renvoie le bon."}
                    </p>
                  ) : null}
                  {voucher.reminderUndelivered ? (
                    <p className="text-sm text-red-800">
                      {`Rappel avant la fin de validité impossible à envoyer à ${voucher.reminderUndelivered.to} le ${voucher.reminderUndelivered.at} (${voucher.reminderUndelivered.error}) : `}
                      {voucher.reminderUndelivered.buyerTold
                        ? "son acheteur en a été averti par e-mail, avec la page de sa commande."
                        : "c'est l'adresse de son acheteur, qui n'a pas été prévenu de la fin de son bon : appelez-le, corrigez son adresse sur la page de la commande, et prolongez le bon (« Nouvelle fin de validité ») s'il le faut."}
                    </p>
                  ) : null}
                  {voucher.expiredBackNote ? (
                    <p className="text-sm">{voucher.expiredBackNote}</p>
                  ) : null}
                  <p className="text-sm">
                    <Link
                      to={`/admin/ventes/${voucher.orderId}`}
                      className="underline underline-offset-4"
                    >
                      Voir la commande
                    </Link>
                  </p>
                  <div className="grid gap-3 sm:grid-cols-2">
                    {usable && voucher.kind === "amount" ? (
                      <Form method="post" noValidate className="space-y-1">
                        <input type="hidden" name="id" value={voucher.id} />
                        <input type="hidden" name={FORM_KEY_FIELD} value={voucher.useKey} />
                        <label
                          className="block text-sm font-semibold"
                          htmlFor={`montant-${voucher.id}`}
                        >
                          Montant à utiliser (€)
                        </label>
                        <div className="flex gap-2">
                          <input
                            id={`montant-${voucher.id}`}
                            name="amount"
                            inputMode="decimal"
                            className={fieldClass}
                            defaultValue={answer?.field === "amount" ? answer.typed : ""}
                            aria-invalid={answer?.field === "amount" ? true : undefined}
                            aria-describedby={
                              answer?.field === "amount"
                                ? `montant-${voucher.id}-aide montant-${voucher.id}-erreur`
                                : `montant-${voucher.id}-aide`
                            }
                          />
                          <Button type="submit" name="intent" value="use-amount">
                            Utiliser
                          </Button>
                        </div>
                        <p
                          id={`montant-${voucher.id}-aide`}
                          className="text-sm text-muted-foreground"
                        >
                          Pour le solde d'une séance réservée, passez plutôt par « Solde payé au
                          studio » sur la page de la réservation : la séance saura ce qui l'a
                          réglée.
                        </p>
                        {answer?.field === "amount" ? (
                          <p id={`montant-${voucher.id}-erreur`} className="text-sm text-red-800">
                            {answer.error}
                          </p>
                        ) : null}
                      </Form>
                    ) : null}
                    {usable && voucher.kind === "session" ? (
                      <ConfirmedActionForm
                        id={voucher.id}
                        intent="use-session"
                        param="utiliser"
                        confirmation="Utiliser ce bon pour une séance au studio ?"
                        itemLabel={`${name} · ${voucher.label}`}
                        variant="default"
                        label="Utiliser"
                      />
                    ) : null}
                    {extendable ? (
                      <Form method="post" noValidate className="space-y-1">
                        <input type="hidden" name="id" value={voucher.id} />
                        <label
                          className="block text-sm font-semibold"
                          htmlFor={`fin-${voucher.id}`}
                        >
                          Nouvelle fin de validité
                        </label>
                        <div className="flex gap-2">
                          <input
                            id={`fin-${voucher.id}`}
                            name="expiresOn"
                            type="date"
                            className={fieldClass}
                            defaultValue={answer?.field === "expiry" ? answer.typed : ""}
                            aria-invalid={answer?.field === "expiry" ? true : undefined}
                            aria-describedby={
                              answer?.field === "expiry" ? `fin-${voucher.id}-erreur` : undefined
                            }
                          />
                          <Button type="submit" name="intent" value="extend" variant="outline">
                            Prolonger
                          </Button>
                        </div>
                        {answer?.field === "expiry" ? (
                          <p id={`fin-${voucher.id}-erreur`} className="text-sm text-red-800">
                            {answer.error}
                          </p>
                        ) : null}
                      </Form>
                    ) : null}
                  </div>
                  {extendable ? (
                    <ConfirmedActionForm
                      id={voucher.id}
                      intent="cancel"
                      param="annuler"
                      confirmation="Annuler ce bon cadeau ? Il ne pourra plus être utilisé."
                      itemLabel={name}
                      variant="destructive"
                      label="Annuler le bon"
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        <Pager previous={previous} next={next} label="Pages des bons cadeaux" />
      </section>
    </div>
  );
}
