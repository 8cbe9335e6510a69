import { ORDER_KEY_FIELD } from "~/lib/vouchers/order-page";
import { PHOTO_RIGHT_LABELS, type PhotoRight } from "~/lib/gallery-sales";
import { PAYMENT_HELD_MESSAGE, type PaymentMethod } from "~/lib/payments/model";
import type { ActionAnswer } from "./client-answer";

/** What the client gallery's page knows of the sale of extra photos (decision 0184). */
export type PhotoSaleData = {
  includedPhotos: number;
  extraPhotoPrice: string | null;
  allPhotosPrice: string | null;
  due: {
    count: number;
    allPhotos: boolean;
    amount: string;
    amountCents: number;
    /** What she already paid for the gallery's photos, taken off « toutes les photos ». */
    credit: string | null;
    photoIds: string[];
  } | null;
  pending: {
    href: string;
    amount: string;
    method: PaymentMethod;
    /** Whether she may pay it by card instead (a new order replaces it, decision 0196). */
    cardInstead: boolean;
  } | null;
  /**
   * Her card payment came for another total and waits for the studio (decision 0172), its order waiting,
   * lapsed or called off since: its page, and nothing to pay here meanwhile.
   */
  held: { href: string } | null;
  methods: { method: PaymentMethod; label: string; line: string }[];
  /** Why a transfer is not offered: too near the gallery's expiry to arrive (decision 0196). */
  lateTransfer: string | null;
  orderKey: string;
};

const plural = (count: number, word: string) => `${count} ${word}${count > 1 ? "s" : ""}`;

/** A photo's right, written on its tile (visible, and read with the photo's link). */
export function PhotoRightBadge({ right }: { right: PhotoRight }) {
  return (
    // The photo's link says it to a screen reader (« (À acheter) »): shown here for the eye.
    <span
      aria-hidden="true"
      className={`pointer-events-none absolute top-1 left-1 rounded px-2 py-0.5 text-xs font-semibold ${
        right === "to_buy" ? "bg-white text-stone-900" : "bg-emerald-800 text-white"
      }`}
    >
      {PHOTO_RIGHT_LABELS[right]}
    </span>
  );
}

/** Her acceptance of the terms and of the immediate access, asked by every form that orders. */
function SaleConditions({ refused }: { refused: ActionAnswer | undefined }) {
  return (
    <div>
      {refused?.field === "conditions" ? (
        <p id="conditions-erreur" className="mb-2 font-medium text-red-800">
          {refused.error}
        </p>
      ) : null}
      <label className="flex min-h-11 items-start gap-2">
        <input
          type="checkbox"
          name="conditions"
          defaultChecked={refused?.values?.conditions === "on"}
          aria-invalid={refused?.field === "conditions" ? true : undefined}
          aria-describedby={refused?.field === "conditions" ? "conditions-erreur" : undefined}
          className="mt-1 size-5"
        />
        <span>
          J'accepte les conditions de vente et je demande l'accès immédiat aux photos achetées : une
          fois le téléchargement ouvert, je ne peux plus me rétracter.
        </span>
      </label>
    </div>
  );
}

/** The hidden fields of her order: its key, and the amount and photos the page showed. */
function OrderFields({
  sale,
  due,
}: {
  sale: PhotoSaleData;
  due: NonNullable<PhotoSaleData["due"]>;
}) {
  return (
    <>
      <input type="hidden" name="intent" value="buy" />
      <input type="hidden" name={ORDER_KEY_FIELD} value={sale.orderKey} />
      <input type="hidden" name="montant" value={due.amountCents} />
      <input type="hidden" name="photos" value={due.photoIds.join(",")} />
    </>
  );
}

const PAY_BUTTON =
  "min-h-11 rounded-md bg-stone-900 px-4 py-2 font-semibold text-white hover:bg-stone-700";

/**
 * Where the page answering an order opens: this section (the gallery's address, its query kept, with the
 * section's anchor). A refusal is drawn at its field, below the fold of a phone when the page opened at its
 * top; an order taken goes on to its own page (or the provider's), the anchor unused there.
 */
const ANSWER_IN_VIEW = "#achat-titre";

/**
 * The client's package and what she owes for the photos of her selection beyond it, with the form that
 * orders them (a plain form: the card's hosted page is another site). The amount and photos travel as
 * the page showed them; the server computes them again and refuses any difference.
 */
export function PhotoPurchase({
  sale,
  validated,
  preview,
  answer,
}: {
  sale: PhotoSaleData;
  validated: boolean;
  preview: boolean;
  answer?: ActionAnswer;
}) {
  const refused = answer?.intent === "buy" ? answer : undefined;
  const chosen =
    refused?.values?.paiement ?? (sale.methods.length === 1 ? sale.methods[0]?.method : "");
  const prices = [
    sale.extraPhotoPrice ? `${sale.extraPhotoPrice} la photo supplémentaire` : null,
    sale.allPhotosPrice ? `${sale.allPhotosPrice} pour toutes les photos` : null,
  ].filter(Boolean);
  return (
    <section
      aria-labelledby="achat-titre"
      className="mb-6 space-y-3 rounded-md border border-stone-300 bg-white p-4"
    >
      <h2 id="achat-titre" className="text-lg font-semibold">
        Vos photos
      </h2>
      <p>
        Votre formule comprend {plural(sale.includedPhotos, "photo")} de votre sélection
        {prices.length > 0 ? ` ; au-delà : ${prices.join(", ou ")}` : ""}.
      </p>
      {refused?.error && refused.field === undefined ? (
        <p role="alert" className="rounded-md bg-red-100 px-4 py-2 font-medium text-red-900">
          {refused.error}
        </p>
      ) : null}
      {sale.held ? (
        // Her money came and waits for the studio (decision 0172), her selection validated or reopened
        // since: she learns it before anything else, and nothing is offered to pay again.
        <p>
          {PAYMENT_HELD_MESSAGE}{" "}
          <a href={sale.held.href} className="font-semibold underline underline-offset-4">
            Voir la commande
          </a>
        </p>
      ) : !validated ? (
        <p>
          Touchez le cœur des photos que vous voulez, puis validez votre sélection : les photos
          au-delà de votre formule s'achètent ici.
        </p>
      ) : sale.pending ? (
        <>
          <p>
            Une commande de {sale.pending.amount} attend son paiement.{" "}
            <a href={sale.pending.href} className="font-semibold underline underline-offset-4">
              Voir la commande et la payer
            </a>
          </p>
          {sale.pending.cardInstead && sale.due && !preview ? (
            // A plain form, as the order's: the card's page is another site.
            <form method="post" action={ANSWER_IN_VIEW} className="space-y-3" noValidate>
              <OrderFields sale={sale} due={sale.due} />
              <input type="hidden" name="paiement" value="card" />
              <p>
                {sale.pending.method === "transfer"
                  ? "Vous préférez la carte ? Elle remplace cette commande par virement : ne faites pas le virement."
                  : "Vous préférez la carte ? Elle remplace cette commande à régler au studio."}
              </p>
              <SaleConditions refused={refused} />
              <button type="submit" className={PAY_BUTTON}>
                Payer plutôt par carte
              </button>
            </form>
          ) : null}
        </>
      ) : !sale.due ? (
        <p>Toutes les photos de votre sélection sont à vous : téléchargez-les.</p>
      ) : (
        <>
          <p className="font-medium" data-testid="montant-du">
            {sale.due.allPhotos
              ? `Votre sélection compte ${plural(sale.due.count, "photo")} de plus que votre formule : toutes les photos de la galerie pour ${sale.due.amount}${sale.due.credit ? ` (les ${sale.due.credit} déjà payés déduits)` : ""}, moins cher qu'à l'unité.`
              : `Votre sélection compte ${plural(sale.due.count, "photo")} de plus que votre formule : ${sale.due.amount} à régler.`}
          </p>
          {sale.lateTransfer && refused?.error !== sale.lateTransfer ? (
            <p>{sale.lateTransfer}</p>
          ) : null}
          {preview ? null : sale.methods.length === 0 ? (
            sale.lateTransfer ? null : (
              <p>Pour les régler, contactez le studio : il les débloquera à réception.</p>
            )
          ) : (
            <form method="post" action={ANSWER_IN_VIEW} className="space-y-3" noValidate>
              <OrderFields sale={sale} due={sale.due} />
              <fieldset
                aria-describedby={refused?.field === "paiement" ? "paiement-erreur" : undefined}
                aria-invalid={refused?.field === "paiement" ? true : undefined}
              >
                <legend className="mb-2 font-semibold">Moyen de paiement</legend>
                {refused?.field === "paiement" ? (
                  <p id="paiement-erreur" className="mb-2 font-medium text-red-800">
                    {refused.error}
                  </p>
                ) : null}
                <div className="space-y-2">
                  {sale.methods.map((method) => (
                    <div key={method.method} className="flex min-h-11 items-start gap-2">
                      <input
                        type="radio"
                        id={`paiement-${method.method}`}
                        name="paiement"
                        value={method.method}
                        defaultChecked={chosen === method.method}
                        aria-describedby={`paiement-${method.method}-ligne`}
                        className="mt-1 size-5"
                      />
                      <div>
                        <label htmlFor={`paiement-${method.method}`} className="font-medium">
                          {method.label}
                        </label>
                        <p
                          id={`paiement-${method.method}-ligne`}
                          className="text-sm text-stone-700"
                        >
                          {method.line}
                        </p>
                      </div>
                    </div>
                  ))}
                </div>
              </fieldset>
              <SaleConditions refused={refused} />
              <button type="submit" className={PAY_BUTTON}>
                Payer {sale.due.amount}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}
