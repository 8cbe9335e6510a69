import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { startFakeStripe, type FakeStripe } from "../../../tests/support/fake-stripe";
import { countingOrderKind, placeOrder } from "../../../tests/support/payments";
import { db } from "../db/client.server";
import { cardKeysInForce } from "./card.server";
import { ownerPaymentEmail } from "./emails.server";
import { saveCardKeys } from "./payment-keys.server";
import { replacePaymentProviderForTests } from "./providers.server";
import { stripeProvider } from "./providers/stripe.server";

// A secret key Stripe no longer accepts (revoked, or rolled in the dashboard) makes every card checkout
// fail; the owner is told, at most once a day, to enter her keys again (decision 0163, amended).

useAppDatabase({ jobs: true });

let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  countingOrderKind();
});

afterAll(async () => {
  replacePaymentProviderForTests("stripe", null);
  await fake?.close();
});

const keysRefusedMails = async () =>
  (
    await db().execute<{ id: string }>(sql`
      select id from pgboss.job where name = 'mail'
      and data->>'kind' = 'payment-owner' and data->>'event' = 'keys_refused'`)
  ).rows;

describe("Stripe refusing the site's secret key", () => {
  it("fails the buyer's checkout and e-mails the owner once to enter her keys again", async () => {
    replacePaymentProviderForTests(
      "stripe",
      stripeProvider({
        secretKey: "sk_test_51RolledKeyNoLongerValid00000",
        webhookSecret: "whsec_unused",
        apiUrl: fake.apiUrl,
        maxNetworkRetries: 0,
      }),
    );
    // Each buyer's failure says it is the keys: no « réessayez dans quelques minutes » on her page.
    for (let buyer = 0; buyer < 3; buyer += 1) {
      expect(await placeOrder("card")).toMatchObject({ checkout: "failed", keysRefused: true });
    }
    expect(await keysRefusedMails()).toHaveLength(1);
    const mail = await ownerPaymentEmail({ event: "keys_refused" });
    expect(mail?.subject).toBe("Paiement par carte impossible : Stripe refuse les clés du site");
    // The admin menu she finds it under is « Paiements »: there is no « Réglages » in it.
    expect(mail?.text).toContain("dans « Paiements », le menu de l'administration");
    expect(mail?.text).not.toContain("Réglages");
  });

  it("says so on the settings page while that key is in force, from the first refusal", async () => {
    const rolled = "sk_test_51RolledAgainNoLongerValid0000";
    await saveCardKeys({ secretKey: rolled, webhookSecret: "whsec_unusedunused" });
    replacePaymentProviderForTests(
      "stripe",
      stripeProvider({
        secretKey: rolled,
        webhookSecret: "whsec_unusedunused",
        apiUrl: fake.apiUrl,
        maxNetworkRetries: 0,
      }),
    );
    expect(await cardKeysInForce()).toMatchObject({ state: "set", refusedAt: null });
    const before = new Date();
    expect(await placeOrder("card")).toMatchObject({ checkout: "failed" });
    const refused = await cardKeysInForce();
    const at = refused.state === "set" ? refused.refusedAt : null;
    expect(at?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
    // A second refusal keeps the first one's time.
    expect(await placeOrder("card")).toMatchObject({ checkout: "failed" });
    expect(await cardKeysInForce()).toMatchObject({ refusedAt: at });
    // New keys entered: nothing to say of them.
    await saveCardKeys({
      secretKey: "sk_test_51NewKeyEnteredAgain000000",
      webhookSecret: "whsec_unusedunused",
    });
    expect(await cardKeysInForce()).toMatchObject({ state: "set", refusedAt: null });
  });

  it("does not e-mail the owner when Stripe only fails for a moment", async () => {
    const before = (await keysRefusedMails()).length;
    replacePaymentProviderForTests(
      "stripe",
      stripeProvider({
        secretKey: fake.secretKey,
        webhookSecret: "whsec_unused",
        apiUrl: fake.apiUrl,
        maxNetworkRetries: 0,
      }),
    );
    fake.failNext({ status: 500 });
    expect(await placeOrder("card")).toMatchObject({ checkout: "failed", keysRefused: false });
    expect(await keysRefusedMails()).toHaveLength(before);
  });
});
