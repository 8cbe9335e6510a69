import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/choisir";
import { MediaUploadForm } from "~/components/admin/media-upload-form";
import { PhotoChoices } from "~/components/admin/media-thumbnail";
import { Button } from "~/components/ui/button";
import { ErrorList } from "~/components/ui/field";

export { action, loader } from "./choisir.server";

/** One slot's photo: choose another from the library, or upload a new one that fills it at once. */

export const meta: Route.MetaFunction = () => [{ title: "Changer une photo - Administration" }];

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
