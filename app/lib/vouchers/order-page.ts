import type { PaymentMethod } from "~/lib/payments/model";

/*
 * What /bons-cadeaux and /commande/{jeton} share between their views and their server modules (decision
 * 0157): the hidden key's name, the query parameter that preselects a session, the order page's address.
 */

/** The hidden idempotency key drawn with the form: a second submit of it finds the first order. */
export const ORDER_KEY_FIELD = "cle";

/** `/bons-cadeaux?offre={sessionTypeId}` preselects that session. */
export const VOUCHERS_PATH = "/bons-cadeaux";
export const voucherOfferPath = (sessionTypeId: string) =>
  `${VOUCHERS_PATH}?offre=${encodeURIComponent(sessionTypeId)}`;

/** The buyer's order page. */
export const orderPagePath = (token: string) => `/commande/${token}`;
export const orderPdfPath = (token: string) => `/commande/${token}/bon.pdf`;
export const orderInvoicePath = (token: string, number: string) =>
  `/commande/${token}/facture/${number}.pdf`;

/** What happens after the order, one line per way of paying (shown beside each choice). */
export function paymentMethodLine(method: PaymentMethod, transferDays: number): string {
  switch (method) {
    case "card":
      return "Vous payez sur la page sécurisée de notre prestataire (Stripe), puis revenez ici : le bon est émis dès le paiement reçu.";
    case "transfer":
      return `Nous vous donnons notre IBAN et une référence à indiquer : le bon est émis à réception du virement, attendu sous ${transferDays} jours.`;
    case "studio":
      return "Vous réglez au studio (carte, chèque ou espèces) : le bon est émis dès le paiement reçu.";
  }
}
