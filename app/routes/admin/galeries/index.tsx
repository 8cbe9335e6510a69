import { Plus } from "lucide-react";
import { ListFilters } from "~/components/admin/list-filters";
import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { GalleryStateBadge } from "~/components/gallery-admin/gallery-header";
import { Pager } from "~/components/admin/pager";
import { Button } from "~/components/ui/button";
import { formatDateFr } from "~/lib/dates";
import { formatSize } from "~/lib/sizes";

export { loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Galeries clients - Administration" }];

export default function Galleries({ loaderData }: Route.ComponentProps) {
  const { galleries, search, matching, previous, next } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Galeries clients"
        summary="Les photos livrées à vos clients, chacune derrière un lien privé et un code d'accès."
        actions={
          <Button asChild>
            <Link to="/admin/galeries/nouvelle">
              <Plus aria-hidden="true" />
              Nouvelle galerie
            </Link>
          </Button>
        }
      />
      <ListFilters
        label="Chercher une galerie"
        searchLabel="Titre ou client contenant"
        search={search}
        submitLabel="Chercher"
      />
      {search ? (
        <p className="text-sm">
          {matching} galerie{matching > 1 ? "s" : ""} correspond{matching > 1 ? "ent" : ""} à cette
          recherche.
        </p>
      ) : null}
      {galleries.length === 0 && search ? (
        <p className="rounded-xl border border-border bg-white px-5 py-8 text-muted-foreground">
          Aucune galerie ne correspond à cette recherche.
        </p>
      ) : galleries.length === 0 ? (
        <section className="rounded-xl border border-border bg-white p-6 text-center">
          <h2 className="font-sans text-lg font-semibold">Aucune galerie pour l'instant</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Créez une galerie après une séance : vous y déposerez les photos, puis vous enverrez le
            lien et le code au client.
          </p>
        </section>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-border bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Galeries clients, la plus récente d'abord</caption>
            <thead className="border-b border-border bg-muted/50">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Galerie
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Client
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Studio
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Séance
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Photos prêtes
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Originaux
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  État
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {galleries.map((gallery) => (
                <tr key={gallery.id}>
                  <th scope="row" className="px-4 py-3 font-semibold">
                    <Link
                      to={`/admin/galeries/${gallery.id}`}
                      className="underline underline-offset-4"
                    >
                      {gallery.title}
                    </Link>
                  </th>
                  <td className="px-4 py-3">{gallery.clientName}</td>
                  <td className="px-4 py-3">{gallery.studioName ?? "—"}</td>
                  <td className="px-4 py-3">
                    {gallery.sessionDate ? formatDateFr(`${gallery.sessionDate}T12:00:00Z`) : "—"}
                  </td>
                  <td className="px-4 py-3">
                    {gallery.ready} / {gallery.total}
                  </td>
                  <td className="px-4 py-3">{formatSize(gallery.bytes)}</td>
                  <td className="px-4 py-3">
                    <span className="flex flex-wrap gap-1">
                      <GalleryStateBadge state={gallery.state} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager previous={previous} next={next} label="Pages des galeries" />
    </div>
  );
}
