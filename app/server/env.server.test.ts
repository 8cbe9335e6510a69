import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";
import { backupS3SettingsOf } from "./backup/destination.server";

describe("parseEnv", () => {
  it("applies the contract's defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.DATA_DIR).toBe("./data");
    expect(env.dataDir).toMatch(/\/data$/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SEED_DEMO).toBe(true);
  });

  it("names the variable of a bad value", () => {
    expect(() => parseEnv({ PORT: "quatre" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ SITE_URL: "pas une url" })).toThrow(/SITE_URL/);
    expect(() => parseEnv({ EMBEDDED_PG_PORT: "-1" })).toThrow(/EMBEDDED_PG_PORT/);
    expect(() => parseEnv({ SEED_DEMO: "peut-être" })).toThrow(/SEED_DEMO/);
  });

  it("wants ADMIN_EMAIL and ADMIN_PASSWORD together", () => {
    expect(() => parseEnv({ ADMIN_EMAIL: "admin@example.com" })).toThrow(/ADMIN_PASSWORD/);
    expect(() => parseEnv({ ADMIN_EMAIL: "pas-un-email", ADMIN_PASSWORD: "secret123" })).toThrow(
      /ADMIN_EMAIL/,
    );
    const env = parseEnv({ ADMIN_EMAIL: "admin@example.com", ADMIN_PASSWORD: "secret123" });
    expect(env.ADMIN_EMAIL).toBe("admin@example.com");
  });

  it("wants the three DKIM settings together, and a whole pace of e-mails", () => {
    expect(() => parseEnv({ DKIM_DOMAIN: "studio.fr", DKIM_SELECTOR: "mail" })).toThrow(
      /DKIM_PRIVATE_KEY/,
    );
    expect(() => parseEnv({ DKIM_DOMAIN: "pas un domaine" })).toThrow(/DKIM_DOMAIN/);
    expect(() => parseEnv({ MAIL_RATE_PER_MINUTE: "0" })).toThrow(/MAIL_RATE_PER_MINUTE/);
    expect(() => parseEnv({ MAIL_RATE_PER_MINUTE: "2,5" })).toThrow(/MAIL_RATE_PER_MINUTE/);
    const env = parseEnv({
      DKIM_DOMAIN: "studio.fr",
      DKIM_SELECTOR: "mail2026",
      DKIM_PRIVATE_KEY: "/etc/dkim/studio.pem",
      MAIL_RATE_PER_MINUTE: "120",
    });
    expect(env.DKIM_SELECTOR).toBe("mail2026");
    expect(env.MAIL_RATE_PER_MINUTE).toBe(120);
    expect(parseEnv({}).MAIL_RATE_PER_MINUTE).toBe(300);
  });

  it("takes Stripe's keys, and a fake Stripe's address only with a test key", () => {
    const env = parseEnv({
      STRIPE_SECRET_KEY: "sk_live_51AbCdEf",
      STRIPE_WEBHOOK_SECRET: "whsec_abc123",
    });
    expect(env.STRIPE_SECRET_KEY).toBe("sk_live_51AbCdEf");
    expect(env.STRIPE_WEBHOOK_SECRET).toBe("whsec_abc123");
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "pk_live_51AbCdEf" })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => parseEnv({ STRIPE_WEBHOOK_SECRET: "whsec_abc123" })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() =>
      parseEnv({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "secret" }),
    ).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() =>
      parseEnv({ STRIPE_SECRET_KEY: "sk_live_1", STRIPE_API_URL: "http://127.0.0.1:4000" }),
    ).toThrow(/STRIPE_API_URL : ne sert qu'aux tests/);
    expect(() => parseEnv({ STRIPE_API_URL: "http://127.0.0.1:4000" })).toThrow(/STRIPE_API_URL/);
    expect(() =>
      parseEnv({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_CHECKOUT_ORIGIN: "http://127.0.0.1:4001" }),
    ).toThrow(/STRIPE_CHECKOUT_ORIGIN/);
    const test = parseEnv({
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_API_URL: "http://127.0.0.1:4000",
      STRIPE_CHECKOUT_ORIGIN: "http://127.0.0.1:4001",
    });
    expect(test.STRIPE_API_URL).toBe("http://127.0.0.1:4000");
    expect(test.STRIPE_CHECKOUT_ORIGIN).toBe("http://127.0.0.1:4001");
  });

  it("treats empty values as unset and strips the trailing slash of SITE_URL", () => {
    const env = parseEnv({ PORT: "", SITE_URL: "https://studio.example.com/" });
    expect(env.PORT).toBe(3000);
    expect(env.SITE_URL).toBe("https://studio.example.com");
  });

  it("accepts a postgres connection string", () => {
    const env = parseEnv({ DATABASE_URL: "postgresql://user:pw@db.example.com:5432/studio" });
    expect(env.DATABASE_URL).toContain("db.example.com");
  });

  it("wants an S3 bucket with its two keys, and reads the store's settings", () => {
    expect(parseEnv({}).S3_BUCKET).toBeUndefined();
    expect(() => parseEnv({ S3_BUCKET: "photos-studio" })).toThrow(
      /S3_BUCKET, S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY vont ensemble/,
    );
    expect(() => parseEnv({ S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" })).toThrow(
      /vont ensemble/,
    );
    expect(() => parseEnv({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(
      /ne servent qu'avec S3_BUCKET/,
    );
    const keys = { S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };
    expect(() => parseEnv({ ...keys, S3_BUCKET: "B" })).toThrow(/S3_BUCKET : doit être un nom/);
    expect(() => parseEnv({ ...keys, S3_BUCKET: "photos", S3_ENDPOINT: "ftp://x" })).toThrow(
      /S3_ENDPOINT/,
    );
    expect(() => parseEnv({ ...keys, S3_BUCKET: "photos", S3_PREFIX: "../x" })).toThrow(
      /S3_PREFIX/,
    );
    expect(() => parseEnv({ ...keys, S3_BUCKET: "photos", S3_FORCE_PATH_STYLE: "oui" })).toThrow(
      /S3_FORCE_PATH_STYLE/,
    );
    const env = parseEnv({
      ...keys,
      S3_BUCKET: "photos-studio",
      S3_ENDPOINT: "https://s3.fr-par.scw.cloud/",
      S3_PREFIX: "studio/",
      S3_FORCE_PATH_STYLE: "0",
    });
    expect(env).toMatchObject({
      S3_BUCKET: "photos-studio",
      S3_ENDPOINT: "https://s3.fr-par.scw.cloud",
      S3_REGION: "us-east-1",
      S3_PREFIX: "studio/",
      S3_FORCE_PATH_STYLE: false,
    });
  });

  it("wants the backups' bucket with its two keys, and reads where they go (decision 0118)", () => {
    expect(backupS3SettingsOf(parseEnv({}))).toBeUndefined();
    expect(() => parseEnv({ BACKUP_S3_BUCKET: "sauvegardes-studio" })).toThrow(
      /BACKUP_S3_BUCKET, BACKUP_S3_ACCESS_KEY_ID et BACKUP_S3_SECRET_ACCESS_KEY vont ensemble/,
    );
    expect(() => parseEnv({ BACKUP_S3_PREFIX: "sauvegardes/" })).toThrow(
      /ne servent qu'avec BACKUP_S3_BUCKET/,
    );
    const keys = { BACKUP_S3_ACCESS_KEY_ID: "id", BACKUP_S3_SECRET_ACCESS_KEY: "secret" };
    expect(() => parseEnv({ ...keys, BACKUP_S3_BUCKET: "B" })).toThrow(/BACKUP_S3_BUCKET : /);
    expect(() =>
      parseEnv({ ...keys, BACKUP_S3_BUCKET: "sauvegardes", BACKUP_S3_PREFIX: "../x" }),
    ).toThrow(/BACKUP_S3_PREFIX/);
    const env = parseEnv({
      ...keys,
      BACKUP_S3_BUCKET: "sauvegardes-studio",
      BACKUP_S3_ENDPOINT: "https://s3.fr-par.scw.cloud/",
      BACKUP_S3_REGION: "fr-par",
      BACKUP_S3_PREFIX: "studio/",
    });
    expect(backupS3SettingsOf(env)).toMatchObject({
      bucket: "sauvegardes-studio",
      endpoint: "https://s3.fr-par.scw.cloud",
      region: "fr-par",
      prefix: "studio/",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: true,
    });
    // The site's own bucket is another thing: its variables do not make backups go there.
    expect(
      backupS3SettingsOf(
        parseEnv({ S3_BUCKET: "photos", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" }),
      ),
    ).toBeUndefined();
  });
});
