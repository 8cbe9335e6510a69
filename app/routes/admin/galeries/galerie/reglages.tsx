import { CalendarPlus, KeyRound, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import type { Route } from "./+types/reglages";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { GalleryForm } from "~/components/gallery-admin/gallery-form";
import { GalleryHeader } from "~/components/gallery-admin/gallery-header";
import { Button } from "~/components/ui/button";
import { useFormAnswer } from "~/components/ui/server-toast";
import { formatDateFr } from "~/lib/dates";
import { cn } from "~/lib/utils";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { formatAccessCode } from "~/server/galleries/access.server";
import {
  loadGalleryForm,
  requireGallery,
  saveGalleryForm,
} from "~/server/galleries/admin-pages.server";
import { changeAccessCode, deleteGallery, extendExpiry } from "~/server/galleries/galleries.server";
import { refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Réglages de « ${loaderData?.gallery?.title ?? "Galerie"} » - Administration` },
];

/** How much « Prolonger » adds. */
const EXTENSION_DAYS = 30;

export async function loader({ request, params }: Route.LoaderArgs) {
  const loaded = await loadGalleryForm(request, params.id);
  const gallery = loaded.gallery;
  if (!gallery) throw new Error("unreachable: an id was given");
  return { ...loaded, gallery, code: formatAccessCode(gallery.accessCode) };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  if (formData.get("intent") === "save") return saveGalleryForm(request, formData, params.id);
  const parsed = parseIntent(formData, ["new-code", "extend", "delete"]);
  if (!parsed.ok || parsed.id !== params.id) {
    return refusedIntent(parsed.ok ? "id" : parsed.reason, "Galerie inconnue");
  }
  const { gallery } = await requireGallery(params.id);
  const here = `/admin/galeries/${gallery.id}/reglages`;
  switch (parsed.intent) {
    case "new-code": {
      const code = await changeAccessCode(gallery.id);
      if (!code) return refusedIntent("id", "Galerie inconnue");
      return redirectWithToast(here, {
        type: "success",
        title: `Nouveau code : ${formatAccessCode(code)}`,
        description: "L'ancien code et les liens déjà ouverts ne fonctionnent plus.",
      });
    }
    case "extend": {
      const until = await extendExpiry(gallery.id, EXTENSION_DAYS);
      if (!until) return refusedIntent("id", "Galerie inconnue");
      return redirectWithToast(here, {
        type: "success",
        title: "Galerie prolongée",
        description: `Ouverte jusqu'au ${formatDateFr(new Date(until.getTime() - 1))}.`,
      });
    }
    case "delete": {
      try {
        await deleteGallery(gallery.id);
      } catch (error) {
        // Marked as being deleted: the retention finishes the work.
        log.error("admin_gallery_delete_failed", { id: gallery.id, error });
        return redirectWithToast("/admin/galeries", {
          type: "error",
          title: "Suppression inachevée",
          description: "La galerie n'est plus visible ; ses fichiers seront effacés cette nuit.",
        });
      }
      return redirectWithToast("/admin/galeries", {
        type: "success",
        title: "Galerie supprimée",
        description: `« ${gallery.title} » et ses photos sont effacées.`,
      });
    }
  }
}

export default function GallerySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { gallery, values, studios, code } = loaderData;
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <GalleryHeader gallery={gallery} />
      <GalleryForm
        creating={false}
        values={answer?.values ?? values}
        errors={answer && "errors" in answer ? answer.errors : undefined}
        alert={toast}
        studios={studios}
      />
      <SettingsPanel id="code-titre" title="Code d'accès">
        <p className="text-sm">
          Code actuel :{" "}
          <strong className="font-mono text-lg tracking-widest" data-testid="code-acces">
            {code}
          </strong>
        </p>
        <p className="text-sm text-muted-foreground">
          Un autre code ferme la galerie à tous ceux qui l'ont ouverte : il faudra leur donner le
          nouveau. Après une invitation envoyée à une mauvaise adresse, générez un autre code avant
          de l'envoyer à la bonne.
        </p>
        <ConfirmedActionForm
          id={gallery.id}
          intent="new-code"
          param="nouveau-code"
          confirmation="Générer un autre code ? L'ancien code et les liens déjà ouverts cesseront de fonctionner."
          itemLabel={gallery.title}
          variant="default"
          label={
            <>
              <KeyRound aria-hidden="true" />
              Générer un autre code
            </>
          }
        />
      </SettingsPanel>
      <SettingsPanel id="duree-titre" title="Durée">
        <p className="text-sm">
          Ouverte jusqu'au {formatDateFr(new Date(Date.parse(gallery.expiresAt) - 1))} ; effacée le{" "}
          {formatDateFr(gallery.purgeAt)}.
        </p>
        <Form method="post">
          <input type="hidden" name="id" value={gallery.id} />
          <Button type="submit" name="intent" value="extend" variant="outline" size="sm">
            <CalendarPlus aria-hidden="true" />
            Prolonger de {EXTENSION_DAYS} jours
          </Button>
        </Form>
      </SettingsPanel>
      <SettingsPanel id="suppression-titre" title="Supprimer la galerie" danger>
        <p className="text-sm text-muted-foreground">
          La galerie, ses {gallery.photos} photos et la sélection du client sont effacées
          définitivement ; le lien ne mène plus à rien.
        </p>
        <ConfirmedActionForm
          id={gallery.id}
          intent="delete"
          param="supprimer"
          confirmation="Supprimer définitivement cette galerie et toutes ses photos ?"
          itemLabel={gallery.title}
          variant="destructive"
          label={
            <>
              <Trash2 aria-hidden="true" />
              Supprimer la galerie
            </>
          }
        />
      </SettingsPanel>
    </div>
  );
}

/** One block of the settings page under its heading (the last one, destructive, framed in red). */
function SettingsPanel({
  id,
  title,
  danger = false,
  children,
}: {
  id: string;
  title: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn(
        "space-y-3 rounded-xl border bg-white p-6",
        danger ? "border-red-200" : "border-border",
      )}
    >
      <h2 id={id} className="font-sans text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
