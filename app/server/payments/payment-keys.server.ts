import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { authSecret } from "../auth/auth.server";
import { db } from "../db/client.server";
import { siteDocuments } from "../db/schema";

/*
 * The card provider's keys the owner enters on /admin/reglages/paiement (decision 0162): kept in the
 * database encrypted (AES-256-GCM) with a key derived from the server's secret (HKDF), never in a
 * revision, a log or a page. A backup restored on a server with another secret cannot read them: the page
 * then asks for them again. The environment's STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET, when set, win.
 */

/** The row of `site_documents` that holds them (not a document of the site's content). */
export const PAYMENT_KEYS_ROW = "payment-keys";
const ROW = PAYMENT_KEYS_ROW;
/** The signing secret Stripe gave when the site registered its endpoint for the environment's key. */
const REGISTERED_ROW = "payment-webhook-registered";
const ASSOCIATED = Buffer.from("studio payment keys v1");
/**
 * The secret key the card provider last refused (revoked or rolled in its dashboard), by its digest only,
 * and since when: the settings page says so while that key is still the one in force.
 */
const REFUSED_ROW = "payment-key-refused";

type Sealed = { iv: string; tag: string; data: string };
type StoredKeys = { secretKey: Sealed; webhookSecret: Sealed | null; savedAt: string };

export type CardKeys = { secretKey: string; webhookSecret: string | null; savedAt: Date | null };

/** What the page may show of the keys: never the keys themselves. */
export type CardKeysSummary =
  | { state: "none" }
  | { state: "unreadable" }
  | {
      state: "set";
      source: "environment" | "admin";
      mode: "test" | "live";
      /** « sk_test_…4242 ». */
      hint: string;
      webhookSecret: boolean;
      savedAt: Date | null;
      /** When the card provider first refused this key (the owner was e-mailed); null while it takes it. */
      refusedAt: Date | null;
    };

/** A secret key of Stripe: standard (`sk_`) or restricted (`rk_`), test or live. */
export const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,247}$/;
/** A webhook endpoint's signing secret. */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{10,200}$/;

async function encryptionKey(): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await authSecret(), "", "studio payment keys", 32));
}

function seal(key: Buffer, text: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(ASSOCIATED);
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return {
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
}

function open(key: Buffer, sealed: Sealed): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"));
  decipher.setAAD(ASSOCIATED);
  decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.data, "base64")),
    decipher.final(),
  ]).toString("utf8");
}

async function storedKeys(): Promise<StoredKeys | null> {
  const [row] = await db()
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, ROW));
  return (row?.data as StoredKeys | undefined) ?? null;
}

/** Keeps the owner's keys, encrypted; `webhookSecret` null keeps none (the endpoint registers itself). */
export async function saveCardKeys(
  keys: { secretKey: string; webhookSecret: string | null },
  database: Pick<ReturnType<typeof db>, "insert"> = db(),
) {
  if (!SECRET_KEY.test(keys.secretKey)) throw new RangeError("not a Stripe secret key");
  if (keys.webhookSecret !== null && !WEBHOOK_SECRET.test(keys.webhookSecret)) {
    throw new RangeError("not a webhook signing secret");
  }
  const key = await encryptionKey();
  const data: StoredKeys = {
    secretKey: seal(key, keys.secretKey),
    webhookSecret: keys.webhookSecret === null ? null : seal(key, keys.webhookSecret),
    savedAt: new Date().toISOString(),
  };
  await database
    .insert(siteDocuments)
    .values({ key: ROW, data })
    .onConflictDoUpdate({ target: siteDocuments.key, set: { data } });
}

/** Forgets the owner's keys. */
export async function removeCardKeys(
  database: Pick<ReturnType<typeof db>, "delete"> = db(),
): Promise<void> {
  await database.delete(siteDocuments).where(eq(siteDocuments.key, ROW));
}

/** The owner's keys as stored (null when none, or when this server's secret cannot read them). */
async function adminKeys(): Promise<CardKeys | "unreadable" | null> {
  const stored = await storedKeys();
  if (!stored) return null;
  try {
    const key = await encryptionKey();
    return {
      secretKey: open(key, stored.secretKey),
      webhookSecret: stored.webhookSecret ? open(key, stored.webhookSecret) : null,
      savedAt: new Date(stored.savedAt),
    };
  } catch {
    return "unreadable";
  }
}

type RegisteredSecret = { keyHash: string; secret: Sealed };

const keyHash = (secretKey: string) => createHash("sha256").update(secretKey).digest("hex");

/**
 * The signing secret of the endpoint the site registered for `secretKey` (the environment's key without
 * STRIPE_WEBHOOK_SECRET), or null: none registered for this key, or unreadable here.
 */
export async function registeredWebhookSecret(
  secretKey: string,
  database: Pick<ReturnType<typeof db>, "select"> = db(),
): Promise<string | null> {
  const [row] = await database
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, REGISTERED_ROW));
  const stored = row?.data as RegisteredSecret | undefined;
  if (!stored || stored.keyHash !== keyHash(secretKey)) return null;
  try {
    return open(await encryptionKey(), stored.secret);
  } catch {
    return null;
  }
}

/** Keeps the signing secret Stripe answered when the site registered its endpoint for `secretKey`. */
export async function saveRegisteredWebhookSecret(
  secretKey: string,
  secret: string,
  database: Pick<ReturnType<typeof db>, "insert"> = db(),
): Promise<void> {
  const data: RegisteredSecret = {
    keyHash: keyHash(secretKey),
    secret: seal(await encryptionKey(), secret),
  };
  await database
    .insert(siteDocuments)
    .values({ key: REGISTERED_ROW, data })
    .onConflictDoUpdate({ target: siteDocuments.key, set: { data } });
}

/** The keys in force: the environment's, else the owner's; null when none can be used. */
export async function cardKeys(
  environment: { secretKey?: string | undefined; webhookSecret?: string | undefined } = {},
): Promise<CardKeys | null> {
  if (environment.secretKey) {
    return {
      secretKey: environment.secretKey,
      webhookSecret:
        environment.webhookSecret ?? (await registeredWebhookSecret(environment.secretKey)),
      savedAt: null,
    };
  }
  const keys = await adminKeys();
  return keys === "unreadable" ? null : keys;
}

const digestOf = (secretKey: string) => createHash("sha256").update(secretKey).digest("hex");

/** Records that the card provider refused `secretKey`, from `at`; a key already recorded keeps its time. */
export async function recordSecretKeyRefused(secretKey: string, at = new Date()): Promise<void> {
  const digest = digestOf(secretKey);
  if ((await refusedAt(secretKey)) !== null) return;
  const data = { digest, at: at.toISOString() };
  await db()
    .insert(siteDocuments)
    .values({ key: REFUSED_ROW, data })
    .onConflictDoUpdate({ target: siteDocuments.key, set: { data } });
}

/** When the card provider refused `secretKey`, or null (never, or another key was refused). */
async function refusedAt(secretKey: string): Promise<Date | null> {
  const [row] = await db()
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, REFUSED_ROW));
  const data = row?.data as { digest?: unknown; at?: unknown } | undefined;
  return data?.digest === digestOf(secretKey) && typeof data.at === "string"
    ? new Date(data.at)
    : null;
}

/** What the settings page shows of the keys in force. */
export async function cardKeysSummary(
  environment: { secretKey?: string | undefined; webhookSecret?: string | undefined } = {},
): Promise<CardKeysSummary> {
  const keys = environment.secretKey ? await cardKeys(environment) : await adminKeys();
  if (keys === null) return { state: "none" };
  if (keys === "unreadable") return { state: "unreadable" };
  const mode = SECRET_KEY.exec(keys.secretKey)?.[2];
  return {
    state: "set",
    source: environment.secretKey ? "environment" : "admin",
    mode: mode === "live" ? "live" : "test",
    hint: `${keys.secretKey.slice(0, keys.secretKey.indexOf("_", 3) + 1)}…${keys.secretKey.slice(-4)}`,
    webhookSecret: keys.webhookSecret !== null,
    savedAt: keys.savedAt,
    refusedAt: await refusedAt(keys.secretKey),
  };
}
