import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { to as copyTo } from "pg-copy-streams";
import { useAppDatabase } from "../../../tests/support/database";
import { storageDrivers, type StorageUnderTest } from "../../../tests/support/storage-drivers";
import { db } from "../db/client.server";
import { eq } from "drizzle-orm";
import {
  blogArticles,
  blogNewsletterSubscribers,
  galleries,
  galleryPhotos,
  siteDocuments,
} from "../db/schema";
import type { Storage } from "../storage/types";
import { localDestination } from "./destination.server";
import { createBackup, listTables, migrationLevel, qualified } from "./backup.server";
import { BackupRefusedError, checkBackup, restoreBackup, verifyBackup } from "./restore.server";
import { migrateTo, SCRATCH_PREFIX, withScratchDatabase } from "./scratch.server";
import { readTar, TarWriter } from "./tar.server";

useAppDatabase();

/** Every row of every table backed up, as COPY writes it, by table. */
async function everyRow(): Promise<Record<string, string>> {
  const client = await db().$client.connect();
  try {
    const rows: Record<string, string> = {};
    for (const table of await listTables(client)) {
      const chunks: Buffer[] = [];
      const columns = table.columns.map((column) => `"${column}"`).join(", ");
      const stream = client.query(
        copyTo(`copy (select ${columns} from ${qualified(table.name)} order by 1) to stdout`),
      );
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      rows[table.name] = Buffer.concat(chunks).toString("utf8");
    }
    return rows;
  } finally {
    client.release();
  }
}

/** Every stored file's bytes, by key. */
async function everyFile(storage: Storage): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const info of storage.list("")) {
    const object = await storage.get(info.key);
    const chunks: Buffer[] = [];
    for await (const chunk of object?.body ?? []) chunks.push(chunk as Buffer);
    files[info.key] = Buffer.concat(chunks).toString("base64");
  }
  return files;
}

describe.each(storageDrivers)("a backup with files on $kind", ({ start }) => {
  let store: StorageUnderTest;
  let directory: string;
  beforeAll(async () => {
    store = await start();
    directory = await mkdtemp(path.join(os.tmpdir(), "backups-"));
  });
  afterAll(async () => {
    await store.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it("holds every row and file, and a restore brings them all back byte for byte", async () => {
    const { storage } = store;
    await db()
      .insert(blogArticles)
      .values({
        title: "Été au studio",
        slug: `ete-${store.storage.kind}`,
        excerpt: "Des tournesols, des rires.",
        content: "<p>Tab\there, line\nbreak, backslash \\ and « guillemets ».</p>",
        author: "Claire",
        published: true,
        publishedAt: new Date("2026-07-01T08:00:00Z"),
      });
    await db()
      .insert(blogNewsletterSubscribers)
      .values({ email: `abonnee-${store.storage.kind}@example.com`, consentSource: "blog" })
      .onConflictDoNothing();
    await storage.put("media/ete-1200.webp", Buffer.from("RIFF…photo d'été"), {
      contentType: "image/webp",
    });
    await storage.put("galleries/g1/originals/p1.jpg", Buffer.alloc(70_000, 7), {
      contentType: "image/jpeg",
    });
    // A client gallery whose cover is one of its photos: the two tables refer to each other, so no order
    // of tables loads them with every foreign key checked row by row.
    const [gallery] = await db()
      .insert(galleries)
      .values({
        title: "Mariage de Camille et Thomas",
        clientName: "Camille Martin",
        clientEmail: "camille@example.fr",
        expiresAt: new Date("2027-01-01T00:00:00Z"),
        purgeAt: new Date("2027-02-01T00:00:00Z"),
        accessCode: "ABCD2345",
      })
      .returning({ id: galleries.id });
    const [cover] = await db()
      .insert(galleryPhotos)
      .values({
        galleryId: gallery?.id ?? "",
        position: 1,
        originalName: "IMG_0001.jpg",
        sourceExtension: "jpg",
      })
      .returning({ id: galleryPhotos.id });
    await db()
      .update(galleries)
      .set({ coverPhotoId: cover?.id })
      .where(eq(galleries.id, gallery?.id ?? ""));
    const rowsBefore = await everyRow();
    const filesBefore = await everyFile(storage);

    const backup = await createBackup({ pool: db().$client, storage, directory });
    expect(path.basename(backup.file)).toMatch(/^sauvegarde-\d{4}-\d{2}-\d{2}-\d{6}\.tar$/);
    expect(backup.manifest.files.map((file) => file.key).sort()).toEqual(
      Object.keys(filesBefore).sort(),
    );
    expect(
      backup.manifest.tables.find((table) => table.name === "public.blog_articles")?.rows,
    ).toBe((rowsBefore["public.blog_articles"] ?? "").split("\n").length - 1);
    // A plain tar: its first entry says what it is, its tables come parents first.
    const names: string[] = [];
    for await (const entry of readTar(createReadStream(backup.file))) names.push(entry.name);
    expect(names[0]).toBe("sauvegarde.json");
    expect(names.at(-1)).toBe("manifest.json");
    expect(names.indexOf("base/public.users.copy.gz")).toBeLessThan(
      names.indexOf("base/public.sessions.copy.gz"),
    );

    // A wrong click: an article deleted, a document changed, a photo deleted, another added.
    await db().delete(blogArticles);
    await db()
      .update(siteDocuments)
      .set({ data: { brand: "Effacé" } });
    await storage.delete(["media/ete-1200.webp"]);
    await storage.put("media/nouvelle.webp", Buffer.from("nouvelle"), {
      contentType: "image/webp",
    });

    const report = await restoreBackup(backup.file, { pool: db().$client, storage });
    expect(report.files).toBe(Object.keys(filesBefore).length);
    expect(report.removedFiles).toBe(1);
    const rowsAfter = await everyRow();
    // The content version moves on past both (pages cached under its numbers are never served again).
    const version = (rows: Record<string, string>) =>
      Number(rows["public.content_version"]?.split("\t")[1]);
    expect(version(rowsAfter)).toBeGreaterThan(version(rowsBefore));
    delete rowsAfter["public.content_version"];
    delete rowsBefore["public.content_version"];
    expect(rowsAfter).toEqual(rowsBefore);
    expect(await everyFile(storage)).toEqual(filesBefore);
  });
});

describe("a backup that cannot be restored is refused, the site unchanged", () => {
  let directory: string;
  let good: string;
  let store: StorageUnderTest;
  beforeAll(async () => {
    const [local] = storageDrivers;
    if (!local) throw new Error("no local storage driver");
    store = await local.start();
    directory = await mkdtemp(path.join(os.tmpdir(), "backups-bad-"));
    await store.storage.put("media/a.webp", Buffer.alloc(5_000, 1), { contentType: "image/webp" });
    good = (await createBackup({ pool: db().$client, storage: store.storage, directory })).file;
  });
  afterAll(async () => {
    await store.stop();
    await rm(directory, { recursive: true, force: true });
  });

  async function refusal(file: string, key?: string) {
    const before = await everyRow();
    const error = await restoreBackup(file, {
      pool: db().$client,
      storage: store.storage,
      key,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackupRefusedError);
    expect(await everyRow()).toEqual(before);
    return (error as Error).message;
  }

  it("damaged, cut short, not a backup, or from a newer version", async () => {
    const bytes = await readFile(good);
    const damaged = path.join(directory, "abime.tar");
    const flipped = Buffer.from(bytes);
    // One bit of the photo's bytes changed on the way (a disk, a copy).
    const at = flipped.indexOf(Buffer.alloc(5_000, 1)) + 2_500;
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    await writeFile(damaged, flipped);
    expect(await refusal(damaged)).toBe(
      "Cette sauvegarde est abîmée ou incomplète : elle ne peut pas être restaurée.",
    );

    const truncated = path.join(directory, "coupe.tar");
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(await refusal(truncated)).toBe(
      "Cette sauvegarde est abîmée ou incomplète : elle ne peut pas être restaurée.",
    );

    const other = path.join(directory, "autre.tar");
    await writeFile(other, Buffer.alloc(4096, 65));
    expect(await refusal(other)).toMatch(/abîmée|n'est pas une sauvegarde/);

    // The same archive, said to come from a database one migration further.
    const newer = path.join(directory, "plus-recente.tar");
    const out = createWriteStream(newer);
    const tar = new TarWriter(out);
    for await (const entry of readTar(createReadStream(good))) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      let body = Buffer.concat(chunks);
      if (entry.name.endsWith(".json")) {
        const value = JSON.parse(body.toString("utf8")) as { migrations: { count: number } };
        value.migrations.count += 1;
        body = Buffer.from(JSON.stringify(value));
      }
      await tar.add(entry.name, body.length, body);
    }
    await tar.finish();
    out.end();
    await new Promise<void>((resolve) => out.on("close", () => resolve()));
    expect(await refusal(newer)).toBe(
      "Cette sauvegarde vient d'une version plus récente du site : mettez le site à jour avant de la restaurer.",
    );
    await expect(verifyBackup(good)).resolves.toMatchObject({ format: 1 });
  });

  it("encrypted with BACKUP_KEY: nothing readable without it, refused with a wrong one, restored with it", async () => {
    const key = "la phrase de passe de la propriétaire, gardée ailleurs";
    const sealed = await createBackup({
      pool: db().$client,
      storage: store.storage,
      directory,
      key,
      now: new Date("2026-11-27T03:00:00Z"),
    });
    expect(path.basename(sealed.file)).toBe("sauvegarde-2026-11-27-030000.tar.enc");
    expect((await readFile(sealed.file)).includes(Buffer.from("sauvegarde.json"))).toBe(false);
    expect(await refusal(sealed.file)).toBe(
      "Cette sauvegarde est chiffrée : il faut sa clé (BACKUP_KEY) pour la lire.",
    );
    expect(await refusal(sealed.file, "pas la bonne phrase de passe du tout")).toBe(
      "La clé BACKUP_KEY n'ouvre pas cette sauvegarde : ce n'est pas la bonne clé, ou l'archive a été modifiée.",
    );
    const before = await everyRow();
    await restoreBackup(sealed.file, { pool: db().$client, storage: store.storage, key });
    const after = await everyRow();
    delete before["public.content_version"];
    delete after["public.content_version"];
    expect(after).toEqual(before);
  });

  it("two backups of the same second keep both archives, the second named « -2 » and listed first", async () => {
    const at = new Date("2026-11-27T03:00:00Z");
    const first = await createBackup({
      pool: db().$client,
      storage: store.storage,
      directory,
      now: at,
    });
    const second = await createBackup({
      pool: db().$client,
      storage: store.storage,
      directory,
      now: at,
    });
    expect(path.basename(first.file)).toBe("sauvegarde-2026-11-27-030000.tar");
    expect(path.basename(second.file)).toBe("sauvegarde-2026-11-27-030000-2.tar");
    const listed = (await localDestination(directory).list()).map((file) => file.name);
    expect(listed.indexOf("sauvegarde-2026-11-27-030000-2.tar")).toBeLessThan(
      listed.indexOf("sauvegarde-2026-11-27-030000.tar"),
    );
    await verifyBackup(first.file);
    await verifyBackup(second.file);
    await rm(first.file);
    await rm(second.file);
  });

  it("an interrupted backup leaves no archive, and the earlier ones as they were", async () => {
    const before = await readdir(directory);
    const sizes = await Promise.all(
      before.map(async (name) => (await stat(path.join(directory, name))).size),
    );
    const live = store.storage;
    const failing = Object.assign(Object.create(live) as Storage, {
      async *list() {
        yield* live.list("");
        throw new Error("disque arraché");
      },
    });
    await expect(
      createBackup({ pool: db().$client, storage: failing, directory, now: new Date(0) }),
    ).rejects.toThrow("disque arraché");
    expect(await readdir(directory)).toEqual(before);
    expect(
      await Promise.all(before.map(async (name) => (await stat(path.join(directory, name))).size)),
    ).toEqual(sizes);
  });
});

describe("a backup of an older version", () => {
  let directory: string;
  let store: StorageUnderTest;
  beforeAll(async () => {
    const [local] = storageDrivers;
    if (!local) throw new Error("no local storage driver");
    store = await local.start();
    directory = await mkdtemp(path.join(os.tmpdir(), "backups-old-"));
  });
  afterAll(async () => {
    await store.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it("is checked in a database of its own, then restored through the migrations after it", async () => {
    const live = await db().$client.connect();
    const level = await migrationLevel(live).finally(() => live.release());
    // The site one migration ago, with an article the current site does not have.
    const old = await withScratchDatabase(db().$client, async (scratch) => {
      await migrateTo(scratch, level.count - 1);
      await scratch.insert(blogArticles).values({
        title: "Écrit avec la version d'avant",
        slug: "ecrit-version-avant",
        excerpt: "Extrait",
        content: "<p>Texte</p>",
        author: "Claire",
        published: true,
        publishedAt: new Date("2026-01-05T10:00:00Z"),
      });
      return createBackup({ pool: scratch.$client, storage: store.storage, directory });
    });
    expect(old.manifest.migrations.count).toBe(level.count - 1);

    const before = await everyRow();
    const report = await checkBackup(old.file, { pool: db().$client });
    expect(report.counts["public.blog_articles"]).toBe(1);
    expect(report.tables).toBe(old.manifest.tables.length);
    // Checked elsewhere: the site did not move.
    expect(await everyRow()).toEqual(before);

    await restoreBackup(old.file, { pool: db().$client, storage: store.storage });
    const titles = await db().select({ title: blogArticles.title }).from(blogArticles);
    expect(titles).toEqual([{ title: "Écrit avec la version d'avant" }]);
    const after = await db().$client.connect();
    // The site's migrations all still applied, the later one included.
    expect(await migrationLevel(after).finally(() => after.release())).toEqual(level);
  });

  it("drops the scratch databases a killed check or restore left, and only those", async () => {
    const pool = db().$client;
    const suffix = () => randomBytes(6).toString("hex");
    const leftover = `${SCRATCH_PREFIX}1000000000_${suffix()}`;
    const inUse = `${SCRATCH_PREFIX}1000000000_${suffix()}`;
    const young = `${SCRATCH_PREFIX}${Math.floor(Date.now() / 1000)}_${suffix()}`;
    for (const name of [leftover, inUse, young]) await pool.query(`create database "${name}"`);
    // Another process's check, long under way.
    const url = new URL((pool.options as { connectionString: string }).connectionString);
    url.pathname = `/${inUse}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      await withScratchDatabase(pool, async () => undefined);
      const { rows } = await pool.query<{ name: string }>(
        "select datname as name from pg_database where datname = any($1)",
        [[leftover, inUse, young]],
      );
      expect(rows.map((row) => row.name).sort()).toEqual([inUse, young].sort());
    } finally {
      await other.end();
      for (const name of [leftover, inUse, young]) {
        await pool.query(`drop database if exists "${name}" with (force)`);
      }
    }
  });
});
