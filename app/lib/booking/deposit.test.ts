import { describe, expect, it } from "vitest";
import {
  DEPOSIT_STATUS_WORDS,
  depositCents,
  depositOnClientCancel,
  depositRefundWay,
  depositRuleOf,
  depositWayChangedLine,
  type DepositRule,
} from "./deposit";
import {
  newSessionTypeValues,
  parseSessionTypeForm,
  sessionTypeFormValues,
} from "./session-type-form";

const STUDIO = "0b6f6c1e-4c3a-4d4e-9f1a-3a2b1c0d9e8f";
const options = { studioIds: [STUDIO], photoIds: [] };
const base = { ...newSessionTypeValues([STUDIO]), name: "Portrait" };

describe("a session type's deposit paid online", () => {
  it("is none by default: the form without its fields saves no deposit", () => {
    const parsed = parseSessionTypeForm(base, options);
    expect(parsed.ok && parsed.value.deposit).toBeNull();
  });

  it("reads a percentage of the price, arrhes, card and transfer, and writes the same fields back", () => {
    const parsed = parseSessionTypeForm(
      {
        ...base,
        depositKind: "arrhes",
        depositText: "",
        depositAmount: "percent",
        depositPercent: "30",
        sessionPriceEuros: "129",
        depositCard: "on",
        depositTransfer: "on",
        depositTransferHours: "72",
      },
      options,
    );
    expect(parsed.ok ? {} : parsed.errors).toEqual({});
    if (!parsed.ok) return;
    expect(parsed.value.deposit).toEqual({
      amount: "percent",
      value: 30,
      priceCents: 12_900,
      nature: "arrhes",
      methods: ["card", "transfer"],
      transferHours: 72,
      refundAtOnce: false,
    });
    expect(parsed.value.depositText).toBeNull();
    expect(parsed.value.deposit && depositCents(parsed.value.deposit)).toBe(3_870);
    const again = parseSessionTypeForm(sessionTypeFormValues(parsed.value), options);
    expect(again.ok && again.value.deposit).toEqual(parsed.value.deposit);
  });

  it("says in French what is missing: arrhes or acompte, an amount, a price, a method", () => {
    const fixed = parseSessionTypeForm(
      { ...base, depositAmount: "fixed", depositEuros: "0" },
      options,
    );
    expect(fixed.ok ? {} : fixed.errors).toEqual({
      depositKind: "Dites s'il s'agit d'arrhes ou d'un acompte",
      depositEuros: "Indiquez un montant d'au moins 1 €",
      depositCard: "Cochez au moins un moyen de paiement",
    });
    const full = parseSessionTypeForm(
      { ...base, depositKind: "acompte", depositAmount: "full", depositStudio: "on" },
      options,
    );
    expect(full.ok ? {} : full.errors).toEqual({
      sessionPriceEuros: "Indiquez le prix de la séance pour calculer ce qui se paie",
    });
  });

  it("reads a stored rule of an unknown shape as none", () => {
    expect(depositRuleOf({ amount: "everything" })).toBeNull();
    expect(depositRuleOf(null)).toBeNull();
  });
});

describe("what a client's cancelling in time does with her deposit", () => {
  it("says a card's payment comes back at once, with its credit note, or the studio's refund to come", () => {
    expect(depositOnClientCancel("arrhes", "40\u00a0€", true, true)).toBe(
      "Vos arrhes de 40\u00a0€ vous sont remboursées aussitôt, sur la carte utilisée ; l'e-mail qui le confirme porte l'avoir.",
    );
    expect(depositOnClientCancel("acompte", "40\u00a0€", true, true)).toMatch(
      /^Votre acompte de 40\u00a0€ vous est remboursé aussitôt, sur la carte utilisée/,
    );
    expect(depositOnClientCancel("arrhes", "40\u00a0€", false, true)).toBe(
      "Le studio vous rembourse vos arrhes de 40\u00a0€ et vous le confirme par e-mail.",
    );
  });

  it("never promises at once what the site cannot refund: a transfer, cash or a cheque the studio gives back", () => {
    expect(depositOnClientCancel("arrhes", "40\u00a0€", true, false)).toBe(
      "Le studio vous rembourse vos arrhes de 40\u00a0€ et vous le confirme par e-mail.",
    );
    expect(depositOnClientCancel("acompte", "40\u00a0€", true, false)).toBe(
      "Le studio vous rembourse votre acompte de 40\u00a0€ et vous le confirme par e-mail.",
    );
  });

  it("restates the rules by how she pays: at once on a card only, both said before she chose", () => {
    expect(depositRefundWay(true, true)).toBe("aussitôt, sur la carte utilisée");
    expect(depositRefundWay(true, false)).toBe("par le studio");
    expect(depositRefundWay(true, null)).toBe("aussitôt pour une carte, par le studio sinon");
    expect(depositRefundWay(false, true)).toBe("par le studio");
  });
});

describe("where a deposit stands, said of it", () => {
  it("agrees with its word: arrhes payées, acompte payé", () => {
    expect(DEPOSIT_STATUS_WORDS.arrhes.paid).toBe("payées");
    expect(DEPOSIT_STATUS_WORDS.arrhes.refunded).toBe("remboursées");
    expect(DEPOSIT_STATUS_WORDS.acompte.paid).toBe("payé");
    expect(DEPOSIT_STATUS_WORDS.acompte.expired).toBe("non réglé à temps");
  });
});

describe("an accepted request's deposit asked another way than its client chose", () => {
  const rule: DepositRule = {
    amount: "fixed",
    value: 3_000,
    priceCents: null,
    nature: "arrhes",
    methods: ["card", "transfer", "studio"],
    transferHours: 24,
    refundAtOnce: false,
  };
  it("tells her in her acceptance e-mail how it is paid now, arrhes or acompte", () => {
    expect(depositWayChangedLine(rule, "transfer", "card")).toBe(
      "Vous aviez choisi de régler vos arrhes par virement, un moyen de paiement que le studio ne prend pas en ce moment : elles vous sont demandées par carte, sur la page de paiement ci-dessous.",
    );
    expect(depositWayChangedLine(rule, "card", "studio")).toBe(
      "Vous aviez choisi de régler vos arrhes par carte, un moyen de paiement que le studio ne prend pas en ce moment : elles se règlent au studio, sans paiement en ligne.",
    );
    expect(depositWayChangedLine({ ...rule, nature: "acompte" }, "card", "transfer")).toBe(
      "Vous aviez choisi de régler votre acompte par carte, un moyen de paiement que le studio ne prend pas en ce moment : il vous est demandé par virement. Le montant, le nom du titulaire, l'IBAN et la référence à indiquer sont sur la page de paiement ci-dessous.",
    );
  });
});
