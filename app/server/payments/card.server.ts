import { currentSiteContent, type SiteContent } from "../content/site-content.server";
import { env } from "../env.server";
import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import {
  cardKeys,
  cardKeysSummary,
  registeredWebhookSecret,
  saveCardKeys,
  saveRegisteredWebhookSecret,
} from "./payment-keys.server";
import { ProviderUnavailableError } from "./provider.server";
import type { PaymentProvider } from "./provider.server";
import {
  ensureWebhookEndpoint,
  STRIPE_WEBHOOK_PATH,
  stripeProvider,
} from "./providers/stripe.server";

/*
 * Card payments as the site runs them (decisions 0163, 0166): Stripe with the keys in force (the
 * environment's, else the owner's), and the origin its hosted page has, which our forms may lead to while
 * the owner accepts cards.
 */

/** Stripe's hosted payment page. */
const STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com";

/** The origin the buyer's browser is sent to for a card payment (the fake's page in tests). */
export function cardCheckoutOrigin(): string {
  return env().STRIPE_CHECKOUT_ORIGIN ?? STRIPE_CHECKOUT_ORIGIN;
}

/** The environment's keys, as `cardKeys` takes them. */
function environmentKeys() {
  const config = env();
  return { secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET };
}

/** Whether card payments have keys to work with (the environment's or the owner's). */
export async function hasCardKeys(): Promise<boolean> {
  return (await cardKeys(environmentKeys())) !== null;
}

/** What the settings page shows of the keys in force. */
export function cardKeysInForce() {
  return cardKeysSummary(environmentKeys());
}

let built: { signature: string; provider: PaymentProvider } | undefined;

/** Stripe with the keys in force, or null when there are none (or no webhook secret to verify with). */
export async function cardProvider(): Promise<PaymentProvider | null> {
  const keys = await cardKeys(environmentKeys());
  if (!keys?.webhookSecret) return null;
  const config = env();
  // Everything the provider is made of: the keys, and where the environment's test key points.
  const signature = [keys.secretKey, keys.webhookSecret, config.STRIPE_API_URL].join("\n");
  if (built?.signature !== signature) {
    built = {
      signature,
      provider: stripeProvider({
        secretKey: keys.secretKey,
        webhookSecret: keys.webhookSecret,
        // Only the environment's test key may point elsewhere than Stripe (env.server refuses otherwise).
        ...(config.STRIPE_SECRET_KEY === keys.secretKey && config.STRIPE_API_URL
          ? { apiUrl: config.STRIPE_API_URL, checkoutOrigin: cardCheckoutOrigin() }
          : {}),
      }),
    };
  }
  return built.provider;
}

/**
 * The origins our forms may lead to for card payments, for the Content-Security-Policy's `form-action`:
 * the hosted page's while the owner accepts cards. The same array while the site's content is the same
 * (the policy is built again only when it changes).
 */
export function cardFormActions(
  content: () => SiteContent | undefined = currentSiteContent,
): () => readonly string[] {
  let seen: SiteContent | undefined;
  let origins: readonly string[] = [];
  return () => {
    const current = content();
    if (current !== seen) {
      seen = current;
      const next = current?.documents.payments.card ? [cardCheckoutOrigin()] : [];
      if (next.join() !== origins.join()) origins = next;
    }
    return origins;
  };
}

/**
 * The card's keys the owner typed, checked with Stripe and kept: without a webhook secret, the site's
 * endpoint is registered in her Stripe account (as Ghost does) and the secret Stripe answers is kept.
 */
export async function registerOwnerCardKeys(
  keys: { secretKey: string; webhookSecret: string | null },
  options: { siteUrl: string; apiUrl?: string },
): Promise<"saved" | "refused" | "address-refused" | "unreachable"> {
  let webhookSecret = keys.webhookSecret;
  if (webhookSecret === null) {
    try {
      const endpoint = await ensureWebhookEndpoint(
        keys.secretKey,
        new URL(STRIPE_WEBHOOK_PATH, options.siteUrl).href,
        options.apiUrl,
        { secretKnown: false },
      );
      webhookSecret = endpoint.secret;
    } catch (error) {
      // A key Stripe does not know answers 401 (the provider's error carries Stripe's as its cause).
      const status = (error as { cause?: { statusCode?: number } }).cause?.statusCode;
      if (status === 401) return "refused";
      // An address Stripe cannot reach (http://, localhost): its notifications need the public site.
      return status === 400 ? "address-refused" : "unreachable";
    }
    if (webhookSecret === null) return "unreachable";
  }
  await saveCardKeys({ secretKey: keys.secretKey, webhookSecret });
  return "saved";
}

/**
 * The environment's key without STRIPE_WEBHOOK_SECRET: the site registers its endpoint in the Stripe
 * account once, whichever server starts first (a lock makes the others wait and find it), and keeps the
 * signing secret Stripe answers only then. Called at start; a failure is logged, and tried again at the
 * next start.
 */
export async function ensureEnvironmentWebhook(): Promise<"not-needed" | "known" | "registered"> {
  const config = env();
  const secretKey = config.STRIPE_SECRET_KEY;
  if (!secretKey || config.STRIPE_WEBHOOK_SECRET) return "not-needed";
  if (await registeredWebhookSecret(secretKey)) return "known";
  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('payments: webhook registration'))`);
    if (await registeredWebhookSecret(secretKey, tx)) return "known";
    const endpoint = await ensureWebhookEndpoint(
      secretKey,
      new URL(STRIPE_WEBHOOK_PATH, config.SITE_URL).href,
      config.STRIPE_API_URL,
      { secretKnown: false },
    );
    if (!endpoint.secret) {
      throw new ProviderUnavailableError("Stripe n'a pas donné le secret de signature du webhook.");
    }
    await saveRegisteredWebhookSecret(secretKey, endpoint.secret, tx);
    return "registered";
  });
}

/** `ensureEnvironmentWebhook` at start, its failure logged (card payments wait until it succeeds). */
export async function registerEnvironmentWebhookAtStart(): Promise<void> {
  try {
    const outcome = await ensureEnvironmentWebhook();
    if (outcome === "registered") log.info("stripe_webhook_registered");
  } catch (error) {
    log.error("stripe_webhook_registration_failed", { error });
  }
}
