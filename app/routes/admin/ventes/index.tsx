import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Select } from "~/components/admin/field";
import { ListFilters } from "~/components/admin/list-filters";
import { Pager } from "~/components/admin/pager";
import { OrderFlags, OrderStatusBadge } from "~/components/admin/sales-badges";
import { formatDateTimeFr } from "~/lib/dates";
import {
  ORDER_KINDS,
  ORDER_STATUS_LABELS,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
} from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";

export { loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Ventes - Administration" }];

const KIND_LABELS = {
  voucher: "Bon cadeau",
  gallery_photos: "Photos de galerie",
  booking_deposit: "Acompte de séance",
  booking_balance: "Solde de séance",
} as const;

export default function Sales({ loaderData }: Route.ComponentProps) {
  const { filter, orders, matching, previous, next } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Ventes"
        summary="Les commandes du site, les plus récentes d'abord : paiements, remboursements, bons cadeaux."
      />
      <ListFilters
        label="Filtrer les ventes"
        searchLabel="Référence du virement, nom ou e-mail"
        search={filter.search}
        states={ORDER_STATUS_LABELS}
        state={filter.status}
      >
        <Field name="type" label="Type">
          {(props) => (
            <Select {...props} defaultValue={filter.kind ?? ""}>
              <option value="">Tous</option>
              {ORDER_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field name="moyen" label="Paiement">
          {(props) => (
            <Select {...props} defaultValue={filter.method ?? ""}>
              <option value="">Tous</option>
              {PAYMENT_METHODS.map((method) => (
                <option key={method} value={method}>
                  {PAYMENT_METHOD_LABELS[method]}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </ListFilters>

      <section aria-labelledby="commandes" className="space-y-4">
        <h2 id="commandes" className="font-sans text-lg font-semibold">
          {matching} commande{matching > 1 ? "s" : ""}
        </h2>
        {orders.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {filter.search
              ? "Aucune commande ne correspond à cette recherche."
              : "Aucune commande."}
          </p>
        ) : (
          <ul className="space-y-2" aria-label="Commandes">
            {orders.map((order) => (
              <li
                key={order.id}
                className="rounded-xl border border-border bg-white p-4 sm:grid sm:grid-cols-[10rem_1fr_auto] sm:gap-4"
              >
                <p className="text-sm text-muted-foreground">{formatDateTimeFr(order.createdAt)}</p>
                <div className="min-w-0 space-y-1">
                  <p className="font-semibold">
                    <Link to={`/admin/ventes/${order.id}`} className="underline underline-offset-4">
                      {order.buyerName}
                    </Link>
                  </p>
                  <p className="text-sm break-words">{order.lines}</p>
                  {order.transferReference ? (
                    <p className="text-sm">
                      Référence du virement :{" "}
                      <span className="font-mono">{order.transferReference}</span>
                    </p>
                  ) : null}
                  <OrderFlags
                    late={order.latePayment}
                    held={order.held}
                    duplicate={order.duplicate}
                    refundPending={order.refundPending}
                    refundToMake={order.refundToMake}
                    refundFailed={order.refundFailed}
                  />
                </div>
                <div className="mt-2 flex flex-wrap items-center gap-2 sm:mt-0 sm:flex-col sm:items-end">
                  <span className="font-semibold">{formatCents(order.amountCents)}</span>
                  <span className="text-sm">{PAYMENT_METHOD_LABELS[order.method]}</span>
                  <OrderStatusBadge status={order.status} />
                </div>
              </li>
            ))}
          </ul>
        )}
        <Pager previous={previous} next={next} label="Pages des ventes" />
      </section>
    </div>
  );
}
