import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { Documents } from "../../app/content/schemas";
import { siteDocuments } from "../../app/server/db/schema";
import { useDocumentsRestored } from "./admin-content";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "./fake-stripe";
import { useOwnServerWithMail } from "./own-server";
import { serverDatabase } from "./server-under-test";

/**
 * A server of the test file's own that sells vouchers by card through a fake Stripe (the http files that
 * pay on Stripe's page, JavaScript off): the fake, started before the server that points at it, the
 * e-mails the server sent, and its payment settings (and, with `legal`, the seller's details) restored
 * after the file (`original`: as they were before it).
 */
export function useCardVoucherShop(
  secretKey: string,
  options: { legal?: Documents["legal"] } = {},
) {
  let fake: FakeStripe | undefined;
  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const stripe = () => {
    if (!fake) throw new Error("fake Stripe not started");
    return fake;
  };
  const mail = useOwnServerWithMail(() => siteStripeEnv(stripe()));
  const original = useDocumentsRestored(["payments", "legal"] as const);
  beforeAll(async () => {
    const database = serverDatabase();
    await database
      .update(siteDocuments)
      .set({ data: { ...original("payments"), vouchersOnSale: true, card: true } })
      .where(eq(siteDocuments.key, "payments"));
    if (options.legal) {
      await database
        .update(siteDocuments)
        .set({ data: options.legal })
        .where(eq(siteDocuments.key, "legal"));
    }
  });
  return { stripe, original, ...mail };
}
