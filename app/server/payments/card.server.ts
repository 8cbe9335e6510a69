import { currentSiteContent, type SiteContent } from "../content/site-content.server";
import { env } from "../env.server";
import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import {
  cardKeys,
  cardKeysSummary,
  PAYMENT_KEYS_ROW,
  recordSecretKeyRefused,
  registeredWebhookSecret,
  removeCardKeys,
  saveCardKeys,
  saveRegisteredWebhookSecret,
} from "./payment-keys.server";
import type { Tx } from "./journal.server";
import { ProviderUnavailableError } from "./provider.server";
import type { PaymentProvider } from "./provider.server";
import {
  ensureWebhookEndpoint,
  keyRefusedByStripe,
  STRIPE_WEBHOOK_PATH,
  stripeProvider,
} from "./providers/stripe.server";

/*
 * Card payments as the site runs them (decisions 0163, 0166): Stripe with the keys in force (the
 * environment's, else the owner's), and the origin its hosted page has, which our forms may lead to while
 * there are keys. The owner's keys are removed or replaced only when no card payment is under way.
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

/**
 * The card provider refused the keys in force: recorded for the settings page (the owner's e-mail says
 * the same, at most once a day).
 */
export async function recordKeysInForceRefused(): Promise<void> {
  const keys = await cardKeys(environmentKeys());
  if (keys) await recordSecretKeyRefused(keys.secretKey);
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
 * the hosted page's while there are keys (the environment's, or the owner's row), not only while the
 * owner accepts cards: an order placed by card before she turned them off is still paid on that page. The
 * same array while the site's content is the same (the policy is built again only when it changes).
 */
export function cardFormActions(
  content: () => SiteContent | undefined = currentSiteContent,
  environmentKey: () => boolean = () => Boolean(env().STRIPE_SECRET_KEY),
): () => readonly string[] {
  let seen: SiteContent | undefined;
  let origins: readonly string[] = [];
  return () => {
    const current = content();
    if (current !== seen) {
      seen = current;
      const keys =
        environmentKey() ||
        current?.otherRows.has(PAYMENT_KEYS_ROW) ||
        current?.documents.payments.card;
      const next = keys ? [cardCheckoutOrigin()] : [];
      if (next.join() !== origins.join()) origins = next;
    }
    return origins;
  };
}

/**
 * Card payments the keys in force are still needed for: orders by card awaiting payment and checkouts
 * still open (the buyer may pay on Stripe's page until it is closed), and card refunds Stripe has not
 * settled. `until`: the latest end of those payments (a refund's is Stripe's).
 */
export type CardPaymentsUnderway = { payments: number; refunds: number; until: Date | null };

async function cardPaymentsUnderway(
  database: Pick<ReturnType<typeof db>, "execute">,
): Promise<CardPaymentsUnderway | null> {
  const result = await database.execute<{
    payments: number;
    refunds: number;
    until: string | null;
  }>(sql`
    select
      (select count(*) from orders o
        where (o.status = 'awaiting_payment' and o.method = 'card')
          or exists (select 1 from payment_attempts a
            where a.order_id = o.id and a.provider = 'stripe' and a.status = 'open'))::int as payments,
      (select count(*) from refunds r join payment_attempts a on a.id = r.attempt_id
        where a.provider = 'stripe' and r.status = 'pending')::int as refunds,
      (select max(ends.at) from (
        select pay_by as at from orders where status = 'awaiting_payment' and method = 'card'
        union all
        select expires_at from payment_attempts where provider = 'stripe' and status = 'open'
      ) ends)::text as until`);
  const row = result.rows[0];
  if (!row || (row.payments === 0 && row.refunds === 0)) return null;
  return {
    payments: row.payments,
    refunds: row.refunds,
    until: row.until === null ? null : new Date(row.until),
  };
}

/**
 * Whether the owner's keys are the ones payments run with (not the environment's, and readable here):
 * only then does removing or replacing them take the provider away from a payment under way.
 */
async function ownerKeysInForce(): Promise<{ secretKey: string } | null> {
  if (env().STRIPE_SECRET_KEY) return null;
  return cardKeys();
}

/**
 * Runs `change` (the owner's keys removed or replaced) in a transaction that holds back new attempts and
 * refunds (a SHARE lock on their tables) while it checks that none is under way: one opened after the
 * check asks for its checkout after the commit, with the keys as they are then.
 */
async function changeOwnerKeysUnlessUnderway(
  change: (tx: Tx) => Promise<void>,
): Promise<CardPaymentsUnderway | null> {
  return db().transaction(async (tx) => {
    await tx.execute(sql`lock table payment_attempts, refunds in share mode`);
    const underway = await cardPaymentsUnderway(tx);
    if (underway) return underway;
    await change(tx);
    return null;
  });
}

/**
 * The owner's « Retirer les clés »: refused while card payments are under way with them (a checkout
 * paid after the removal would be known to no one: its webhook answered 404, its attempt never closed).
 */
export async function removeOwnerCardKeys(): Promise<"removed" | CardPaymentsUnderway> {
  if (!(await ownerKeysInForce())) {
    await removeCardKeys();
    return "removed";
  }
  return (await changeOwnerKeysUnlessUnderway((tx) => removeCardKeys(tx))) ?? "removed";
}

/**
 * The card's keys the owner typed, checked with Stripe and kept: without a webhook secret, the site's
 * endpoint is registered in her Stripe account (as Ghost does) and the secret Stripe answers is kept.
 * Another secret key than the one in force (another account, or live after test, whose Stripe does not
 * know the open checkouts) is refused while card payments are under way.
 */
export async function registerOwnerCardKeys(
  keys: { secretKey: string; webhookSecret: string | null },
  options: { siteUrl: string; apiUrl?: string },
): Promise<"saved" | "refused" | "address-refused" | "unreachable" | CardPaymentsUnderway> {
  const inForce = await ownerKeysInForce();
  let guarded = inForce !== null && inForce.secretKey !== keys.secretKey;
  if (inForce && guarded) {
    const underway = await cardPaymentsUnderway(db());
    if (underway) {
      // A key Stripe refuses (rolled or revoked) can follow none of them: it is replaced whatever is under
      // way, else card payments would stay dead until they end (and a refund Stripe never saw, never).
      if (!(await keyRefusedByStripe(inForce.secretKey, options.apiUrl))) return underway;
      guarded = false;
    }
  }
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
  const saved = { secretKey: keys.secretKey, webhookSecret };
  if (!guarded) {
    await saveCardKeys(saved);
    return "saved";
  }
  return (await changeOwnerKeysUnlessUnderway((tx) => saveCardKeys(saved, tx))) ?? "saved";
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
