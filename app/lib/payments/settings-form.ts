import type { PaymentSettings } from "~/content/schemas";
import { defineFields, tableSchema } from "~/lib/field-table";
import type { FieldErrors } from "~/lib/forms";
import { compactIban, formatIban, isValidIban } from "./iban";

/*
 * The payment settings of /admin/reglages/paiement (decision 0162), on field tables (decision 0152): what
 * is on sale, the ways of paying the owner allows, her bank details for transfers, and the vouchers' rules.
 * Field names are the stored document's; the amounts offered are typed as a list (« 50, 100, 150 »).
 */

export const PAYMENT_SALES_FIELDS = defineFields({
  vouchersOnSale: {
    kind: "boolean",
    label: "Vendre des bons cadeaux sur le site",
    historyLabel: "Vente de bons cadeaux",
    hint: "La page « Bons cadeaux » s'ouvre et les studios proposent « Offrir une séance ».",
  },
});

export const PAYMENT_METHOD_FIELDS = defineFields({
  card: {
    kind: "boolean",
    label: "Carte bancaire",
    historyLabel: "Paiement par carte",
    hint: "Sur la page de paiement sécurisée de Stripe : vos clés Stripe plus bas sur cette page.",
  },
  transfer: {
    kind: "boolean",
    label: "Virement",
    historyLabel: "Paiement par virement",
    hint: "L'acheteur reçoit vos coordonnées bancaires et une référence ; vous marquez la commande payée à réception.",
  },
  studio: {
    kind: "boolean",
    label: "Au studio",
    historyLabel: "Paiement au studio",
    hint: "La commande est confirmée ; le paiement se fait au studio (vous la marquez payée).",
  },
});

const EUROS_MESSAGE = "Un montant entre 5 et 5 000 €, en euros entiers";

export const PAYMENT_TRANSFER_FIELDS = defineFields({
  transferHolder: {
    kind: "text",
    label: "Titulaire du compte",
    max: 200,
    tooLong: "200 caractères au maximum",
    hint: "Tel qu'il figure sur votre RIB.",
    row: "bank",
  },
  transferIban: {
    kind: "text",
    label: "IBAN",
    max: 34,
    maxLength: 42,
    normalize: compactIban,
    pattern: {
      regex: /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/,
      message: "Cet IBAN n'est pas valide : recopiez-le depuis votre RIB.",
    },
    checks: [
      {
        holds: (value: string) => value === "" || isValidIban(value),
        message: "Cet IBAN n'est pas valide : recopiez-le depuis votre RIB.",
      },
    ],
    hint: "Par exemple FR76 3000 6000 0112 3456 7890 189.",
    row: "bank",
  },
  transferDays: {
    kind: "number",
    label: "Délai pour recevoir un virement",
    min: 1,
    max: 30,
    unit: "jours",
    initial: 8,
    hint: "Passé ce délai sans virement, la commande est annulée et l'acheteur prévenu.",
  },
});

export const PAYMENT_VOUCHER_FIELDS = defineFields({
  voucherValidityMonths: {
    kind: "number",
    label: "Validité d'un bon cadeau",
    min: 1,
    max: 36,
    unit: "mois",
    initial: 12,
    hint: "À compter de l'achat, ou du jour d'envoi choisi par l'acheteur s'il est plus tard. Vous pourrez prolonger un bon au cas par cas.",
  },
  amountPresets: {
    kind: "text",
    label: "Montants proposés",
    historyLabel: "Montants proposés",
    max: 60,
    pattern: {
      regex: /^\d+(\s*[,;]\s*\d+){0,5}$/,
      message: "Jusqu'à 6 montants en euros entiers, séparés par des virgules",
    },
    hint: "En euros, séparés par des virgules : 50, 100, 150, 200.",
  },
  amountMin: {
    kind: "number",
    label: "Montant libre minimum",
    min: 5,
    max: 5_000,
    unit: "€",
    initial: 30,
    message: EUROS_MESSAGE,
    row: "bounds",
  },
  amountMax: {
    kind: "number",
    label: "Montant libre maximum",
    min: 5,
    max: 5_000,
    unit: "€",
    initial: 500,
    message: EUROS_MESSAGE,
    row: "bounds",
  },
});

const PAYMENT_TABLES = [
  PAYMENT_SALES_FIELDS,
  PAYMENT_METHOD_FIELDS,
  PAYMENT_TRANSFER_FIELDS,
  PAYMENT_VOUCHER_FIELDS,
] as const;

/** What the settings' history calls each stored field. */
export const PAYMENT_HISTORY_LABELS: Readonly<Record<string, string>> = Object.assign(
  {},
  ...PAYMENT_TABLES.map((table) => table.historyLabels),
);

const presets = (text: string): number[] =>
  text === "" ? [] : text.split(/[,;]/).map((part) => Number(part.trim()));

/** The form read from its posted fields into the stored settings. */
export const paymentSettingsForm = tableSchema(PAYMENT_TABLES, {}).transform(
  (fields): PaymentSettings => ({
    ...(fields as Omit<PaymentSettings, "amountPresets">),
    amountPresets: presets((fields as { amountPresets: string }).amountPresets),
  }),
);

/** The stored settings as the form's fields. */
export function paymentSettingsValues(settings: PaymentSettings): Record<string, string> {
  const text = (value: boolean) => (value ? "on" : "");
  return {
    vouchersOnSale: text(settings.vouchersOnSale),
    card: text(settings.card),
    transfer: text(settings.transfer),
    studio: text(settings.studio),
    transferHolder: settings.transferHolder,
    transferIban: settings.transferIban === "" ? "" : formatIban(settings.transferIban),
    transferDays: String(settings.transferDays),
    voucherValidityMonths: String(settings.voucherValidityMonths),
    amountPresets: settings.amountPresets.join(", "),
    amountMin: String(settings.amountMin),
    amountMax: String(settings.amountMax),
  };
}

/**
 * What the settings need together, by field: a way of paying for vouchers on sale, the bank details for
 * transfers, the card's keys for cards, bounds in order and presets within them.
 */
export function paymentSettingsProblems(
  settings: PaymentSettings,
  { cardKeys }: { cardKeys: boolean },
): FieldErrors {
  const errors: FieldErrors = {};
  if (settings.vouchersOnSale && !settings.card && !settings.transfer && !settings.studio) {
    errors.vouchersOnSale = "Choisissez au moins un moyen de paiement pour vendre des bons cadeaux";
  }
  if (settings.card && !cardKeys) {
    errors.card = "Enregistrez d'abord vos clés Stripe, plus bas sur cette page";
  }
  if (settings.transfer && settings.transferHolder === "") {
    errors.transferHolder = "Indiquez le titulaire du compte pour recevoir des virements";
  }
  if (settings.transfer && settings.transferIban === "") {
    errors.transferIban = "Indiquez votre IBAN pour recevoir des virements";
  }
  if (settings.amountMin > settings.amountMax) {
    errors.amountMax = "Le maximum doit être au moins égal au minimum";
  } else if (
    settings.amountPresets.some((euros) => euros < settings.amountMin || euros > settings.amountMax)
  ) {
    errors.amountPresets = `Chaque montant proposé doit être entre ${settings.amountMin} et ${settings.amountMax} €`;
  }
  return errors;
}
