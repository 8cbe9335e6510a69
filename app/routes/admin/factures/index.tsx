import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ListFilters } from "~/components/admin/list-filters";
import { Pager } from "~/components/admin/pager";
import { formatDateTimeFr } from "~/lib/dates";
import { formatCents } from "~/lib/prices";

export { loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Factures - Administration" }];

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { search, invoices, matching, previous, next, waiting, usesWaiting, gaps } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Factures"
        summary="Les factures et avoirs émis par le site, les plus récents d'abord : une facture pour chaque commande payée, un avoir pour chaque remboursement. Une facture émise ne se modifie plus ; une erreur se corrige par un avoir."
      />
      {waiting > 0 || usesWaiting > 0 ? (
        <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4">
          <Waiting count={waiting} one="commande payée" many="commandes payées" />
          <Waiting
            count={usesWaiting}
            one="utilisation de bon cadeau"
            many="utilisations de bons cadeaux"
          />
          <p className="text-sm">
            Aucune facture n'est émise tant que l'identité du vendeur est incomplète
            {gaps.length > 0 ? ` (à compléter : ${gaps.join(", ")})` : ""}. Complétez-la dans{" "}
            <Link to="/admin/site" className="underline underline-offset-4">
              Site
            </Link>{" "}
            : les factures en attente sont alors émises, dans l'ordre des paiements.
          </p>
        </div>
      ) : null}
      <ListFilters
        label="Chercher une facture"
        searchLabel="Numéro, nom ou e-mail du client"
        search={search}
        submitLabel="Chercher"
      />
      <section aria-labelledby="liste-factures" className="space-y-4">
        <h2 id="liste-factures" className="font-sans text-lg font-semibold">
          {matching} document{matching > 1 ? "s" : ""}
        </h2>
        {invoices.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {search
              ? "Aucune facture ne correspond à cette recherche."
              : "Aucune facture pour l'instant."}
          </p>
        ) : (
          <ul className="space-y-2" aria-label="Factures et avoirs">
            {invoices.map((invoice) => (
              <li
                key={invoice.id}
                className="rounded-xl border border-border bg-white p-4 sm:grid sm:grid-cols-[10rem_1fr_auto] sm:gap-4"
              >
                <p className="text-sm text-muted-foreground">
                  {formatDateTimeFr(invoice.issuedAt)}
                </p>
                <div className="min-w-0 space-y-1">
                  <p className="font-semibold">
                    <a
                      href={`/admin/factures/${invoice.number}.pdf`}
                      download
                      className="underline underline-offset-4"
                    >
                      {invoice.creditNote ? "Avoir" : "Facture"} {invoice.number} (PDF)
                    </a>
                  </p>
                  <p className="text-sm break-words">
                    {invoice.buyer}
                    {invoice.orderId ? (
                      <>
                        {" · "}
                        <Link
                          to={`/admin/ventes/${invoice.orderId}`}
                          className="underline underline-offset-4"
                        >
                          voir la commande
                        </Link>
                      </>
                    ) : null}
                  </p>
                </div>
                <p className="mt-2 font-semibold sm:mt-0">{formatCents(invoice.ttcCents)}</p>
              </li>
            ))}
          </ul>
        )}
        <Pager previous={previous} next={next} label="Pages des factures" />
      </section>
    </div>
  );
}

/** « 1 commande payée attend sa facture. », « 3 commandes payées attendent leur facture. »; none for 0. */
function Waiting({ count, one, many }: { count: number; one: string; many: string }) {
  if (count === 0) return null;
  return (
    <p className="font-semibold">
      {count > 1 ? `${count} ${many} attendent leur facture.` : `1 ${one} attend sa facture.`}
    </p>
  );
}
