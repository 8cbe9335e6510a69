import { RotateCcw } from "lucide-react";
import { Form, Link } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Field, Input } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { type ErasedSince, erasedSentences, moneySentences, RESTORE_WORD } from "~/lib/backups";
import type { FormAnswer } from "~/lib/forms";
import { formatLongDateTimeFr } from "~/lib/dates";
import { backupDateOfFile } from "./run-views";

/**
 * The confirmation of a restore (works without JavaScript: the page with `?restaurer=<name>`): what it
 * does in plain words, then the word to type; the action checks it again.
 */
export function RestoreConfirmation({
  name,
  answer,
  busy,
  erased,
}: {
  name: string;
  answer: FormAnswer | undefined;
  busy: boolean;
  /** What was made since that backup (null when not known, e.g. after a refused word without a reload). */
  erased: ErasedSince | null;
}) {
  const date = backupDateOfFile(name) ?? name;
  return (
    <div className="space-y-6">
      <AdminPageHeader title={`Restaurer la sauvegarde du ${date}`} />
      <section
        aria-labelledby="restauration-titre"
        className="space-y-4 rounded-xl border border-red-300 bg-white p-6"
      >
        <h2 id="restauration-titre" className="font-sans text-lg font-semibold">
          Ce que fait une restauration
        </h2>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>
            Le site redevient exactement tel qu'il était le {date} : textes, tarifs, photos,
            galeries, abonnés, réservations et comptes. Ce qui a été ajouté ou modifié depuis
            disparaît du site.
          </li>
          <li>
            Avant de commencer, une sauvegarde de sécurité du site tel qu'il est maintenant est
            faite : vous pourrez y revenir.
          </li>
          <li>
            La sauvegarde est d'abord vérifiée entière : si elle est abîmée, rien n'est changé.
          </li>
          <li>Cela prend quelques minutes ; il faudra peut-être vous reconnecter ensuite.</li>
        </ul>
        {erased ? <ErasedSinceBackup erased={erased} /> : null}
        <Form method="post" noValidate className="space-y-4">
          <FormAlert message={answer?.status === "invalid" ? answer.toast : undefined} />
          <input type="hidden" name="sauvegarde" value={name} />
          <Field
            name="confirmation"
            label={`Pour confirmer, tapez ${RESTORE_WORD}`}
            error={answer?.errors?.confirmation}
          >
            {(props) => (
              <Input
                {...props}
                name="confirmation"
                autoComplete="off"
                spellCheck={false}
                defaultValue=""
              />
            )}
          </Field>
          <div className="flex flex-wrap items-center gap-3">
            <Button
              type="submit"
              name="intent"
              value="restore"
              variant="destructive"
              disabled={busy}
            >
              <RotateCcw aria-hidden="true" />
              Restaurer cette sauvegarde
            </Button>
            <Link to="/admin/sauvegardes" className="text-sm underline underline-offset-4">
              Annuler
            </Link>
          </div>
        </Form>
      </section>
    </div>
  );
}

/** What the restore erases, and the clients of the bookings it erases, to call them. */
function ErasedSinceBackup({ erased }: { erased: ErasedSince }) {
  const money = moneySentences(erased.money);
  const sentences = [...erasedSentences(erased), ...money];
  return (
    <div className="space-y-3 text-sm">
      <h2 className="font-sans text-lg font-semibold">Ce qui disparaîtra</h2>
      {sentences.length === 0 ? (
        <p>
          Aucune réservation, galerie, message, abonné ni paiement n'a été ajouté depuis cette
          sauvegarde.
        </p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 font-medium text-red-900">
          {sentences.map((line) => (
            <li key={line}>{line}.</li>
          ))}
        </ul>
      )}
      {money.length > 0 ? (
        <p>
          Cet argent a bougé pour de vrai. Le journal de caisse et les factures le gardent, mais les
          commandes et les bons cadeaux reviendront à leur état de la sauvegarde : notez-les (votre
          tableau Stripe et vos relevés de banque les gardent aussi) pour retrouver les commandes
          payées et honorer les bons vendus depuis.
        </p>
      ) : null}
      {erased.clients.length > 0 ? (
        <>
          <p>
            Les clientes et clients de ces réservations ne les verront plus : notez-les pour les
            appeler.
          </p>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Clients des réservations qui disparaîtront</caption>
              <thead className="border-b border-border">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Nom
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Téléphone
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    E-mail
                  </th>
                  <th scope="col" className="py-2">
                    Séance
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {erased.clients.map((client) => (
                  <tr key={`${client.email}-${client.startsAt}`}>
                    <th scope="row" className="py-2 pr-4 font-semibold">
                      {client.name}
                    </th>
                    <td className="py-2 pr-4">
                      {client.phone ? <a href={`tel:${client.phone}`}>{client.phone}</a> : "—"}
                    </td>
                    <td className="py-2 pr-4">
                      {client.email ? <a href={`mailto:${client.email}`}>{client.email}</a> : "—"}
                    </td>
                    <td className="py-2">{formatLongDateTimeFr(client.startsAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
