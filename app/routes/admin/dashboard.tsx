import { Eye, FilePlus2, FolderTree, Images, Mail, Pencil, Users } from "lucide-react";
import { formatCents } from "~/lib/prices";
import { ListFilters } from "~/components/admin/list-filters";
import { Form, Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { ArticleSendingLink } from "~/components/blog-admin/article-sending-link";
import { DeleteForm } from "~/components/admin/delete-form";
import { BackupStatus } from "~/components/backups/backup-status";
import { GoLiveChecklist } from "~/components/admin/go-live-checklist";
import { DashboardBookings } from "~/components/booking-admin/dashboard-bookings";
import { DashboardSelections } from "~/components/admin/dashboard-selections";
import { Pager } from "~/components/admin/pager";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { formatDateFr, formatLongDateTimeFr } from "~/lib/dates";
import { StatusBadge } from "~/components/admin/status-badge";

export { action, loader } from "./dashboard.server";

export const meta: Route.MetaFunction = () => [{ title: "Tableau de bord - Administration" }];

/** SPEC's badges, and 'Programmé' for a draft the job queue will publish. */
const BADGES = {
  published: { label: "Publié", tone: "success" },
  scheduled: { label: "Programmé", tone: "info" },
  draft: { label: "Brouillon", tone: "neutral" },
} as const;

function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-border bg-white p-5">
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="mt-1 text-3xl font-bold">{value}</p>
    </div>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { rows: articles, previous, next, counts, matching, filters } = loaderData;
  const { checklist, bookings, backups, selections, loadError } = loaderData;
  useServerToast(loadError);

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Tableau de bord</h1>
        <Button asChild>
          <Link to="/admin/articles/nouveau">
            <FilePlus2 aria-hidden="true" />
            Nouvel article
          </Link>
        </Button>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard label="Articles" value={counts.total} />
        <StatCard label="Articles publiés" value={counts.published} />
      </div>

      {bookings ? <DashboardBookings {...bookings} /> : null}

      <DashboardSelections selections={selections} />

      <BackupStatus status={backups} />

      <nav aria-label="Gestion" className="flex flex-wrap gap-3">
        <Button asChild variant="outline" size="sm">
          <Link to="/admin/categories">
            <FolderTree aria-hidden="true" />
            Catégories
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to="/admin/subscribers">
            <Users aria-hidden="true" />
            Abonnés
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to="/admin/messages">
            <Mail aria-hidden="true" />
            Messages
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to="/admin/galeries">
            <Images aria-hidden="true" />
            Galeries clients
          </Link>
        </Button>
      </nav>

      <GoLiveChecklist items={checklist} />

      <TodaysSales sales={loaderData.sales} />

      <section
        aria-labelledby="articles-titre"
        className="rounded-xl border border-border bg-white"
      >
        <h2 id="articles-titre" className="border-b border-border px-5 py-4 text-xl font-semibold">
          Articles
        </h2>
        <ListFilters
          label="Filtrer les articles"
          searchLabel="Titre contenant"
          search={filters.search}
          states={{ publies: "Publiés", brouillons: "Brouillons" }}
          state={filters.state}
          className="border-b border-border px-5 py-4"
        />
        {matching !== null ? (
          <p className="px-5 pt-4 text-sm text-muted-foreground">
            {matching} article{matching > 1 ? "s" : ""} correspond{matching > 1 ? "ent" : ""} à ces
            critères.
          </p>
        ) : null}
        {articles.length === 0 ? (
          <p className="px-5 py-8 text-muted-foreground">
            {loadError
              ? "Impossible de charger les articles"
              : matching !== null
                ? "Aucun article ne correspond à ces critères."
                : "Aucun article pour le moment."}
          </p>
        ) : (
          <ul className="divide-y divide-border">
            {articles.map((article) => {
              const scheduledAt = article.published ? null : article.scheduledAt;
              const badge =
                BADGES[article.published ? "published" : scheduledAt ? "scheduled" : "draft"];
              return (
                <li
                  key={article.id}
                  className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-center"
                >
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <StatusBadge tone={badge.tone}>{badge.label}</StatusBadge>
                      <h3 className="font-sans text-base font-semibold break-words">
                        {article.title}
                      </h3>
                    </div>
                    {/* The row leads with the date the list is ordered by (listArticlesForAdmin). */}
                    <p className="mt-1 text-sm text-muted-foreground">
                      {article.published && article.publishedAt
                        ? `Publié le ${formatDateFr(article.publishedAt)} · `
                        : ""}
                      {scheduledAt ? (
                        <>
                          {"Publication programmée le "}
                          <time dateTime={new Date(scheduledAt).toISOString()}>
                            {formatLongDateTimeFr(scheduledAt)}
                          </time>
                          {article.newsletterOnPublish ? ", avec envoi aux abonnés" : ""}
                          {" · "}
                        </>
                      ) : null}
                      Créé le {formatDateFr(article.createdAt)}
                      {article.categoryName ? ` · ${article.categoryName}` : ""} ·{" "}
                      <span className="inline-flex items-center gap-1">
                        <Eye aria-hidden="true" className="size-3.5" />
                        {article.viewCount} {article.viewCount > 1 ? "vues" : "vue"}
                      </span>
                    </p>
                    {scheduledAt && article.incomplete ? (
                      <p className="mt-1 text-sm font-medium text-amber-900">
                        L'extrait ou le contenu est vide : l'article ne sera pas publié tant qu'il
                        n'est pas complété.
                      </p>
                    ) : null}
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <Form method="post">
                      <input type="hidden" name="id" value={article.id} />
                      <Button
                        type="submit"
                        name="intent"
                        value={article.published ? "unpublish" : "publish"}
                        variant="outline"
                        size="sm"
                      >
                        {article.published ? "Dépublier" : "Publier"}
                        <span className="sr-only"> « {article.title} »</span>
                      </Button>
                    </Form>
                    {article.published ? null : (
                      <Button asChild variant="ghost" size="sm">
                        <Link to={`/admin/articles/${article.id}/apercu`}>
                          Aperçu<span className="sr-only"> de « {article.title} »</span>
                        </Link>
                      </Button>
                    )}
                    <Button asChild variant="ghost" size="sm">
                      <Link to={`/admin/articles/${article.id}/modifier`}>
                        <Pencil aria-hidden="true" />
                        Modifier<span className="sr-only"> « {article.title} »</span>
                      </Link>
                    </Button>
                    <ArticleSendingLink article={article} sending={article.sending} />
                    <DeleteForm
                      id={article.id}
                      confirmation="Êtes-vous sûr de vouloir supprimer cet article ?"
                      itemLabel={article.title}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        <div className="border-t border-border px-5 py-4 empty:hidden">
          <Pager previous={previous} next={next} label="Pages des articles" />
        </div>
      </section>
    </div>
  );
}

/** Today's sales (paid today, Paris) and the gift vouchers to deliver today, each linking to its page. */
function TodaysSales({ sales }: { sales: Route.ComponentProps["loaderData"]["sales"] }) {
  return (
    <section
      aria-labelledby="ventes-du-jour"
      className="space-y-3 rounded-xl border border-border bg-white p-5"
    >
      <h2 id="ventes-du-jour" className="text-xl font-semibold">
        Ventes du jour
      </h2>
      <p>
        <Link to="/admin/ventes?statut=paid" className="underline underline-offset-4">
          {sales.count === 0
            ? "Aucune vente payée aujourd'hui"
            : `${sales.count} vente${sales.count > 1 ? "s" : ""} payée${sales.count > 1 ? "s" : ""} aujourd'hui : ${formatCents(sales.totalCents)}`}
        </Link>
      </p>
      {sales.toDeliver.length > 0 ? (
        <>
          <h3 className="font-semibold">Bons cadeaux à envoyer aujourd'hui (à 9 h)</h3>
          <ul className="space-y-1 text-sm">
            {sales.toDeliver.map((voucher) => (
              <li key={voucher.id}>
                <Link
                  to={`/admin/ventes/${voucher.orderId}`}
                  className="underline underline-offset-4"
                >
                  {voucher.label} pour {voucher.recipientName}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
