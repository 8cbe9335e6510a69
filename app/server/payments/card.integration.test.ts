import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../../../tests/support/fake-stripe";
import { useAppDatabase } from "../../../tests/support/database";
import type { SiteContent } from "../content/site-content.server";
import { cardFormActions, registerOwnerCardKeys } from "./card.server";
import { cardKeys, removeCardKeys, saveCardKeys } from "./payment-keys.server";
import { ProviderUnavailableError } from "./provider.server";
import { paymentProvider } from "./providers.server";

useAppDatabase();

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51FakeAccountForTheSite000000" });
});
afterAll(async () => {
  await fake.close();
});

const SITE = "https://studio.example.fr";

describe("the owner's card keys", () => {
  it("register the site's webhook endpoint in her Stripe account and keep the secret it answers", async () => {
    const saved = await registerOwnerCardKeys(
      { secretKey: fake.secretKey, webhookSecret: null },
      { siteUrl: SITE, apiUrl: fake.apiUrl },
    );
    expect(saved).toBe("saved");
    const endpoints = fake.webhookEndpoints();
    expect(endpoints.map((endpoint) => endpoint.url)).toEqual([`${SITE}/webhooks/stripe`]);
    expect((await cardKeys())?.webhookSecret).toBe(endpoints[0]?.secret);
    // Saved again: the endpoint whose secret was lost is replaced, never doubled.
    await registerOwnerCardKeys(
      { secretKey: fake.secretKey, webhookSecret: null },
      { siteUrl: SITE, apiUrl: fake.apiUrl },
    );
    expect(fake.webhookEndpoints()).toHaveLength(1);
    expect((await cardKeys())?.webhookSecret).toBe(fake.webhookEndpoints()[0]?.secret);
    await removeCardKeys();
  });

  it("are refused when Stripe does not know the key, and kept back when it does not answer", async () => {
    expect(
      await registerOwnerCardKeys(
        { secretKey: "sk_test_UnknownToThisAccount0000", webhookSecret: null },
        { siteUrl: SITE, apiUrl: fake.apiUrl },
      ),
    ).toBe("refused");
    fake.failNext({ status: 500 });
    fake.failNext({ status: 500 });
    fake.failNext({ status: 500 });
    expect(
      await registerOwnerCardKeys(
        { secretKey: fake.secretKey, webhookSecret: null },
        { siteUrl: SITE, apiUrl: fake.apiUrl },
      ),
    ).toBe("unreachable");
    expect(await cardKeys()).toBeNull();
  });
});

describe("the card provider", () => {
  it("is unavailable without keys, and is Stripe once the owner's are kept", async () => {
    await expect(paymentProvider("stripe")).rejects.toBeInstanceOf(ProviderUnavailableError);
    await saveCardKeys({
      secretKey: "sk_test_51OwnerKeyForTheProvider00",
      webhookSecret: "whsec_OwnerSigningSecret000000",
    });
    const provider = await paymentProvider("stripe");
    expect(provider.name).toBe("stripe");
    expect(provider.formActionOrigins()).toEqual(["https://checkout.stripe.com"]);
    await removeCardKeys();
    await expect(paymentProvider("stripe")).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe("cardFormActions", () => {
  const content = (card: boolean) =>
    ({ documents: { payments: { card } } }) as unknown as SiteContent;

  it("lets forms lead to the hosted page only while cards are accepted, the same list while unchanged", () => {
    let current = content(false);
    const origins = cardFormActions(() => current);
    expect(origins()).toEqual([]);
    current = content(true);
    const allowed = origins();
    expect(allowed).toEqual(["https://checkout.stripe.com"]);
    current = content(true);
    expect(origins()).toBe(allowed);
    current = content(false);
    expect(origins()).toEqual([]);
  });
});
