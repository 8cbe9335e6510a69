import { describe, expect, it } from "vitest";
import type { PaymentSettings } from "~/content/schemas";
import {
  paymentSettingsForm,
  paymentSettingsProblems,
  paymentSettingsValues,
} from "./settings-form";

const FILLED = {
  vouchersOnSale: "on",
  transfer: "on",
  studio: "on",
  transferHolder: "Studio Lumière SARL",
  transferIban: "fr76 3000 6000 0112 3456 7890 189",
  transferDays: "10",
  voucherValidityMonths: "12",
  amountPresets: "50, 100,150 ; 200",
  amountMin: "30",
  amountMax: "500",
};

const read = (values: Record<string, string>) => paymentSettingsForm.safeParse(values);

describe("the payment settings form", () => {
  it("reads the settings as stored: boxes, compact IBAN, amounts as a list", () => {
    const parsed = read(FILLED);
    expect(parsed.data).toEqual({
      vouchersOnSale: true,
      card: false,
      transfer: true,
      studio: true,
      transferHolder: "Studio Lumière SARL",
      transferIban: "FR7630006000011234567890189",
      transferDays: 10,
      voucherValidityMonths: 12,
      amountPresets: [50, 100, 150, 200],
      amountMin: 30,
      amountMax: 500,
    });
  });

  it("gives back what it read, the IBAN grouped by four", () => {
    const settings = read(FILLED).data as PaymentSettings;
    expect(paymentSettingsValues(settings)).toMatchObject({
      vouchersOnSale: "on",
      card: "",
      transferIban: "FR76 3000 6000 0112 3456 7890 189",
      amountPresets: "50, 100, 150, 200",
    });
    expect(read(paymentSettingsValues(settings)).data).toEqual(settings);
  });

  it("refuses a wrong IBAN, a delay out of bounds and amounts that are not a list, in French", () => {
    const parsed = read({
      ...FILLED,
      transferIban: "FR76 3000 6000 0112 3456 7890 188",
      transferDays: "45",
      amountPresets: "50 €, cent",
    });
    const messages = Object.fromEntries(
      (parsed.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]),
    );
    expect(messages).toEqual({
      transferIban: "Cet IBAN n'est pas valide : recopiez-le depuis votre RIB.",
      transferDays: "Entre 1 et 30 jours",
      amountPresets: "Jusqu'à 6 montants en euros entiers, séparés par des virgules",
    });
  });
});

describe("what the settings need together", () => {
  const settings = read(FILLED).data as PaymentSettings;

  it("nothing more when they hold together", () => {
    expect(paymentSettingsProblems(settings, { cardKeys: false })).toEqual({});
  });

  it("a way of paying for vouchers on sale, keys for cards, bank details for transfers", () => {
    expect(
      paymentSettingsProblems({ ...settings, transfer: false, studio: false }, { cardKeys: false }),
    ).toEqual({
      vouchersOnSale: "Choisissez au moins un moyen de paiement pour vendre des bons cadeaux",
    });
    expect(paymentSettingsProblems({ ...settings, card: true }, { cardKeys: false })).toEqual({
      card: "Enregistrez d'abord vos clés Stripe, plus bas sur cette page",
    });
    expect(paymentSettingsProblems({ ...settings, card: true }, { cardKeys: true })).toEqual({});
    expect(
      paymentSettingsProblems(
        { ...settings, transferHolder: "", transferIban: "" },
        { cardKeys: false },
      ),
    ).toEqual({
      transferHolder: "Indiquez le titulaire du compte pour recevoir des virements",
      transferIban: "Indiquez votre IBAN pour recevoir des virements",
    });
  });

  it("bounds in order, and presets within them", () => {
    expect(paymentSettingsProblems({ ...settings, amountMin: 600 }, { cardKeys: false })).toEqual({
      amountMax: "Le maximum doit être au moins égal au minimum",
    });
    expect(
      paymentSettingsProblems({ ...settings, amountPresets: [20, 100] }, { cardKeys: false }),
    ).toEqual({ amountPresets: "Chaque montant proposé doit être entre 30 et 500 €" });
  });
});
