import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/choisir";
import { MediaUploadForm } from "~/components/admin/media-upload-form";
import { PhotoChoices } from "~/components/admin/media-thumbnail";
import { Button } from "~/components/ui/button";
import { ErrorList } from "~/components/ui/field";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { ContentError } from "~/server/content/content-store.server";
import { assignSlot, listLibrary, listSlots } from "~/server/content/media-store.server";
import { redirectWithToast } from "~/server/toast.server";
import { data } from "react-router";

/** One slot's photo: choose another from the library, or upload a new one that fills it at once. */

export const meta: Route.MetaFunction = () => [{ title: "Changer une photo - Administration" }];

async function slotOf(request: Request) {
  const key = new URL(request.url).searchParams.get("emplacement") ?? "";
  const slot = (await listSlots()).find((candidate) => candidate.key === key);
  if (!slot) throw new Response("Emplacement introuvable", { status: 404 });
  return slot;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [slot, library] = await Promise.all([slotOf(request), listLibrary()]);
  return {
    slot,
    photos: library.map(({ id, alt, colour, picture, demo }) => ({
      id,
      alt,
      colour,
      picture,
      demo,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const slot = await slotOf(request);
  const photo = (await request.formData()).get("photo");
  if (!isUuid(photo)) {
    return data({ error: "Choisissez une photo dans la liste." }, { status: 400 });
  }
  try {
    await assignSlot(slot.key, photo, { id: admin.id, name: admin.name || admin.email });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return data({ error: error.message }, { status: 409 });
  }
  return redirectWithToast("/admin/medias/emplacements", {
    type: "success",
    title: "Photo remplacée",
    description: slot.label,
  });
}

export default function MediaSlot({ loaderData, actionData }: Route.ComponentProps) {
  const { slot, photos } = loaderData;
  const navigation = useNavigation();
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/admin/medias/emplacements" className="underline-offset-4 hover:underline">
            ← Photos des pages
          </Link>
        </p>
        <h1 className="mt-1 text-3xl font-bold">Changer la photo</h1>
        <p className="mt-1 text-lg">{slot.label}</p>
      </div>
      <section
        aria-labelledby="nouvelle-photo"
        className="rounded-xl border border-border bg-white p-6"
      >
        <h2 id="nouvelle-photo" className="mb-4 font-sans text-lg font-semibold">
          Téléverser une nouvelle photo pour cet emplacement
        </h2>
        <MediaUploadForm slot={slot.key} headingId="nouvelle-photo" />
      </section>
      <section aria-labelledby="choisir" className="rounded-xl border border-border bg-white p-6">
        <h2 id="choisir" className="mb-4 font-sans text-lg font-semibold">
          Ou choisir une photo de la médiathèque
        </h2>
        <Form method="post" className="space-y-4">
          <ErrorList id="choix-erreur" errors={actionData ? [actionData.error] : undefined} />
          <PhotoChoices photos={photos} current={slot.mediaId} legend="Photos de la médiathèque" />
          <div className="sticky bottom-0 flex justify-end gap-2 bg-white py-3">
            <Button asChild variant="ghost">
              <Link to="/admin/medias/emplacements">Annuler</Link>
            </Button>
            <Button type="submit" disabled={navigation.state === "submitting"}>
              Utiliser cette photo
            </Button>
          </div>
        </Form>
      </section>
    </div>
  );
}
