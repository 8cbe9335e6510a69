/**
 * The fields of /bons-cadeaux as a browser without JavaScript posts them (the http and system tests' orders
 * and the bench's): a voucher of 100 € for Léa Martin, ordered by Zoé Lefèvre, paid by card, the terms
 * accepted. `changes` replace or add fields (the order key `cle`, the method, the offer…).
 */
export function voucherOrderFields(changes: Record<string, string> = {}): Record<string, string> {
  return {
    offre: "montant",
    montant: "100",
    studio: "tous",
    beneficiaire: "Léa Martin",
    message: "",
    envoi: "maintenant",
    destinataire: "acheteur",
    acheteurNom: "Zoé Lefèvre",
    acheteurEmail: "zoe@example.test",
    paiement: "card",
    conditions: "on",
    ...changes,
  };
}
