import { Link } from "react-router";
import type { Route } from "./+types/index";
import { MediaUploadForm } from "~/components/admin/media-upload-form";
import { slotPickerPath } from "~/lib/media-forms";

export { action, loader } from "./index.server";

/*
 * The upload without JavaScript: the media library's form posts here (multipart, streamed to disk). A refusal
 * shows the form again with its French message and the typed description; success goes to the new photo's
 * page (focal point), or back to the slots when the photo was uploaded for one.
 */

export const meta: Route.MetaFunction = () => [{ title: "Téléverser une photo - Administration" }];

export default function MediaUpload({ loaderData, actionData }: Route.ComponentProps) {
  const slot = actionData?.values.emplacement ?? loaderData.slot;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link
            to={slot ? slotPickerPath(slot) : "/admin/medias"}
            className="underline-offset-4 hover:underline"
          >
            ← {slot ? "Choix de la photo" : "Photos"}
          </Link>
        </p>
        <h1 id="televerser" className="mt-1 text-3xl font-bold">
          Téléverser une photo
        </h1>
      </div>
      <section className="rounded-xl border border-border bg-white p-6">
        <MediaUploadForm slot={slot || undefined} answer={actionData} headingId="televerser" />
      </section>
    </div>
  );
}
