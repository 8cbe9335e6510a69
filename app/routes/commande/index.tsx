import { Link } from "react-router";
import type { Route } from "./+types/index";
import type { SiteHandle } from "../site-layout";
import { BookingPage, NO_INDEX, Notice } from "~/components/booking/booking-layout";
import { InvoiceList } from "~/components/invoices/invoice-list";
import { Button } from "~/components/ui/button";
import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { orderPagePath } from "~/lib/vouchers/order-page";
import type { RedeliveryField } from "~/lib/vouchers/redelivery";

export { action, headers, loader } from "./index.server";

/**
 * /commande/{jeton}: the buyer's order (decision 0167), without JavaScript: a card payment being checked
 * refreshes the page by itself (<meta http-equiv="refresh">) until the provider has answered.
 */

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const site = siteFrom(matches);
  return [
    ...seo({
      title: `Votre commande | ${site.brand}`,
      // Every order has this page: a voucher's, her photos', a booking's deposit or balance.
      description: "Votre commande : son paiement et ses documents.",
      path: orderPagePath(loaderData.token),
      matches,
      extra: [NO_INDEX],
    }),
    ...(loaderData.card === "checking" ? [{ httpEquiv: "refresh", content: "5" } as const] : []),
  ];
};

const WITHDRAWN: Record<string, string> = {
  card: "Votre commande est annulée : le prix payé est remboursé sur votre carte et apparaîtra sur votre relevé d'ici 5 à 10 jours.",
  transfer:
    "Votre commande est annulée : le studio vous rembourse le prix payé et vous le confirme par e-mail.",
  studio:
    "Votre commande est annulée : le studio vous rembourse le prix payé et vous le confirme par e-mail.",
};

export default function CommandePage({ loaderData, actionData }: Route.ComponentProps) {
  const order = loaderData;
  const path = orderPagePath(order.token);
  if (order.withdrawal?.confirming) {
    return (
      <BookingPage trail={[]} title="Annuler votre commande ?">
        <p>
          Le bon cadeau sera annulé et{" "}
          {order.withdrawal.whole
            ? `le prix payé (${order.withdrawal.refund})`
            : `ce qui reste payé après le remboursement déjà fait (${order.withdrawal.refund})`}{" "}
          vous sera remboursé
          {order.method === "card" ? " sur votre carte" : " par le studio"}. Cette annulation est
          définitive.
        </p>
        <form method="post" action={path} className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="retracter" variant="destructive">
            Oui, annuler la commande
          </Button>
          <Button asChild variant="outline">
            <Link to={path}>Non, garder le bon</Link>
          </Button>
        </form>
      </BookingPage>
    );
  }
  return (
    <BookingPage
      trail={[]}
      title="Votre commande"
      intro={
        <p>
          Commande du {order.orderedOn} · {order.methodLabel}
        </p>
      }
    >
      {actionData?.error && !("typed" in actionData) ? (
        <Notice tone="error" title={actionData.error} />
      ) : null}
      {order.done === "renvoi" ? (
        <Notice
          tone="success"
          title="C'est noté : le bon part à l'adresse indiquée dans quelques minutes."
        />
      ) : null}
      {order.done === "retractation" ? (
        <Notice tone="success" title={WITHDRAWN[order.method] ?? WITHDRAWN.transfer ?? ""} />
      ) : null}
      {order.photos?.calledOff ? (
        <Notice tone="info" title="Cette commande a été annulée : ne la réglez pas">
          <p>
            {order.gallery && order.photos.replaced
              ? "Vous avez choisi un autre moyen de paiement : elle est remplacée par votre nouvelle commande des mêmes photos, que vous retrouvez dans votre galerie. Rien ne vous a été débité pour elle."
              : order.gallery
                ? "Ce qu'elle payait a changé dans votre galerie (des photos offertes, la sélection rouverte ou d'autres tarifs) : elle est remplacée par ce qui reste à payer, que vous retrouvez dans votre galerie. Rien ne vous a été débité pour elle."
                : order.photos.expired
                  ? "Sa galerie a expiré : ses photos ne sont plus en vente. Rien ne vous a été débité pour elle. Contactez le studio pour qu'il la prolonge."
                  : "Sa galerie a été supprimée. Rien ne vous a été débité pour elle."}
          </p>
        </Notice>
      ) : null}
      {order.photos?.undelivered ? (
        <Notice tone="info" title="Votre paiement vous est remboursé">
          <p>
            {order.photos.expired
              ? "Il est arrivé après l'expiration de votre galerie : il vous est rendu, et aucune photo n'a été débloquée par elle."
              : "Il est arrivé après l'annulation de cette commande : il vous est rendu, et aucune photo n'a été débloquée par elle."}
            {order.gallery ? " Ce qui reste à payer est dans votre galerie." : ""}
          </p>
        </Notice>
      ) : null}
      {order.card === "confirmed" && !order.photos?.undelivered ? (
        <Notice tone="success" title="Paiement confirmé">
          <p>
            {order.gallery
              ? "Merci ! Vos photos sont débloquées."
              : order.booking
                ? "Merci ! Votre réservation est confirmée : l'e-mail de confirmation est en route."
                : "Merci ! Votre bon cadeau est prêt."}
          </p>
        </Notice>
      ) : null}
      {order.expired && !order.photos?.calledOff ? (
        <Notice tone="info" title="Cette commande n'a pas été réglée à temps">
          <p>
            Elle est annulée : rien ne vous a été débité. Si vous avez payé entre-temps, répondez à
            l'e-mail de votre commande : le studio la retrouvera.
          </p>
          {order.expired.orderAgain ? (
            <p>
              <Link to="/bons-cadeaux" className="font-semibold underline underline-offset-4">
                Commander un nouveau bon cadeau
              </Link>
            </p>
          ) : null}
        </Notice>
      ) : null}
      {order.card === "held" ? (
        <Notice tone="info" title="Paiement reçu, à vérifier">
          <p>{PAYMENT_HELD_MESSAGE}</p>
        </Notice>
      ) : null}
      {order.card === "checking" ? (
        <Notice tone="info" title="Paiement en cours de vérification">
          <p>Cette page se met à jour toute seule dans quelques secondes.</p>
        </Notice>
      ) : null}

      {order.gallery ? (
        <p>
          <Link to={order.gallery} className="font-semibold underline underline-offset-4">
            Retour à votre galerie
          </Link>
        </p>
      ) : null}
      {order.booking ? (
        <p>
          {order.booking.waiting
            ? "Votre créneau vous est gardé jusqu'à la fin du délai de paiement. "
            : null}
          <a href={order.booking.href} className="underline">
            Voir ma réservation
          </a>
        </p>
      ) : null}

      <section aria-labelledby="etat" className="space-y-3">
        <h2 id="etat" className="text-xl font-semibold">
          État : {order.status}
        </h2>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Détail de la commande</caption>
          <thead>
            <tr>
              <th scope="col" className="py-2">
                Article
              </th>
              <th scope="col" className="py-2 text-right">
                Montant
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line) => (
              <tr key={line.label} className="border-t border-border">
                <td className="py-2">
                  {line.quantity > 1 ? `${line.quantity} × ` : ""}
                  {line.label}
                </td>
                <td className="py-2 text-right">{line.total}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-border font-semibold">
              <th scope="row" className="py-2">
                Total
              </th>
              <td className="py-2 text-right">{order.total}</td>
            </tr>
          </tfoot>
        </table>
        {order.delivery ? <p>{order.delivery}</p> : null}
      </section>

      {order.transfer ? (
        <section aria-labelledby="virement" className="space-y-3 rounded-xl bg-muted p-4">
          <h2 id="virement" className="text-xl font-semibold">
            Payer par virement
          </h2>
          <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold">Titulaire</dt>
            <dd>{order.transfer.holder}</dd>
            <dt className="font-semibold">IBAN</dt>
            <dd className="font-mono">{order.transfer.iban}</dd>
            <dt className="font-semibold">Montant</dt>
            <dd>{order.transfer.amount}</dd>
            <dt className="font-semibold">Référence à indiquer</dt>
            <dd className="font-mono">{order.transfer.reference}</dd>
          </dl>
          <p>
            Indiquez bien la référence : elle nous permet de reconnaître votre virement.
            {order.transfer.deadline
              ? ` Il est attendu avant le ${order.transfer.deadline} ; passé ce délai, la commande est annulée.`
              : ""}{" "}
            {order.gallery
              ? "Vos photos sont débloquées dès sa réception."
              : order.booking
                ? "Votre réservation est confirmée dès sa réception."
                : "Le bon est émis dès sa réception."}
          </p>
        </section>
      ) : null}

      {order.method === "studio" && order.awaiting ? (
        <section aria-labelledby="au-studio" className="space-y-2 rounded-xl bg-muted p-4">
          <h2 id="au-studio" className="text-xl font-semibold">
            Payer au studio
          </h2>
          <p>
            Passez au studio ou appelez-le pour régler {order.total} (carte, chèque ou espèces) :{" "}
            {order.gallery
              ? "vos photos sont débloquées dès le paiement reçu."
              : order.booking
                ? "votre facture vous est envoyée par e-mail dès le paiement reçu."
                : "le bon est émis dès le paiement reçu."}
          </p>
        </section>
      ) : null}

      {order.card === "retry" ? (
        <section aria-labelledby="payer" className="space-y-3">
          <h2 id="payer" className="text-xl font-semibold">
            {order.checkoutOpen ? "Paiement à faire" : "Le paiement n'a pas abouti"}
          </h2>
          <p>
            Votre commande est gardée : vous pouvez
            {order.checkoutOpen ? " payer" : " payer à nouveau"} par carte.
          </p>
          <form method="post" action={path}>
            <Button type="submit" name="intent" value="payer" size="lg">
              Payer par carte
            </Button>
          </form>
        </section>
      ) : null}

      {order.voucher ? (
        <section aria-labelledby="bon" className="space-y-3">
          <h2 id="bon" className="text-xl font-semibold">
            Votre bon cadeau
          </h2>
          <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold">Code</dt>
            <dd className="font-mono">{order.voucher.code}</dd>
            <dt className="font-semibold">Offre</dt>
            <dd>{order.voucher.cover}</dd>
            {order.voucher.validUntil ? (
              <>
                <dt className="font-semibold">Valable jusqu'au</dt>
                <dd>{order.voucher.validUntil}</dd>
              </>
            ) : null}
          </dl>
          {order.voucher.cancelled ? <p>Ce bon est annulé.</p> : null}
          {order.voucher.pdf ? (
            <Button asChild size="lg">
              <a href={order.voucher.pdf} download>
                Télécharger le bon (PDF)
              </a>
            </Button>
          ) : null}
        </section>
      ) : null}

      <InvoiceList invoices={order.invoices} />

      {order.refunded.length > 0 ? (
        <section aria-labelledby="remboursements" className="space-y-2">
          <h2 id="remboursements" className="text-xl font-semibold">
            Remboursement
          </h2>
          <ul className="list-disc pl-5">
            {order.refunded.map((refund, index) => (
              <li key={index}>
                {refund.state === "failed"
                  ? `Le remboursement de ${refund.amount} n'a pas pu être effectué : le studio vous recontacte pour vous rendre cet argent.`
                  : `${refund.amount} : ${refund.state === "done" ? "remboursé" : "en cours"}`}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {order.undelivered ? (
        <RedeliveryForm
          action={`${path}#envoi-impossible`}
          undelivered={order.undelivered}
          answer={
            actionData && "typed" in actionData && typeof actionData.typed === "string"
              ? {
                  error: actionData.error,
                  typed: actionData.typed,
                  field:
                    "field" in actionData && actionData.field === "acheteurEmail"
                      ? "acheteurEmail"
                      : "beneficiaireEmail",
                }
              : undefined
          }
        />
      ) : null}

      {order.withdrawal ? (
        <section aria-labelledby="retractation" className="space-y-2">
          <h2 id="retractation" className="text-xl font-semibold">
            Vous avez changé d'avis ?
          </h2>
          <p>
            Tant que le bon n'a pas servi, vous pouvez annuler la commande jusqu'au{" "}
            {order.withdrawal.lastDay} :{" "}
            {order.withdrawal.whole
              ? "le prix payé vous est remboursé."
              : `ce qui reste payé (${order.withdrawal.refund}) vous est remboursé.`}
          </p>
          <Button asChild variant="outline">
            <Link to={`${path}?retractation=1`}>Annuler ma commande</Link>
          </Button>
        </section>
      ) : null}
    </BookingPage>
  );
}

/**
 * Her voucher's e-mail given up: the address corrected (what she typed kept), or sent to herself (at her
 * own address corrected, when that is the one refused). Posted to the page's address with this section's
 * anchor: the page answering a refusal opens at the form and its message, not at its top, a phone's screen
 * or more above them (a success goes to the page without it).
 */
function RedeliveryForm({
  action,
  undelivered,
  answer,
}: {
  action: string;
  undelivered: { to: string; recipientName: string; toRecipient: boolean; buyerEmail: string };
  answer: { error: string; typed: string; field: RedeliveryField } | undefined;
}) {
  // Her own address refused, her own voucher: to herself at the address corrected, first.
  const ownRefused = !undelivered.toRecipient;
  const toHerself = answer ? answer.field === "acheteurEmail" : ownRefused;
  const error = (field: RedeliveryField) =>
    answer?.field === field ? (
      <p id="renvoi-erreur" className="text-sm text-red-800">
        {answer.error}
      </p>
    ) : null;
  const invalid = (field: RedeliveryField) =>
    answer?.field === field
      ? ({ "aria-invalid": true, "aria-describedby": "renvoi-erreur" } as const)
      : {};
  return (
    <section
      aria-labelledby="envoi-impossible"
      className="space-y-3 rounded-xl border border-red-300 p-4"
    >
      <h2 id="envoi-impossible" className="text-xl font-semibold">
        Le bon n'a pas pu être envoyé
      </h2>
      {undelivered.toRecipient ? (
        <p>
          {`L'adresse ${undelivered.to} a été refusée par sa messagerie, ou celle-ci n'a pas répondu. Corrigez-la pour l'envoyer à nouveau, ou recevez le bon vous-même pour le transmettre à ${undelivered.recipientName}.`}
        </p>
      ) : (
        <p>
          {`Votre adresse ${undelivered.to} a été refusée par sa messagerie, ou celle-ci n'a pas répondu. Corrigez-la pour le recevoir, téléchargez le bon sur cette page (« Télécharger le bon (PDF) »), ou faites-le envoyer à ${undelivered.recipientName} :`}
        </p>
      )}
      <form method="post" action={action} noValidate className="space-y-3">
        <fieldset className="space-y-2">
          <legend className="font-medium">Envoyer le bon</legend>
          {ownRefused ? (
            <>
              <label className="flex items-center gap-2">
                <input type="radio" name="destinataire" value="moi" defaultChecked={toHerself} />À
                moi, à mon adresse corrigée :
              </label>
              <input
                type="email"
                name="acheteurEmail"
                aria-label="Votre adresse e-mail"
                autoComplete="email"
                defaultValue={answer?.field === "acheteurEmail" ? answer.typed : undelivered.to}
                {...invalid("acheteurEmail")}
                className="w-full rounded-md border border-input px-3 py-2"
              />
              {error("acheteurEmail")}
            </>
          ) : null}
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="destinataire"
              value="beneficiaire"
              defaultChecked={!toHerself}
            />
            {`À ${undelivered.recipientName}, à cette adresse :`}
          </label>
          <input
            type="email"
            name="beneficiaireEmail"
            aria-label={`Adresse e-mail de ${undelivered.recipientName}`}
            autoComplete="off"
            defaultValue={
              answer?.field === "beneficiaireEmail"
                ? answer.typed
                : undelivered.toRecipient
                  ? undelivered.to
                  : ""
            }
            {...invalid("beneficiaireEmail")}
            className="w-full rounded-md border border-input px-3 py-2"
          />
          {error("beneficiaireEmail")}
          {undelivered.toRecipient ? (
            <label className="flex items-center gap-2">
              <input type="radio" name="destinataire" value="moi" />
              {`À moi (${undelivered.buyerEmail}), pour le lui transmettre`}
            </label>
          ) : null}
        </fieldset>
        <Button type="submit" name="intent" value="renvoyer">
          Envoyer le bon
        </Button>
      </form>
    </section>
  );
}
