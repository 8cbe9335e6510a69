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
import { INCLUDED_PHOTOS_PAID_WARNING } from "~/lib/gallery-sales";
import { GALLERY_EXTENSION_DAYS } from "~/lib/gallery-schemas";
import { cn } from "~/lib/utils";

export { action, loader } from "./reglages.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Réglages de « ${loaderData?.gallery?.title ?? "Galerie"} » - Administration` },
];

export default function GallerySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { gallery, values, studios, code } = loaderData;
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <GalleryHeader gallery={gallery} />
      <GalleryForm
        creating={false}
        includedPhotosWarning={gallery.photosPaid ? INCLUDED_PHOTOS_PAID_WARNING : undefined}
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
            Prolonger de {GALLERY_EXTENSION_DAYS} jours
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
