import { Images, LayoutGrid, Pencil } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DeleteForm } from "~/components/admin/delete-form";
import { MediaThumbnail } from "~/components/admin/media-thumbnail";
import { MediaUploadForm } from "~/components/admin/media-upload-form";
import { Button } from "~/components/ui/button";
import { formatSize } from "~/lib/sizes";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Photos - Administration" }];

export default function Medias({ loaderData }: Route.ComponentProps) {
  const { photos } = loaderData;
  const uploaded = photos.filter((photo) => !photo.demo).length;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Photos"
        summary={`${photos.length} photo${photos.length > 1 ? "s" : ""} dans la médiathèque, dont ${uploaded} téléversée${uploaded > 1 ? "s" : ""}.`}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/admin/medias/emplacements">
                <LayoutGrid aria-hidden="true" />
                Photos des pages
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/admin/medias/galerie">
                <Images aria-hidden="true" />
                Galerie
              </Link>
            </Button>
          </>
        }
      />

      <section
        aria-labelledby="ajouter-photo"
        className="rounded-xl border border-border bg-white p-6"
      >
        <h2 id="ajouter-photo" className="font-sans text-lg font-semibold">
          Ajouter une photo
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">
          Après l'envoi, vous pourrez placer son point d'intérêt, puis la choisir pour une page dans
          « Photos des pages ».
        </p>
        <MediaUploadForm headingId="ajouter-photo" />
      </section>

      <section aria-labelledby="mediatheque">
        <h2 id="mediatheque" className="mb-3 font-sans text-lg font-semibold">
          Médiathèque
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {photos.map((photo) => (
            <li
              key={photo.id}
              className="flex flex-col gap-2 rounded-xl border border-border bg-white p-3"
              data-media-id={photo.id}
            >
              <MediaThumbnail
                picture={photo.picture}
                alt={photo.alt}
                colour={photo.colour}
                focal={photo.focal}
              />
              <p className="text-sm font-medium">{photo.alt}</p>
              <p className="text-xs text-muted-foreground">
                {photo.demo
                  ? "Photo de démonstration"
                  : `${photo.width} × ${photo.height} px · ${formatSize(photo.bytes)}`}
              </p>
              <div className="mt-auto flex flex-wrap items-center gap-2">
                <Button asChild variant="ghost" size="sm">
                  <Link to={`/admin/medias/${photo.id}`}>
                    <Pencil aria-hidden="true" />
                    Modifier<span className="sr-only"> « {photo.alt} »</span>
                  </Link>
                </Button>
                {photo.usage.length > 0 ? (
                  <p className="text-xs">Utilisée : {photo.usage.join(", ")}</p>
                ) : (
                  <DeleteForm
                    id={photo.id}
                    confirmation="Supprimer cette photo de la médiathèque ?"
                    itemLabel={photo.alt}
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
