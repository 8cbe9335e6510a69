import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";

/** Every reason an order operation says no, in French for the page or the admin that asked. */
export type PaymentRefusalCode =
  | "invalid_order"
  | "key_reused"
  | "not_found"
  | "already_paid"
  | "not_awaiting_payment"
  | "payment_held"
  | "not_paid"
  | "refund_too_large"
  | "refund_not_open"
  | "not_held"
  | "held_other_currency"
  | "held_returned"
  | "voucher_used_meanwhile";

const MESSAGES: Record<PaymentRefusalCode, string> = {
  invalid_order: "Cette commande est incomplète : vérifiez ses lignes et son montant.",
  key_reused:
    "Ce formulaire a déjà servi à une autre commande : vérifiez ce que vous commandez ci-dessous, puis validez de nouveau pour passer une nouvelle commande.",
  not_found: "Cette commande n'existe pas.",
  already_paid: "Cette commande est déjà payée.",
  not_awaiting_payment: "Cette commande n'attend plus de paiement.",
  payment_held: PAYMENT_HELD_MESSAGE,
  not_paid: "Cette commande n'a pas été payée : il n'y a rien à rembourser.",
  refund_too_large: "Ce remboursement dépasse ce qui reste payé sur cette commande.",
  refund_not_open: "Ce remboursement est déjà terminé.",
  not_held:
    "Ce paiement n'attend pas votre décision : seul un paiement dont le montant diffère de la commande peut être accepté ou remboursé ici.",
  held_other_currency:
    "Ce paiement a été fait dans une autre devise que l'euro : il ne peut pas être accepté. Remboursez-le, puis demandez au client de payer à nouveau.",
  held_returned: "Ce paiement a déjà été remboursé au client : il ne peut plus être accepté.",
  voucher_used_meanwhile:
    "Le bon a servi depuis l'affichage de cette page : vérifiez le montant à rembourser, puis confirmez de nouveau.",
};

/** The HTTP status a page answers with: 404 for what does not exist, 409 for a state that changed. */
const STATUS: Record<PaymentRefusalCode, 400 | 404 | 409> = {
  invalid_order: 400,
  key_reused: 409,
  not_found: 404,
  already_paid: 409,
  not_awaiting_payment: 409,
  payment_held: 409,
  not_paid: 409,
  refund_too_large: 400,
  refund_not_open: 409,
  not_held: 409,
  held_other_currency: 409,
  held_returned: 409,
  voucher_used_meanwhile: 409,
};

/** An order operation refused: expected, with its French message (never a 5xx). */
export class PaymentRefusedError extends Error {
  override name = "PaymentRefusedError";
  readonly code: PaymentRefusalCode;
  readonly status: 400 | 404 | 409;
  constructor(code: PaymentRefusalCode, message = MESSAGES[code]) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
  }
}
