import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../../../tests/support/fake-stripe";
import { useAppDatabase } from "../../../tests/support/database";
import {
  placeCardOrder,
  placeOrder,
  reportCardPaid,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import type { SiteContent } from "../content/site-content.server";
import { cardFormActions, registerOwnerCardKeys, removeOwnerCardKeys } from "./card.server";
import { cancelUnpaidOrder, completeRefund, requestRefund } from "./orders.server";
import { cardKeys, removeCardKeys, saveCardKeys } from "./payment-keys.server";
import { ProviderUnavailableError } from "./provider.server";
import { paymentProvider } from "./providers.server";

useAppDatabase({ jobs: true });

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

describe("the owner's keys while card payments are under way", () => {
  const { card } = usePaymentsInMemory();
  // Her keys in force are the ones the fake Stripe knows: asked whether it refuses them, it answers no.
  const OWNER_KEYS = {
    get secretKey() {
      return fake.secretKey;
    },
    webhookSecret: "whsec_OwnerKeysWhilePaying0000",
  };
  const OTHER_ACCOUNT = {
    secretKey: "sk_live_51AnotherAccountOfHers000000",
    webhookSecret: "whsec_AnotherAccountOfHers0000",
  };
  const replace = (keys: { secretKey: string; webhookSecret: string }) =>
    registerOwnerCardKeys(keys, { siteUrl: SITE, apiUrl: fake.apiUrl });

  it("are neither removed nor replaced by another account's while a checkout is open, and are once it is paid", async () => {
    await saveCardKeys(OWNER_KEYS);
    const { orderId } = await placeCardOrder(12_000);

    // Cards turned off meanwhile: the buyer is still on Stripe's page and may pay there.
    const refused = await removeOwnerCardKeys();
    expect(refused).toMatchObject({ payments: 1, refunds: 0 });
    expect(refused).not.toBe("removed");
    expect(await replace(OTHER_ACCOUNT)).toMatchObject({ payments: 1 });
    expect((await cardKeys())?.secretKey).toBe(OWNER_KEYS.secretKey);
    // The same key with another signing secret is the same account: its checkouts stay known.
    expect(
      await replace({
        secretKey: OWNER_KEYS.secretKey,
        webhookSecret: "whsec_OwnerKeysSecondSecret000",
      }),
    ).toBe("saved");

    expect((await reportCardPaid(orderId, 12_000)).outcome).toBe("applied");
    expect(await replace(OTHER_ACCOUNT)).toBe("saved");
    expect(await removeOwnerCardKeys()).toBe("removed");
    expect(await cardKeys()).toBeNull();
  });

  it("are replaced while payments are under way when Stripe refuses the keys in force (rolled or revoked)", async () => {
    // Keys Stripe no longer knows: no checkout, refund or look-up can succeed with them.
    await saveCardKeys({
      secretKey: "sk_test_51RolledAndRevoked0000000000",
      webhookSecret: "whsec_RolledKeysSecret000000000",
    });
    const { orderId } = await placeCardOrder(7_000);
    expect(
      await replace({ secretKey: fake.secretKey, webhookSecret: "whsec_NewKeysAfterRolling00000" }),
    ).toBe("saved");
    expect((await cardKeys())?.secretKey).toBe(fake.secretKey);
    expect(await cancelUnpaidOrder(orderId)).toBe(true);
  });

  it("stay while a card order still awaits payment (its checkout failed) and while a card refund is pending", async () => {
    await saveCardKeys(OWNER_KEYS);
    card.failNext(true);
    const failed = await placeOrder("card", 8_000);
    card.failNext(false);
    expect(failed.checkout).toBe("failed");
    // The order's page still offers « Payer par carte »: a new checkout with these keys.
    expect(await removeOwnerCardKeys()).toMatchObject({ payments: 1, refunds: 0 });
    expect(await cancelUnpaidOrder(failed.orderId)).toBe(true);

    const { orderId } = await placeCardOrder(9_000);
    await reportCardPaid(orderId, 9_000);
    card.refundOutcome("pending");
    const refund = await requestRefund(orderId, 9_000, "Rétractation").finally(() =>
      card.refundOutcome("succeeded"),
    );
    expect(refund.status).toBe("pending");
    expect(await removeOwnerCardKeys()).toEqual({ payments: 0, refunds: 1, until: null });
    expect((await cardKeys())?.secretKey).toBe(OWNER_KEYS.secretKey);

    // Stripe's event says the refund is done.
    await completeRefund(refund.id, "succeeded", refund.providerReference);
    expect(await removeOwnerCardKeys()).toBe("removed");
  });
});

describe("cardFormActions", () => {
  const content = (card: boolean, keys = card) =>
    ({
      documents: { payments: { card } },
      otherRows: new Set(keys ? ["payment-keys"] : []),
    }) as unknown as SiteContent;

  it("lets forms lead to the hosted page while there are keys, even with cards off, the same list while unchanged", () => {
    let current = content(false);
    let environmentKey = false;
    const origins = cardFormActions(
      () => current,
      () => environmentKey,
    );
    expect(origins()).toEqual([]);
    current = content(true);
    const allowed = origins();
    expect(allowed).toEqual(["https://checkout.stripe.com"]);
    current = content(true);
    expect(origins()).toBe(allowed);
    // Cards off with the keys kept: an order placed by card is still paid on Stripe's page.
    current = content(false, true);
    expect(origins()).toEqual(["https://checkout.stripe.com"]);
    current = content(false);
    expect(origins()).toEqual([]);
    environmentKey = true;
    current = content(false);
    expect(origins()).toEqual(["https://checkout.stripe.com"]);
  });
});
