import { Download, Gift, HandCoins, RotateCcw } from "lucide-react";
import { Form } from "react-router";
import type { Route } from "./+types/selection";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { GalleryHeader } from "~/components/gallery-admin/gallery-header";
import { Button } from "~/components/ui/button";
import { formatLongDateTimeFr } from "~/lib/dates";
import { PHOTO_RIGHT_LABELS } from "~/lib/gallery-sales";

export { action, loader } from "./selection.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Sélection de « ${loaderData?.gallery.title ?? "Galerie"} » - Administration` },
];

export default function GallerySelectionPage({ loaderData }: Route.ComponentProps) {
  const { gallery, validatedAt, photos, sale, reopenConfirmation } = loaderData;
  const names = photos.map((photo) => photo.originalName).join(", ");
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <GalleryHeader gallery={gallery} />
      <section
        aria-labelledby="selection-titre"
        className="space-y-4 rounded-xl border border-border bg-white p-6"
      >
        <h2 id="selection-titre" className="font-sans text-lg font-semibold">
          {photos.length === 0
            ? "Aucune photo choisie pour l'instant"
            : photos.length === 1
              ? "1 photo choisie"
              : `${photos.length} photos choisies`}
        </h2>
        <p className="text-sm">
          {validatedAt
            ? `Sélection validée par le client le ${formatLongDateTimeFr(validatedAt)}.`
            : "Le client n'a pas encore validé sa sélection : elle peut encore changer."}
        </p>
        {validatedAt ? (
          <ConfirmedActionForm
            id={gallery.id}
            intent="reopen"
            param="rouvrir"
            confirmation={reopenConfirmation}
            itemLabel={gallery.title}
            variant="default"
            label={
              <>
                <RotateCcw aria-hidden="true" />
                Rouvrir la sélection
              </>
            }
          />
        ) : null}
      </section>
      {sale ? (
        <section
          aria-labelledby="vente-titre"
          className="space-y-3 rounded-xl border border-border bg-white p-6"
        >
          <h2 id="vente-titre" className="font-sans text-lg font-semibold">
            Photos supplémentaires
          </h2>
          <p className="text-sm">
            La formule du client comprend {sale.included} photo{sale.included > 1 ? "s" : ""} de sa
            sélection validée.{" "}
            {sale.held
              ? null
              : sale.pending
                ? `Une commande de ${sale.pending.amount} attend son paiement.`
                : sale.due
                  ? sale.due.allPhotos
                    ? `Dû : ${sale.due.amount} pour toutes les photos (${sale.due.count} en plus de la formule${sale.due.credit ? ` ; ${sale.due.credit} déjà payés déduits` : ""}).`
                    : `Dû : ${sale.due.amount} pour ${sale.due.count} photo${sale.due.count > 1 ? "s" : ""} en plus de la formule.`
                  : "Rien n'est dû pour l'instant."}
          </p>
          {sale.held ? (
            <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
              Un paiement par carte de {sale.held.taken} est arrivé pour sa commande de{" "}
              {sale.held.amount}
              {sale.held.awaiting ? "" : ", qui n'attend plus de paiement"} : le prestataire a
              encaissé un autre montant, et il attend votre décision. D'ici là, rien n'est vendu ni
              encaissé pour cette galerie, pour que le client ne paie pas deux fois.{" "}
              <a
                href={`/admin/ventes/${sale.held.orderId}`}
                className="font-semibold underline underline-offset-4"
              >
                Accepter ou rembourser ce paiement
              </a>
            </p>
          ) : sale.due ? (
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="id" value={gallery.id} />
              <input type="hidden" name="cle" value={sale.orderKey} />
              <input type="hidden" name="montant" value={sale.due.amountCents} />
              <div className="space-y-1">
                <label htmlFor="moyen" className="block text-sm font-medium">
                  Réglé par
                </label>
                <select
                  id="moyen"
                  name="moyen"
                  defaultValue="card_terminal"
                  className="min-h-11 rounded-md border border-border bg-white px-3"
                >
                  {sale.means.map((means) => (
                    <option key={means.value} value={means.value}>
                      {means.label}
                    </option>
                  ))}
                </select>
              </div>
              <Button type="submit" name="intent" value="cash">
                <HandCoins aria-hidden="true" />
                Encaisser et débloquer
              </Button>
            </Form>
          ) : null}
          <Form method="post">
            <input type="hidden" name="id" value={gallery.id} />
            <Button type="submit" name="intent" value="offer-all" variant="outline" size="sm">
              <Gift aria-hidden="true" />
              Offrir toutes les photos
            </Button>
          </Form>
        </section>
      ) : null}
      {photos.length > 0 ? (
        <>
          <section
            aria-labelledby="noms-titre"
            className="space-y-3 rounded-xl border border-border bg-white p-6"
          >
            <h2 id="noms-titre" className="font-sans text-lg font-semibold">
              Noms des fichiers
            </h2>
            <p className="text-sm text-muted-foreground">
              À copier dans la recherche de Lightroom (« Nom de fichier contient l'un des… »).
            </p>
            <label htmlFor="noms-fichiers" className="sr-only">
              Noms des fichiers choisis, séparés par des virgules
            </label>
            <textarea
              id="noms-fichiers"
              readOnly
              rows={3}
              value={names}
              className="w-full rounded-md border border-border p-3 font-mono text-sm"
            />
            <a
              href={`/admin/galeries/${gallery.id}/selection.csv`}
              download
              className="inline-flex min-h-11 items-center gap-2 text-sm underline underline-offset-4"
            >
              <Download aria-hidden="true" className="size-4" />
              Télécharger la sélection (CSV)
            </a>
          </section>
          <section
            aria-labelledby="favoris-titre"
            className="rounded-xl border border-border bg-white"
          >
            <h2 id="favoris-titre" className="px-6 pt-6 font-sans text-lg font-semibold">
              Favoris et commentaires
            </h2>
            <ul className="divide-y divide-border">
              {photos.map((photo) => (
                <li key={photo.id} className="px-6 py-3">
                  <div className="flex flex-wrap items-center gap-3">
                    <p className="font-mono text-sm font-semibold">{photo.originalName}</p>
                    {photo.right ? (
                      <span className="text-sm">{PHOTO_RIGHT_LABELS[photo.right]}</span>
                    ) : null}
                    {photo.right === "to_buy" ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={gallery.id} />
                        <input type="hidden" name="photoId" value={photo.id} />
                        <Button
                          type="submit"
                          name="intent"
                          value="offer"
                          variant="outline"
                          size="sm"
                          aria-label={`Offrir ${photo.originalName}`}
                        >
                          <Gift aria-hidden="true" />
                          Offrir
                        </Button>
                      </Form>
                    ) : null}
                  </div>
                  {photo.comment ? (
                    <p className="mt-1 text-sm whitespace-pre-line">« {photo.comment} »</p>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </div>
  );
}
