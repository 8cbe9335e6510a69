import { Link } from "react-router";
import type { Route } from "./+types/media-slots";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { MediaThumbnail } from "~/components/admin/media-thumbnail";
import { RevisionHistory } from "~/components/admin/revision-history";
import { Button } from "~/components/ui/button";
import { isUuid } from "~/lib/forms";
import { slotPickerPath } from "~/lib/media-forms";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  ContentError,
  documentSubject,
  listRevisions,
  restoreDocument,
} from "~/server/content/content-store.server";
import { SLOT_GROUPS } from "~/server/content/media-slots.server";
import { listLibrary, listSlots } from "~/server/content/media-store.server";
import { refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

/*
 * Every photo slot of the site with the photo in it, and the way to replace it; the history of the page
 * photos (heroes, cards, style galleries) with its restore.
 */

export const meta: Route.MetaFunction = () => [{ title: "Photos des pages - Administration" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [slots, library, revisions] = await Promise.all([
    listSlots(),
    listLibrary(),
    listRevisions(documentSubject("pagePhotos")),
  ]);
  const photos = new Map(library.map((photo) => [photo.id, photo]));
  return {
    groups: SLOT_GROUPS.map((group) => ({
      group,
      slots: slots
        .filter((slot) => slot.group === group)
        .map((slot) => {
          const photo = slot.mediaId ? photos.get(slot.mediaId) : undefined;
          return {
            key: slot.key,
            label: slot.label,
            photo: photo
              ? { alt: photo.alt, colour: photo.colour, picture: photo.picture, demo: photo.demo }
              : null,
          };
        }),
    })).filter((group) => group.slots.length > 0),
    revisions: revisions.map((revision) => ({
      ...revision,
      createdAt: revision.createdAt.toISOString(),
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const revision = formData.get("revision");
  if (formData.get("intent") !== "restore") return refusedIntent("intent", "");
  if (!isUuid(revision)) return refusedIntent("id", "Version inconnue");
  try {
    const restored = await restoreDocument("pagePhotos", revision, {
      id: admin.id,
      name: admin.name || admin.email,
    });
    if (!restored) return refusedIntent("id", "Version inconnue");
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return redirectWithToast("/admin/medias/emplacements", {
      type: "error",
      title: "Version non restaurée",
      description: error.message,
    });
  }
  return redirectWithToast("/admin/medias/emplacements", {
    type: "success",
    title: "Version restaurée",
    description: "Les photos des pages sont revenues à cette version.",
  });
}

export default function MediaSlots({ loaderData }: Route.ComponentProps) {
  const { groups, revisions } = loaderData;
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
      <RevisionHistory revisions={revisions} title="Historique des photos des pages" />
    </div>
  );
}
