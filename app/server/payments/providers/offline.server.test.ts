import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../provider.server";
import { paymentProvider } from "../providers.server";
import { studioProvider, transferProvider } from "./offline.server";

describe("the offline providers", () => {
  it("make a checkout with no page to go to, from the attempt at the studio", async () => {
    const expiresAt = new Date("2027-01-01T00:00:00Z");
    expect(
      await studioProvider.createCheckout({
        orderId: "order",
        attemptId: "attempt-1",
        idempotencyKey: "key",
        amountCents: 5_000,
        lines: [],
        customerEmail: "camille@example.test",
        returnUrl: "https://example.test/commande/x",
        cancelUrl: "https://example.test/commande/x",
        expiresAt,
      }),
    ).toEqual({ providerReference: "attempt-1", redirectUrl: null, expiresAt });
  });

  it("know nothing until the owner says (open), close when asked, refund offline", async () => {
    for (const provider of [transferProvider, studioProvider]) {
      expect(await provider.retrieve("BC-7K3Q")).toMatchObject({
        status: "open",
        amountCents: null,
      });
      expect(await provider.expire("BC-7K3Q")).toMatchObject({ status: "expired" });
      expect(
        await provider.refund({ paymentReference: "x", amountCents: 100, idempotencyKey: "k" }),
      ).toEqual({ refundReference: null, status: "offline" });
      expect(provider.formActionOrigins()).toEqual([]);
    }
  });

  it("refuse every webhook", () => {
    for (const provider of [transferProvider, studioProvider]) {
      expect(() => provider.verifyWebhook(Buffer.from("{}"), "t=1,v1=x")).toThrow(
        WebhookVerificationError,
      );
    }
  });

  // Stripe's, which reads the keys in the database, is card.integration.test.ts's.
  it("are found by name", async () => {
    expect(await paymentProvider("transfer")).toBe(transferProvider);
    expect(await paymentProvider("studio")).toBe(studioProvider);
  });
});
