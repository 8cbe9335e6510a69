import { describe, expect, it } from "vitest";
import { deliveryInstant, voucherDeliveryLine } from "./delivery";

describe("deliveryInstant", () => {
  const ordered = new Date("2026-11-29T15:00:00Z");

  it("is 9:00 in Paris on the chosen day, in winter and in summer time", () => {
    expect(deliveryInstant("2026-12-24", ordered)?.toISOString()).toBe("2026-12-24T08:00:00.000Z");
    expect(deliveryInstant("2027-07-14", ordered)?.toISOString()).toBe("2027-07-14T07:00:00.000Z");
  });

  it("is now (null) without a day, or when 9:00 that day has passed", () => {
    expect(deliveryInstant(null, ordered)).toBeNull();
    expect(deliveryInstant("2026-11-29", ordered)).toBeNull();
    expect(deliveryInstant("2026-11-30", ordered)?.toISOString()).toBe("2026-11-30T08:00:00.000Z");
  });
});

describe("voucherDeliveryLine", () => {
  const at = new Date("2026-11-29T15:00:00Z");
  const gift = {
    sendTo: "recipient" as const,
    recipientName: "Chloé",
    recipientEmail: "chloe@example.com",
    buyerEmail: "noel@example.com",
    deliveryDay: "2026-12-24",
    deliveredAt: null,
    paid: false,
  };

  it("says to whom and on which day, before and after the payment", () => {
    expect(voucherDeliveryLine(gift, at)).toBe(
      "Le bon sera envoyé à Chloé (chloe@example.com) le 24 décembre 2026 à 9\u00a0h, ou dès réception du paiement s'il arrive après.",
    );
    expect(voucherDeliveryLine({ ...gift, paid: true }, at)).toBe(
      "Le bon sera envoyé à Chloé (chloe@example.com) le 24 décembre 2026 à 9\u00a0h.",
    );
  });

  it("sends to the buyer's own address as soon as it is paid when no later day was chosen", () => {
    const own = { ...gift, sendTo: "buyer" as const, recipientEmail: null, deliveryDay: null };
    expect(voucherDeliveryLine(own, at)).toBe(
      "Le bon sera envoyé à votre adresse (noel@example.com) dès réception du paiement.",
    );
    // A day whose 9:00 has passed is now.
    expect(voucherDeliveryLine({ ...own, deliveryDay: "2026-11-29", paid: true }, at)).toBe(
      "Le bon est envoyé à votre adresse (noel@example.com) dès réception du paiement.",
    );
  });

  it("says when it left", () => {
    const sent = { ...gift, paid: true, deliveredAt: new Date("2026-12-24T08:00:12Z") };
    expect(voucherDeliveryLine(sent, at)).toMatch(
      /^Le bon a été envoyé à Chloé \(chloe@example\.com\) le jeudi 24 décembre 2026 à 9\u00a0h/,
    );
  });

  it("says the voucher could not be delivered, and to which address, once its e-mail was given up", () => {
    const failed = { ...gift, paid: true, deliveryFailedTo: "chloe@exmaple.com" };
    expect(voucherDeliveryLine(failed, at)).toBe(
      "Le bon n'a pas pu être envoyé à Chloé (chloe@exmaple.com) : cette adresse a été refusée par sa messagerie, ou celle-ci n'a pas répondu.",
    );
    expect(voucherDeliveryLine({ ...failed, sendTo: "buyer" }, at)).toMatch(
      /^Le bon n'a pas pu être envoyé à votre adresse \(chloe@exmaple.com\)/,
    );
  });
});
