import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { startFakeStripe, type FakeStripe } from "../../../tests/support/fake-stripe";
import { countingOrderKind, placeOrder } from "../../../tests/support/payments";
import { db } from "../db/client.server";
import { ownerPaymentEmail } from "./emails.server";
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
    for (let buyer = 0; buyer < 3; buyer += 1) {
      expect(await placeOrder("card")).toMatchObject({ checkout: "failed" });
    }
    expect(await keysRefusedMails()).toHaveLength(1);
    const mail = await ownerPaymentEmail({ event: "keys_refused" });
    expect(mail?.subject).toBe("Paiement par carte impossible : Stripe refuse les clés du site");
    expect(mail?.text).toContain("« Réglages › Paiement »");
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
    expect(await placeOrder("card")).toMatchObject({ checkout: "failed" });
    expect(await keysRefusedMails()).toHaveLength(before);
  });
});
