import { describe, expect, it } from "vitest";
import { formatCents } from "../prices";
import {
  centsForInput,
  heldAcceptedToast,
  heldAmountText,
  mailStatusLabel,
  typedCents,
} from "./admin-words";

describe("typedCents", () => {
  it("reads euros as the owner types them", () => {
    expect(typedCents("12")).toBe(1200);
    expect(typedCents("12,5")).toBe(1250);
    expect(typedCents("12.50 €")).toBe(1250);
    expect(typedCents("1 200")).toBe(120_000);
  });
  it("refuses what is not a positive amount", () => {
    expect(typedCents("")).toBeNull();
    expect(typedCents("0")).toBeNull();
    expect(typedCents("-3")).toBeNull();
    expect(typedCents("12,345")).toBeNull();
    expect(typedCents("douze")).toBeNull();
  });
  it("writes cents back for a field", () => {
    expect(centsForInput(15_000)).toBe("150");
    expect(centsForInput(1250)).toBe("12,50");
  });
});

describe("mailStatusLabel", () => {
  const mail = { state: "completed", sentAt: null, givenUp: null, nothingToSend: false };
  it("tells an e-mail sent from one refused, given up, or whose job found nothing to send", () => {
    expect(mailStatusLabel({ ...mail, sentAt: "2026-12-02T09:00:00Z" })).toBe("envoyé");
    expect(mailStatusLabel({ ...mail, givenUp: "550 boîte inconnue" })).toBe(
      "non remis : 550 boîte inconnue",
    );
    expect(mailStatusLabel({ ...mail, nothingToSend: true })).toBe(
      "non envoyé : plus rien à envoyer",
    );
    expect(mailStatusLabel({ ...mail, state: "failed" })).toBe("non envoyé");
    expect(mailStatusLabel({ ...mail, state: "created" })).toBe("à envoyer");
  });
});

describe("heldAmountText", () => {
  it("writes what the provider took in euros as prices are written, another currency by its figures", () => {
    expect(heldAmountText(2_500, "EUR")).toBe(formatCents(2_500));
    expect(heldAmountText(2_500, null)).toBe(formatCents(2_500));
    expect(heldAmountText(1_250, "USD")).toBe("12,50 USD");
  });
});

describe("heldAcceptedToast", () => {
  it("never says the order is paid when its money goes back at once", () => {
    expect(heldAcceptedToast({ outcome: "applied" }, "70 €", "voucher")).toMatchObject({
      title: "Paiement accepté",
      description: "70 € enregistrés : la commande est payée et le bon cadeau est émis et envoyé.",
    });
    const givenBack = heldAcceptedToast(
      { outcome: "late", givenBack: true },
      "70 €",
      "gallery_photos",
    );
    expect(givenBack.title).toBe("Paiement accepté, puis remboursé");
    expect(givenBack.description).toContain("remboursés en entier au client");
    expect(givenBack.description).not.toContain("la commande est payée");
    expect(heldAcceptedToast({ outcome: "already_applied" }, "70 €", "voucher").title).toBe(
      "Ce paiement est déjà accepté",
    );
  });
});
