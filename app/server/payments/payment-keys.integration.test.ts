import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { authSecret } from "../auth/auth.server";
import { db } from "../db/client.server";
import { siteDocuments } from "../db/schema";
import { cardKeys, cardKeysSummary, removeCardKeys, saveCardKeys } from "./payment-keys.server";

useAppDatabase();

const SECRET = "sk_test_51AbCdEfGhIjKlMnOpQrStUv4242";
const WEBHOOK = "whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345";

const holder = globalThis as typeof globalThis & { __studioAuthSecret?: Promise<string> };

afterEach(() => {
  holder.__studioAuthSecret = undefined;
});

describe("the card provider's keys", () => {
  it("are stored encrypted and read back", async () => {
    await saveCardKeys({ secretKey: SECRET, webhookSecret: WEBHOOK });
    const [row] = await db()
      .select({ data: siteDocuments.data })
      .from(siteDocuments)
      .where(eq(siteDocuments.key, "payment-keys"));
    const stored = JSON.stringify(row?.data);
    expect(stored).not.toContain("4242");
    expect(stored).not.toContain("sk_test");
    expect(stored).not.toContain("whsec_");
    expect(await cardKeys()).toMatchObject({ secretKey: SECRET, webhookSecret: WEBHOOK });
  });

  it("are shown by their mode and last four characters only", async () => {
    await saveCardKeys({ secretKey: SECRET, webhookSecret: null });
    expect(await cardKeysSummary()).toMatchObject({
      state: "set",
      source: "admin",
      mode: "test",
      hint: "sk_test_…4242",
      webhookSecret: false,
    });
  });

  it("cannot be read by a server with another secret: the page asks for them again", async () => {
    await authSecret();
    await saveCardKeys({ secretKey: SECRET, webhookSecret: WEBHOOK });
    holder.__studioAuthSecret = Promise.resolve("another server's secret, 32 characters or more");
    expect(await cardKeys()).toBeNull();
    expect(await cardKeysSummary()).toEqual({ state: "unreadable" });
  });

  it("give way to the environment's, and can be removed", async () => {
    await saveCardKeys({ secretKey: SECRET, webhookSecret: WEBHOOK });
    const live = "sk_live_51ZyXwVuTsRqPoNmLkJi9999";
    expect(await cardKeys({ secretKey: live })).toMatchObject({
      secretKey: live,
      webhookSecret: null,
    });
    expect(await cardKeysSummary({ secretKey: live })).toMatchObject({
      source: "environment",
      mode: "live",
      hint: "sk_live_…9999",
    });
    await removeCardKeys();
    expect(await cardKeys()).toBeNull();
    expect(await cardKeysSummary()).toEqual({ state: "none" });
  });

  it("refuse what is not a Stripe key", async () => {
    await expect(
      saveCardKeys({ secretKey: "pk_test_123456789012", webhookSecret: null }),
    ).rejects.toThrow(RangeError);
    await expect(saveCardKeys({ secretKey: SECRET, webhookSecret: "secret" })).rejects.toThrow(
      RangeError,
    );
  });
});
