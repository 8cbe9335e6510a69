import path from "node:path";
import { z } from "zod";

const booleanFlag = z
  .enum(["0", "1", "true", "false"], { message: "doit valoir 0, 1, true ou false" })
  .transform((value) => value === "1" || value === "true");

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, message: "doit être une URL postgres://…" })
      .optional(),
    SITE_URL: z
      .url({ protocol: /^https?$/, message: "doit être une URL http(s)://…" })
      .default("http://localhost:3000")
      .transform((url) => url.replace(/\/+$/, "")),
    ADMIN_EMAIL: z.email({ message: "doit être une adresse e-mail" }).optional(),
    ADMIN_PASSWORD: z.string().min(6, "doit contenir au moins 6 caractères").optional(),
    AUTH_SECRET: z.string().min(32, "doit contenir au moins 32 caractères").optional(),
    SEED_DEMO: booleanFlag.default(true),
    SMTP_URL: z.url({ protocol: /^smtps?$/, message: "doit être une URL smtp(s)://…" }).optional(),
    SMTP_FROM: z.string().min(3).optional(),
    /** DKIM signing of outgoing mail: the domain, the DNS selector and the private key (PEM, or a file). */
    DKIM_DOMAIN: z
      .string()
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, "doit être un nom de domaine (exemple.fr)")
      .optional(),
    DKIM_SELECTOR: z
      .string()
      .regex(/^[a-z0-9._-]+$/i, "doit être un sélecteur DNS (lettres, chiffres, . _ -)")
      .optional(),
    DKIM_PRIVATE_KEY: z.string().min(1).optional(),
    /** How many e-mails this process sends per minute at most (newsletters and the rest). */
    MAIL_RATE_PER_MINUTE: z.coerce
      .number()
      .int("doit être un nombre entier")
      .min(1, "doit être au moins 1")
      .max(1_000_000)
      .default(300),
    /**
     * How many worker threads of this process prepare gallery photos (decision 0102); 0: none (another
     * app server does it).
     */
    /**
     * 1: the photographers' calendar import may ask addresses of this machine or a private network (tests
     * serve a calendar on loopback; an agenda server on the studio's own network). Default: refused.
     */
    BOOKING_CALENDAR_ALLOW_PRIVATE: z.enum(["0", "1"], "doit valoir 0 ou 1").default("0"),
    PHOTO_WORKERS: z.coerce
      .number()
      .int("doit être un nombre entier")
      .min(0, "doit être au moins 0")
      .max(4, "doit être au plus 4")
      .default(1),
    /**
     * An S3-compatible object store for every upload (decision 0100); the local disk (DATA_DIR/uploads)
     * when S3_BUCKET is unset. S3_ENDPOINT: a server other than AWS (MinIO, Scaleway, R2…).
     */
    S3_ENDPOINT: z
      .url({ protocol: /^https?$/, message: "doit être une URL http(s)://…" })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "doit être un nom de bucket (3 à 63 minuscules, chiffres, . ou -)",
      )
      .optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]+$/, "doit être une région (us-east-1, fr-par…)")
      .default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** The bucket in the path (true by default with S3_ENDPOINT) rather than in the host name. */
    S3_FORCE_PATH_STYLE: booleanFlag.optional(),
    /** Put before every key, to share a bucket: `studio/` gives `studio/media/…`. */
    S3_PREFIX: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*\/?$/,
        "doit être un chemin de minuscules, chiffres, _ . - séparés par / (studio/)",
      )
      .optional(),
    /** How long the S3 store may keep a request waiting before the site gives up and says so (503/504). */
    S3_TIMEOUT_SECONDS: z.coerce
      .number()
      .int("doit être un nombre entier de secondes")
      .min(1, "doit être au moins 1")
      .max(300, "doit être au plus 300")
      .default(10),
    /**
     * Backups (decision 0117): encrypted with this passphrase when set (keep it somewhere else than the site:
     * without it no backup can be read); daily at BACKUP_HOUR (Paris time); kept 7 days, 4 weeks, 6 months.
     */
    BACKUP_KEY: z.string().min(16, "doit contenir au moins 16 caractères").optional(),
    BACKUP_HOUR: z.coerce
      .number()
      .int("doit être une heure entière")
      .min(0, "doit être entre 0 et 23")
      .max(23, "doit être entre 0 et 23")
      .default(3),
    BACKUP_KEEP_DAILY: z.coerce.number().int().min(1, "doit être au moins 1").max(365).default(7),
    BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).max(520).default(4),
    BACKUP_KEEP_MONTHLY: z.coerce.number().int().min(0).max(240).default(6),
    /**
     * Backups off the server (decision 0118): an S3-compatible bucket (or a prefix of one) of
     * their own, not the site's S3_BUCKET: a backup written there never depends on the live store.
     */
    BACKUP_S3_ENDPOINT: z
      .url({ protocol: /^https?$/, message: "doit être une URL http(s)://…" })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    BACKUP_S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "doit être un nom de bucket (3 à 63 minuscules, chiffres, . ou -)",
      )
      .optional(),
    BACKUP_S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]+$/, "doit être une région (us-east-1, fr-par…)")
      .default("us-east-1"),
    BACKUP_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    BACKUP_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    BACKUP_S3_PREFIX: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*\/?$/,
        "doit être un chemin de minuscules, chiffres, _ . - séparés par / (sauvegardes/)",
      )
      .optional(),
    /**
     * Card payments through Stripe Checkout (decision 0163), when the owner did not enter the keys in the
     * admin. Without STRIPE_WEBHOOK_SECRET the site registers its webhook endpoint from the key and keeps
     * the secret Stripe answers.
     */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(
        /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/,
        "doit être une clé secrète Stripe (sk_live_… ou sk_test_…)",
      )
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_]+$/, "doit être un secret de webhook Stripe (whsec_…)")
      .optional(),
    /**
     * Tests only: a fake Stripe's API (and its payment page's origin), honoured with a test key only, so
     * that a live key never talks to anything but Stripe.
     */
    STRIPE_API_URL: z
      .url({ protocol: /^https?$/, message: "doit être une URL http(s)://…" })
      .optional(),
    STRIPE_CHECKOUT_ORIGIN: z
      .url({ protocol: /^https?$/, message: "doit être une URL http(s)://…" })
      .optional(),
    TRUST_PROXY: z
      .string()
      .optional()
      .describe("Express 'trust proxy' setting: a hop count, 'loopback', or a list of addresses"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .refine((env) => !env.ADMIN_EMAIL === !env.ADMIN_PASSWORD, {
    message: "ADMIN_EMAIL et ADMIN_PASSWORD vont ensemble : définissez les deux ou aucun",
    path: ["ADMIN_PASSWORD"],
  })
  .refine(
    (env) =>
      [env.DKIM_DOMAIN, env.DKIM_SELECTOR, env.DKIM_PRIVATE_KEY].every((value) => !value) ||
      [env.DKIM_DOMAIN, env.DKIM_SELECTOR, env.DKIM_PRIVATE_KEY].every(Boolean),
    {
      message: "DKIM_DOMAIN, DKIM_SELECTOR et DKIM_PRIVATE_KEY vont ensemble : les trois ou aucun",
      path: ["DKIM_PRIVATE_KEY"],
    },
  )
  .refine(
    (env) =>
      [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY].every((value) => !value) ||
      [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY].every(Boolean),
    {
      message:
        "S3_BUCKET, S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY vont ensemble : les trois ou aucun",
      path: ["S3_BUCKET"],
    },
  )
  .refine((env) => env.S3_BUCKET || (!env.S3_ENDPOINT && !env.S3_PREFIX), {
    message: "S3_ENDPOINT et S3_PREFIX ne servent qu'avec S3_BUCKET",
    path: ["S3_BUCKET"],
  })
  .refine(
    (env) =>
      [env.BACKUP_S3_BUCKET, env.BACKUP_S3_ACCESS_KEY_ID, env.BACKUP_S3_SECRET_ACCESS_KEY].every(
        (value) => !value,
      ) ||
      [env.BACKUP_S3_BUCKET, env.BACKUP_S3_ACCESS_KEY_ID, env.BACKUP_S3_SECRET_ACCESS_KEY].every(
        Boolean,
      ),
    {
      message:
        "BACKUP_S3_BUCKET, BACKUP_S3_ACCESS_KEY_ID et BACKUP_S3_SECRET_ACCESS_KEY vont ensemble : les trois ou aucun",
      path: ["BACKUP_S3_BUCKET"],
    },
  )
  .refine((env) => env.BACKUP_S3_BUCKET || (!env.BACKUP_S3_ENDPOINT && !env.BACKUP_S3_PREFIX), {
    message: "BACKUP_S3_ENDPOINT et BACKUP_S3_PREFIX ne servent qu'avec BACKUP_S3_BUCKET",
    path: ["BACKUP_S3_BUCKET"],
  })
  .refine((env) => env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET, {
    message: "STRIPE_WEBHOOK_SECRET ne sert qu'avec STRIPE_SECRET_KEY",
    path: ["STRIPE_SECRET_KEY"],
  })
  .refine((env) => !env.STRIPE_API_URL || /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY ?? ""), {
    message:
      "ne sert qu'aux tests, avec une clé de test (sk_test_…) : jamais avec une clé live ni sans clé",
    path: ["STRIPE_API_URL"],
  })
  .refine((env) => env.STRIPE_API_URL || !env.STRIPE_CHECKOUT_ORIGIN, {
    message: "STRIPE_CHECKOUT_ORIGIN ne sert qu'avec STRIPE_API_URL (tests)",
    path: ["STRIPE_CHECKOUT_ORIGIN"],
  });

export type Env = z.infer<typeof envSchema> & { dataDir: string };

export class EnvError extends Error {
  override name = "EnvError";
}

/** Reads and validates the environment; a bad value throws an error that names the variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "unset", as in most shells' `VAR= command`.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  - ${issue.path.join(".") || "environnement"} : ${issue.message}`,
    );
    throw new EnvError(`Configuration invalide :\n${lines.join("\n")}`);
  }
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR) };
}

let cached: Env | undefined;

/** The validated configuration of this process, read once. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Reads the environment again at the next `env()`: a test file that set its own. Refused outside tests. */
export function rereadEnvForTests(): void {
  if (!process.env.VITEST) throw new Error("rereadEnvForTests is for tests only");
  cached = undefined;
}
