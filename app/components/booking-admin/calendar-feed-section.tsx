import { CalendarPlus, CalendarX } from "lucide-react";
import { instantLabelFr } from "~/lib/booking/words";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * The owner's calendar feed (decision 0116): its state, « Générer un nouveau lien » (the old one stops), the
 * new address shown once with how to subscribe from a phone, and « Désactiver le lien ».
 */
export function CalendarFeedSection({
  since,
  feedUrl,
}: {
  since: string | null;
  feedUrl: string | null;
}) {
  const generate = (
    <>
      <CalendarPlus aria-hidden="true" />
      Générer un nouveau lien
    </>
  );
  return (
    <section
      aria-labelledby="agenda-telephone"
      className="space-y-4 rounded-xl border border-border bg-white p-4 sm:p-6"
    >
      <h2 id="agenda-telephone" className="font-sans text-lg font-semibold">
        Vos réservations dans l'agenda de votre téléphone
      </h2>
      <p className="text-sm text-muted-foreground">
        Un lien secret, à ajouter une fois à votre agenda : il y montre toutes les réservations et
        se met à jour tout seul (les séances annulées y apparaissent annulées). Ne le partagez pas :
        qui l'a voit vos réservations.
      </p>
      {feedUrl ? (
        <div
          role="status"
          className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
        >
          <p className="font-semibold">Votre nouveau lien</p>
          <label htmlFor="lien-agenda" className="text-sm">
            Copiez-le maintenant : par sécurité, il ne sera plus affiché. L'ancien lien ne
            fonctionne plus.
          </label>
          <input
            id="lien-agenda"
            readOnly
            value={feedUrl}
            className="w-full rounded-md border border-border bg-white px-3 py-2 font-mono text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
          <a
            href={feedUrl.replace(/^https?:/, "webcal:")}
            className="inline-flex min-h-11 items-center text-sm font-medium underline underline-offset-4"
          >
            S'abonner depuis ce téléphone
          </a>
        </div>
      ) : (
        <p className="text-sm">
          {since
            ? `Un lien est actif depuis le ${instantLabelFr(since)}.`
            : "Aucun lien pour l'instant."}
        </p>
      )}
      <div className="space-y-2 text-sm">
        <p className="font-semibold">Pour vous abonner</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            iPhone : ouvrez le lien « S'abonner depuis ce téléphone », ou Réglages › Calendrier ›
            Comptes › Ajouter un compte › Autre › Ajouter un calendrier avec abonnement, puis collez
            le lien.
          </li>
          <li>
            Android (Google Agenda) : sur un ordinateur, calendar.google.com › Autres agendas › + ›
            À partir de l'URL, collez le lien ; l'agenda apparaît ensuite sur le téléphone.
          </li>
        </ul>
      </div>
      <div className="flex flex-wrap gap-2">
        {since ? (
          <>
            <ConfirmedActionForm
              id="agenda"
              intent="renew-feed"
              param="nouveau-lien-agenda"
              confirmation="Générer un nouveau lien ? L'ancien ne fonctionnera plus : il faudra vous abonner de nouveau avec le nouveau."
              variant="default"
              label={generate}
            />
            <ConfirmedActionForm
              id="agenda"
              intent="revoke-feed"
              param="desactiver-agenda"
              confirmation="Désactiver le lien ? Les agendas abonnés ne recevront plus vos réservations."
              variant="destructive"
              label={
                <>
                  <CalendarX aria-hidden="true" />
                  Désactiver le lien
                </>
              }
            />
          </>
        ) : (
          <Form method="post">
            <Button type="submit" name="intent" value="renew-feed">
              {generate}
            </Button>
          </Form>
        )}
      </div>
    </section>
  );
}
