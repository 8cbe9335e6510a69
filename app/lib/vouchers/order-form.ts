import { isIsoDay } from "~/lib/dates";
import type { PaymentMethod } from "~/lib/payments/model";
import { z } from "~/lib/zod";
import { VOUCHER_TEXT_LIMITS } from "./terms";

/*
 * The order form of /bons-cadeaux (decision 0166): what is offered (a session, or an amount), who buys and
 * for whom, the message printed on the voucher, when and to whom it is delivered, how it is paid, and the
 * consent to the vouchers' terms. Posted without JavaScript; read here with a French message at each
 * field that does not hold, everything typed given back. The server checks it again against what the
 * owner offers at that moment (`VoucherOrderContext`).
 */

/** The form's field names, as the page posts them. */
export const VOUCHER_ORDER_FIELDS = [
  "offre",
  "studio",
  "montant",
  "montantLibre",
  "acheteurNom",
  "acheteurEmail",
  "acheteurTelephone",
  "beneficiaire",
  "message",
  "destinataire",
  "beneficiaireEmail",
  "envoi",
  "dateEnvoi",
  "paiement",
  "conditions",
] as const;
export type VoucherOrderField = (typeof VOUCHER_ORDER_FIELDS)[number];

/** `offre`'s value for an amount; a session is named by its session type's id. */
export const AMOUNT_OFFER = "montant";
/** `montant`'s value for a free amount typed in `montantLibre`. */
export const FREE_AMOUNT = "autre";
/** `studio`'s value for a session voucher valid in every studio offering it. */
export const ANY_STUDIO = "tous";

/** A voucher is delivered at most this many days after it is ordered. */
export const DELIVERY_HORIZON_DAYS = 365;

/** What the owner offers when the form is read. */
export type VoucherOrderContext = {
  /** The sessions offered as vouchers: their session type, price and the studios offering them. */
  sessions: ReadonlyArray<{ sessionTypeId: string; euros: number; studioSlugs: readonly string[] }>;
  presets: readonly number[];
  minEuros: number;
  maxEuros: number;
  methods: readonly PaymentMethod[];
  /** Today in Europe/Paris (YYYY-MM-DD). */
  today: string;
};

export type VoucherOrder = {
  offer:
    | { kind: "session"; sessionTypeId: string; studioSlug: string | null; euros: number }
    | { kind: "amount"; euros: number };
  buyer: { name: string; email: string; phone: string };
  recipient: { name: string; email: string | null };
  message: string;
  /** Sent to the buyer, who hands it over, or to the recipient directly. */
  sendTo: "buyer" | "recipient";
  /** The day it is sent at 9:00 (Europe/Paris); null: as soon as it is paid. */
  deliveryDay: string | null;
  method: PaymentMethod;
};

export type VoucherOrderReading =
  | { ok: true; order: VoucherOrder }
  | { ok: false; errors: Partial<Record<VoucherOrderField, string>> };

/** One line: a line break posted in a single-line field becomes a space (no forged e-mail line). */
const oneLine = (value: string) => value.replace(/[\r\n\t\u2028\u2029\u0085]+/g, " ").trim();

const email = z.email();

/** `day` plus `days` calendar days (YYYY-MM-DD), in UTC arithmetic: days have no time here. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A whole number of euros as typed (« 75 », « 75 € », « 1 000 »), or null. */
function typedEuros(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f€]/g, "").replace(/,00$/, "");
  return /^\d{1,6}$/.test(compact) ? Number(compact) : null;
}

/** Reads the posted order; each field that does not hold gets its French message. */
export function readVoucherOrder(
  values: Readonly<Partial<Record<VoucherOrderField, string>>>,
  context: VoucherOrderContext,
): VoucherOrderReading {
  const text = (name: VoucherOrderField) => oneLine(values[name] ?? "");
  const errors: Partial<Record<VoucherOrderField, string>> = {};

  let offer: VoucherOrder["offer"] | null = null;
  const chosen = text("offre");
  if (chosen === AMOUNT_OFFER) {
    const preset = text("montant");
    let euros: number | null = null;
    if (preset === FREE_AMOUNT) {
      euros = typedEuros(text("montantLibre"));
      if (euros === null) {
        errors.montantLibre = "Indiquez un montant en euros entiers, par exemple 80.";
      } else if (euros < context.minEuros || euros > context.maxEuros) {
        errors.montantLibre = `Choisissez un montant entre ${context.minEuros} et ${context.maxEuros} €.`;
        euros = null;
      }
    } else {
      const value = typedEuros(preset);
      if (value !== null && context.presets.includes(value)) euros = value;
      else errors.montant = "Choisissez un montant.";
    }
    if (euros !== null) offer = { kind: "amount", euros };
  } else {
    const session = context.sessions.find((each) => each.sessionTypeId === chosen);
    if (!session) {
      errors.offre =
        chosen === ""
          ? "Choisissez ce que vous offrez."
          : "Cette séance n'est plus proposée : choisissez-en une autre.";
    } else {
      const studio = text("studio");
      if (studio === ANY_STUDIO || studio === "") {
        offer = { kind: "session", sessionTypeId: chosen, studioSlug: null, euros: session.euros };
      } else if (session.studioSlugs.includes(studio)) {
        offer = {
          kind: "session",
          sessionTypeId: chosen,
          studioSlug: studio,
          euros: session.euros,
        };
      } else {
        errors.studio = "Cette séance n'est pas proposée dans ce studio : choisissez-en un autre.";
      }
    }
  }

  const buyerName = text("acheteurNom");
  if (buyerName === "") errors.acheteurNom = "Indiquez votre nom.";
  else if (buyerName.length > VOUCHER_TEXT_LIMITS.name) {
    errors.acheteurNom = `Ce nom est trop long : ${VOUCHER_TEXT_LIMITS.name} caractères au plus.`;
  }
  const buyerEmail = text("acheteurEmail");
  if (buyerEmail.length > 255) errors.acheteurEmail = "Cette adresse e-mail est trop longue.";
  else if (!email.safeParse(buyerEmail).success) {
    errors.acheteurEmail =
      "Indiquez une adresse e-mail valide : le bon et la commande y sont envoyés.";
  }
  const buyerPhone = text("acheteurTelephone");
  if (buyerPhone.length > 30) errors.acheteurTelephone = "Ce numéro de téléphone est trop long.";

  const recipientName = text("beneficiaire");
  if (recipientName === "")
    errors.beneficiaire = "Indiquez à qui vous offrez ce bon : son nom est imprimé dessus.";
  else if (recipientName.length > VOUCHER_TEXT_LIMITS.name) {
    errors.beneficiaire = `Ce nom est trop long : ${VOUCHER_TEXT_LIMITS.name} caractères au plus (il est imprimé sur le bon).`;
  }
  const message = (values.message ?? "").replace(/\r\n?/g, "\n").trim();
  const { message: maxLength, messageLines } = VOUCHER_TEXT_LIMITS;
  if (message.length > maxLength) {
    errors.message = `Votre message compte ${message.length} caractères : ${maxLength} au plus.`;
  } else if (message.split("\n").length > messageLines) {
    errors.message = `Votre message compte ${message.split("\n").length} lignes : ${messageLines} au plus, pour tenir sur le bon.`;
  }

  // Without JavaScript the choices stay as the page drew them (« À moi », « Dès le paiement reçu »): an
  // address or a day typed beside them is asked about, never dropped (a gift sent at once, to the buyer).
  const sendTo = text("destinataire") === "beneficiaire" ? "recipient" : "buyer";
  const recipientEmail = text("beneficiaireEmail");
  if (sendTo === "recipient") {
    if (recipientEmail.length > 255)
      errors.beneficiaireEmail = "Cette adresse e-mail est trop longue.";
    else if (!email.safeParse(recipientEmail).success) {
      errors.beneficiaireEmail =
        "Indiquez l'adresse e-mail du bénéficiaire, ou recevez le bon vous-même.";
    }
  } else if (recipientEmail !== "") {
    errors.beneficiaireEmail =
      "Vous avez indiqué l'e-mail du bénéficiaire : cochez « Directement au bénéficiaire » pour qu'il le reçoive, ou effacez cette adresse pour recevoir le bon vous-même.";
  }

  let deliveryDay: string | null = null;
  if (text("envoi") !== "date") {
    if (text("dateEnvoi") !== "") {
      errors.dateEnvoi =
        "Vous avez indiqué un jour d'envoi : cochez « Un jour choisi, à 9 h » pour l'envoyer ce jour-là, ou effacez ce jour pour l'envoyer dès le paiement reçu.";
    }
  } else {
    const day = text("dateEnvoi");
    const last = addDays(context.today, DELIVERY_HORIZON_DAYS);
    if (!isIsoDay(day)) errors.dateEnvoi = "Choisissez le jour de l'envoi.";
    else if (day < context.today)
      errors.dateEnvoi = "Ce jour est passé : choisissez aujourd'hui ou un jour à venir.";
    else if (day > last) errors.dateEnvoi = "Choisissez un jour dans l'année qui vient.";
    else deliveryDay = day;
  }

  const method = text("paiement") as PaymentMethod;
  if (!context.methods.includes(method)) errors.paiement = "Choisissez comment vous payez.";

  if (values.conditions !== "on") {
    errors.conditions = "Pour commander, acceptez les conditions des bons cadeaux.";
  }

  if (Object.keys(errors).length > 0 || offer === null) return { ok: false, errors };
  return {
    ok: true,
    order: {
      offer,
      buyer: { name: buyerName, email: buyerEmail, phone: buyerPhone },
      recipient: { name: recipientName, email: sendTo === "recipient" ? recipientEmail : null },
      message,
      sendTo,
      deliveryDay,
      method,
    },
  };
}
