import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { documentFormState } from "~/components/admin/document-answer";
import {
  AddItemButton,
  DocumentForm,
  LIST_HINT,
  ListItem,
  PhotoField,
  TextField,
  useDocumentForm,
} from "~/components/admin/document-form";
import { MediaThumbnail } from "~/components/admin/media-thumbnail";
import { RevisionHistory } from "~/components/admin/revision-history";
import { Button } from "~/components/ui/button";
import { STYLE_DOCUMENT_PREFIX } from "~/lib/document-forms";
import { listLength } from "~/lib/forms";
import { slotPickerPath } from "~/lib/media-forms";

export { action, loader } from "./index.server";

/*
 * Every photo slot of the site with the photo in it, and the way to replace it; the style galleries (their
 * photos added, removed, moved and retitled); the history of the page photos (heroes, cards, style
 * galleries) with its restore.
 */

export const meta: Route.MetaFunction = () => [{ title: "Photos des pages - Administration" }];

type Thumbnails = Route.ComponentProps["loaderData"]["thumbnails"];
type PhotoOptions = Route.ComponentProps["loaderData"]["photoOptions"];

/** The photos of one style gallery, as its form holds them (typed titles and chosen photos kept). */
function StyleGalleryPhotos({
  label,
  photos,
  thumbnails,
}: {
  label: string;
  photos: PhotoOptions;
  thumbnails: Thumbnails;
}) {
  const { values } = useDocumentForm();
  const count = listLength(values, "photos");
  return (
    <>
      {count === 0 ? (
        <p className="text-sm">Aucune photo : la page l'annonce « prochainement ».</p>
      ) : null}
      {Array.from({ length: count }, (_, index) => {
        const item = `photos.${index}`;
        const heading = values[`${item}.title`] || `Photo ${index + 1}`;
        const thumbnail = thumbnails[values[`${item}.photo`] ?? ""];
        return (
          <ListItem
            key={item}
            path="photos"
            index={index}
            length={count}
            heading={`${heading} (${label})`}
          >
            <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
              {thumbnail ? (
                <MediaThumbnail
                  picture={thumbnail.picture}
                  alt={thumbnail.alt}
                  colour={thumbnail.colour}
                  sizes="10rem"
                />
              ) : (
                <p className="flex aspect-[4/3] items-center justify-center rounded-md border border-dashed border-stone-400 text-sm">
                  Aucune photo
                </p>
              )}
              <div className="space-y-4">
                <TextField
                  name={`${item}.title`}
                  label="Titre"
                  required
                  maxLength={100}
                  hint="Affiché sous la photo sur la page."
                />
                <PhotoField name={`${item}.photo`} photos={photos} />
              </div>
            </div>
          </ListItem>
        );
      })}
      <AddItemButton path="photos" label="Ajouter une photo" />
    </>
  );
}

export default function MediaSlots({ loaderData, actionData }: Route.ComponentProps) {
  const { groups, history, galleries, photoOptions: photos, thumbnails } = loaderData;
  const version = history.revisions[0]?.id ?? "seed";
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Photos des pages"
        summary="Chaque emplacement du site et la photo qui l'occupe. Une photo remplacée s'affiche aussitôt sur le site."
        actions={
          <Button asChild variant="outline">
            <Link to="/admin/medias">Médiathèque</Link>
          </Button>
        }
      />
      {groups.map(({ group, slots }) => (
        <section
          key={group}
          aria-labelledby={`groupe-${group}`}
          className="rounded-xl border border-border bg-white p-6"
        >
          <h2 id={`groupe-${group}`} className="font-sans text-lg font-semibold">
            {group}
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {slots.map((slot) => (
              <li key={slot.key} className="flex flex-col gap-2" data-slot={slot.key}>
                {slot.photo ? (
                  <MediaThumbnail
                    picture={slot.photo.picture}
                    alt={slot.photo.alt}
                    colour={slot.photo.colour}
                  />
                ) : (
                  <p className="flex aspect-[4/3] items-center justify-center rounded-md border border-dashed border-stone-400 text-sm">
                    Aucune photo
                  </p>
                )}
                <p className="text-sm font-medium">{slot.label}</p>
                {slot.photo?.demo ? (
                  <p className="text-xs text-muted-foreground">Photo de démonstration</p>
                ) : null}
                <Button asChild variant="outline" size="sm" className="mt-auto w-fit">
                  <Link to={slotPickerPath(slot.key)}>
                    Changer la photo<span className="sr-only"> : {slot.label}</span>
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <section aria-labelledby="galeries-de-styles" className="space-y-4">
        <div>
          <h2 id="galeries-de-styles" className="font-sans text-xl font-semibold">
            Modifier les galeries de styles
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Ajoutez, retirez, déplacez ou renommez les photos de chaque galerie. {LIST_HINT}
          </p>
        </div>
        {galleries.map(({ gallery, label, values }) => {
          const document = `${STYLE_DOCUMENT_PREFIX}${gallery}`;
          return (
            <section
              key={gallery}
              aria-labelledby={`titre-galerie-${gallery}`}
              className="space-y-4 rounded-xl border border-border bg-white p-6"
            >
              <h3 id={`titre-galerie-${gallery}`} className="font-sans text-lg font-semibold">
                {label}
              </h3>
              <DocumentForm
                formId={`galerie-${gallery}`}
                document={document}
                title={label}
                {...documentFormState(document, values, version, actionData)}
                previews={[]}
                saveLabel="Enregistrer la galerie"
              >
                <StyleGalleryPhotos label={label} photos={photos} thumbnails={thumbnails} />
              </DocumentForm>
            </section>
          );
        })}
      </section>
      <RevisionHistory history={history} title="Historique des photos des pages" />
    </div>
  );
}
