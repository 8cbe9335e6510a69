import { createWriteStream, readdirSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { craftArchive } from "../../../tests/support/backup-archives";
import { useAppDatabase } from "../../../tests/support/database";
import { startS3Server, type S3Server } from "../../../tests/support/s3-server";
import { db } from "../db/client.server";
import { backupRuns, blogArticles } from "../db/schema";
import {
  localStorageOf,
  resetStorageForTests,
  useStorageForTests,
} from "../storage/storage.server";
import { createBackup } from "./backup.server";
import { backupsPage } from "../../routes/admin/sauvegardes/index.server";
import { env } from "../env.server";
import { StorageUnavailableError } from "../storage/types";
import { backupS3SettingsOf, partSizeFor } from "./destination.server";
import { verifyBackup } from "./restore.server";
import {
  applyRetention,
  backupSettings,
  type BackupSettings,
  backUpNow,
  destinationOf,
  listBackups,
  readBackup,
  restoreFromCommandLine,
  runCheck,
  runRestore,
} from "./service.server";

/*
 * The backups' destination (decision 0118) the same way on this server's folder and on an S3 bucket of
 * their own (s3rver on loopback): a backup listed where it went (and nothing left in the local folder with
 * S3), the retention deleting there, the download streaming the archive itself, and a check and a restore
 * reading it from there (a temporary copy, removed afterwards).
 */

useAppDatabase({ jobs: true });

const KEY = "une phrase de passe de test assez longue";

type Destination = { kind: "local" | "s3"; settings: (directory: string) => BackupSettings };

let s3: S3Server | undefined;
const destinations: Destination[] = [
  {
    kind: "local",
    settings: (directory) => ({ ...backupSettings(), directory, s3: undefined }),
  },
  {
    kind: "s3",
    settings: (directory) => {
      if (!s3) throw new Error("s3rver not started");
      return {
        ...backupSettings(),
        directory,
        key: KEY,
        s3: {
          endpoint: s3.env.S3_ENDPOINT,
          bucket: s3.env.S3_BUCKET,
          region: s3.env.S3_REGION,
          accessKeyId: s3.env.S3_ACCESS_KEY_ID,
          secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: true,
          prefix: "sauvegardes/",
        },
      };
    },
  },
];

let dataDir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dataDir = await mkdtemp(path.join(os.tmpdir(), "backup-destination-"));
  useStorageForTests(localStorageOf(dataDir));
}, 60_000);
afterAll(async () => {
  resetStorageForTests();
  await s3?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** A run of the page, recorded as the page records it (waiting), then read back by `run`. */
async function queuedRun(kind: "check" | "restore", file: string): Promise<string> {
  const [row] = await db()
    .insert(backupRuns)
    .values({ kind, reason: "manual", status: "queued", file })
    .returning({ id: backupRuns.id });
  if (!row) throw new Error("run not recorded");
  return row.id;
}

async function run(id: string) {
  const [row] = await db().select().from(backupRuns).where(eq(backupRuns.id, id));
  return row;
}

async function articleTitled(title: string) {
  const [row] = await db().select().from(blogArticles).where(eq(blogArticles.title, title));
  return row ?? null;
}

describe.each(destinations)("backups kept on $kind", ({ kind, settings: settingsOf }) => {
  let directory: string;
  let settings: BackupSettings;
  beforeAll(async () => {
    directory = path.join(dataDir, `backups-${kind}`);
    settings = settingsOf(directory);
  });

  it("lists a new backup there, downloads it as the archive itself, and leaves no local copy with S3", async () => {
    const result = await backUpNow(settings);
    const listed = await listBackups(settings);
    expect(listed.map((file) => file.name)).toEqual([result.name]);
    expect(listed[0]).toMatchObject({ size: result.size, encrypted: kind === "s3" });
    const local = (await readdir(directory)).filter((name) => name.startsWith("sauvegarde-"));
    expect(local).toEqual(kind === "s3" ? [] : [result.name]);

    const download = await readBackup(result.name, settings);
    expect(download?.size).toBe(result.size);
    const copy = path.join(dataDir, `telechargee-${kind}.tar`);
    if (!download) throw new Error("no download");
    await pipeline(download.body, createWriteStream(copy));
    const manifest = await verifyBackup(copy, settings.key);
    expect(manifest.tables.length).toBe(result.manifest.tables.length);

    expect(await readBackup("../secrets.json", settings)).toBeNull();
    expect(await readBackup("sauvegarde-2001-01-01-000000.tar", settings)).toBeNull();
  });

  it("deletes there what the retention no longer keeps, newest kept", async () => {
    const destination = destinationOf(settings);
    // Ten older archives, one a day (their content does not matter to the retention).
    for (let day = 1; day <= 10; day += 1) {
      const name = `sauvegarde-2026-01-${String(day).padStart(2, "0")}-030000.tar`;
      await writeFile(path.join(directory, name), `archive ${day}`);
      await destination.keep(path.join(directory, name));
    }
    const before = await listBackups(settings);
    expect(before).toHaveLength(11);
    const removed = await applyRetention({
      ...settings,
      retention: { daily: 3, weekly: 0, monthly: 0 },
    });
    expect(removed).toHaveLength(8);
    const after = (await listBackups(settings)).map((file) => file.name);
    expect(after).toEqual(before.slice(0, 3).map((file) => file.name));
  });

  it("checks a backup from there and restores it over the site, a safety backup taken first", async () => {
    const title = `Article d'avant ${kind}`;
    const later = `Article d'après ${kind}`;
    await db()
      .insert(blogArticles)
      .values({ title, slug: `avant-${kind}`, excerpt: "", content: "<p>a</p>", author: "C" });
    const backup = await backUpNow(settings);
    await db()
      .insert(blogArticles)
      .values({
        title: later,
        slug: `apres-${kind}`,
        excerpt: "",
        content: "<p>b</p>",
        author: "C",
      });

    const check = await queuedRun("check", backup.name);
    await runCheck(check, settings);
    const checked = await run(check);
    expect(checked).toMatchObject({ status: "done", error: null });
    expect(checked?.report).toMatchObject({
      tables: backup.manifest.tables.length,
      encrypted: kind === "s3",
      migrations: backup.manifest.migrations,
    });
    expect(await articleTitled(later)).not.toBeNull();

    const restore = await queuedRun("restore", backup.name);
    await runRestore(restore, settings);
    const restored = await run(restore);
    expect(restored).toMatchObject({ status: "done", error: null });
    expect(await articleTitled(title)).not.toBeNull();
    expect(await articleTitled(later)).toBeNull();
    // The site as it was just before is a backup of its own, kept at the same destination.
    const safety = restored?.report?.safetyBackup;
    expect(safety).toBeTruthy();
    expect((await listBackups(settings)).map((file) => file.name)).toContain(safety);
    // No copy left behind by the check or the restore.
    expect(await readdir(path.join(directory, ".partial-copies")).catch(() => [])).toEqual([]);
  });

  it("tells the owner in French when the archive is gone", async () => {
    const check = await queuedRun("check", "sauvegarde-2001-01-01-000000.tar");
    await runCheck(check, settings);
    const failed = await run(check);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed?.error).toContain("n'existe plus");
  });

  it("keeps the backups for the site's user alone: the folder 0700, archives and temporary files 0600", async () => {
    // A folder an earlier version made world-readable.
    await mkdir(directory, { recursive: true });
    await chmod(directory, 0o755);
    const modes = (file: string) => statSync(file).mode & 0o777;
    const during: number[] = [];
    const result = await backUpNow(settings, () => {
      if (during.length > 0) return;
      // The archive under way, seen by the backup's own progress.
      const work = readdirSync(directory).find(
        (name) => name.startsWith(".partial-") && name !== ".partial-copies",
      );
      if (!work) throw new Error("no backup under way");
      during.push(modes(path.join(directory, work)), modes(path.join(directory, work, "archive")));
    });
    expect(during).toEqual([0o700, 0o600]);
    expect(modes(directory)).toBe(0o700);
    if (kind === "local") expect(modes(path.join(directory, result.name))).toBe(0o600);
    const copied = await destinationOf(settings).withLocalFile(result.name, async (file) => [
      modes(path.dirname(file)),
      modes(file),
    ]);
    expect(copied?.value).toEqual([0o700, 0o600]);
    await destinationOf(settings).remove([result.name]);
  });

  it("with BACKUP_KEY, tells « chiffrée » by the content and refuses a plain archive in French", async () => {
    const keyed = { ...settings, key: KEY };
    const title = `Article après la sauvegarde en clair ${kind}`;
    // A plain archive (another site's, or made before the key), named as an encrypted one.
    const plain = await createBackup({
      pool: db().$client,
      storage: localStorageOf(dataDir),
      directory: path.join(dataDir, `en-clair-${kind}`),
    });
    const disguised = path.join(directory, "sauvegarde-2001-02-03-040506.tar.enc");
    await rename(plain.file, disguised);
    await destinationOf(keyed).keep(disguised);
    const sealed = await backUpNow(keyed);
    const listed = await listBackups(keyed);
    expect(
      listed.find((file) => file.name === "sauvegarde-2001-02-03-040506.tar.enc"),
    ).toMatchObject({ encrypted: false });
    expect(listed.find((file) => file.name === sealed.name)).toMatchObject({ encrypted: true });
    await db()
      .insert(blogArticles)
      .values({ title, slug: `clair-${kind}`, excerpt: "", content: "<p>c</p>", author: "C" });

    const refused =
      "Cette sauvegarde n'est pas chiffrée, alors que ce site chiffre les siennes (BACKUP_KEY) : rien ne prouve qu'elle vienne de lui, elle n'est pas restaurée.";
    for (const [operation, runIt] of [
      ["check", runCheck],
      ["restore", runRestore],
    ] as const) {
      const id = await queuedRun(operation, "sauvegarde-2001-02-03-040506.tar.enc");
      await runIt(id, keyed);
      expect(await run(id)).toMatchObject({ status: "failed", error: refused.replace(/\.$/, "") });
    }
    expect(await articleTitled(title)).not.toBeNull();

    // The command line's --accepter-non-chiffree: knowingly restored.
    const restored = await restoreFromCommandLine("sauvegarde-2001-02-03-040506.tar.enc", {
      settings: keyed,
      safety: false,
      acceptUnencrypted: true,
    });
    expect(restored?.tables).toBe(plain.manifest.tables.length);
    expect(await articleTitled(title)).toBeNull();
    await destinationOf(keyed).remove(["sauvegarde-2001-02-03-040506.tar.enc", sealed.name]);
  });
});

describe("a restore from the page", () => {
  it("checks the archive before its safety backup, and says in French why it failed", async () => {
    const settings = {
      ...backupSettings(),
      directory: path.join(dataDir, "backups-checked-first"),
      s3: undefined,
      key: undefined,
    };
    await db()
      .insert(blogArticles)
      .values({ title: "Gardé", slug: "garde", excerpt: "", content: "<p>g</p>", author: "C" });
    const good = await backUpNow(settings);
    const from = path.join(settings.directory, good.name);
    const newer = "sauvegarde-2001-03-04-050607.tar";
    const broken = "sauvegarde-2001-03-04-050608.tar";
    await craftArchive(from, path.join(settings.directory, newer), { newerBy: 1 });
    await craftArchive(from, path.join(settings.directory, broken), {
      duplicateRowOf: "public.blog_articles",
    });
    const safetyBackups = async () =>
      (await db().select().from(backupRuns).where(eq(backupRuns.reason, "safety"))).length;
    const safetyBefore = await safetyBackups();

    const refused = await queuedRun("restore", newer);
    await runRestore(refused, settings);
    expect(await run(refused)).toMatchObject({
      status: "failed",
      error:
        "Cette sauvegarde vient d'une version plus récente du site : mettez le site à jour avant de la restaurer",
    });
    // Refused by a check that costs nothing: no safety backup was taken for it.
    expect(await safetyBackups()).toBe(safetyBefore);

    const failed = await queuedRun("restore", broken);
    await runRestore(failed, settings);
    expect(await run(failed)).toMatchObject({
      status: "failed",
      error:
        "la table « blog_articles » de la sauvegarde contient deux lignes de même clé : la sauvegarde est incohérente",
    });
    expect(await articleTitled("Gardé")).not.toBeNull();
  });
});

describe("a bucket of backups that does not answer", () => {
  it("is given up after the site's S3 bound, and the page says so in French", async () => {
    if (!s3) throw new Error("s3rver not started");
    const settings: BackupSettings = {
      ...backupSettings(),
      directory: path.join(dataDir, "backups-frozen"),
      s3: backupS3SettingsOf({
        ...env(),
        S3_TIMEOUT_SECONDS: 1,
        BACKUP_S3_ENDPOINT: s3.env.S3_ENDPOINT,
        BACKUP_S3_BUCKET: s3.env.S3_BUCKET,
        BACKUP_S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
        BACKUP_S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
      }),
    };
    // Frozen: connections are accepted, never answered (a bucket down behind its load balancer).
    s3.freeze();
    try {
      const error = await listBackups(settings).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StorageUnavailableError);
      const page = await backupsPage("administratrice", settings);
      expect(page.backups).toEqual([]);
      expect(page.listError).toBe(
        "L'espace S3 des sauvegardes n'a pas répondu à temps : la liste des sauvegardes n'a pas pu être lue. Réessayez dans un instant ; si cela dure, prévenez la personne qui héberge le site.",
      );
    } finally {
      s3.thaw();
    }
  });
});

describe("a backup the bucket refuses", () => {
  it("fails, leaves no archive on the server, and the backups already there intact", async () => {
    const directory = path.join(dataDir, "backups-refused");
    const good = destinations[1]?.settings(directory);
    if (!good?.s3) throw new Error("no s3 settings");
    const before = (await listBackups(good)).map((file) => file.name);
    const refused = { ...good, s3: { ...good.s3, bucket: "un-bucket-qui-n-existe-pas" } };
    await expect(backUpNow(refused)).rejects.toThrow();
    const local = await readdir(directory).catch(() => []);
    expect(local.filter((name) => name.startsWith("sauvegarde-"))).toEqual([]);
    expect((await listBackups(good)).map((file) => file.name)).toEqual(before);
  });
});

describe("upload parts", () => {
  it("are 16 MiB at least and never more than S3's 10,000", () => {
    expect(partSizeFor(1000)).toBe(16 * 1024 * 1024);
    const huge = 200 * 1024 ** 3;
    expect(Math.ceil(huge / partSizeFor(huge))).toBeLessThanOrEqual(10_000);
  });
});
