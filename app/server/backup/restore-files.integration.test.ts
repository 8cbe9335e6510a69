import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { storageDrivers, type StorageUnderTest } from "../../../tests/support/storage-drivers";
import { db } from "../db/client.server";
import { blogArticles } from "../db/schema";
import type { Storage } from "../storage/types";
import { type BackupManifest, createBackup, MANIFEST_ENTRY } from "./backup.server";
import { BackupRefusedError, restoreBackup, verifyBackup } from "./restore.server";
import { recordSwitch } from "./staged-files.server";
import { readTar, TarWriter } from "./tar.server";

useAppDatabase();

/** Every stored file's bytes (base64), by key. */
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

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

type Change = {
  /** Files replaced or added, each with the type the archive declares. */
  files?: Record<string, { bytes: Buffer; contentType: string }>;
  /** A table whose first row is loaded twice (its primary key then fails, inside the transaction). */
  duplicateRowOf?: string;
};

/**
 * A copy of `good` changed as a crafted or broken archive would be, its manifest made to agree: it passes
 * every check of the archive itself, so only what the restore does with it can stop it.
 */
async function craft(good: string, out: string, change: Change): Promise<string> {
  const stream = createWriteStream(out);
  const tar = new TarWriter(stream);
  const added = new Map(Object.entries(change.files ?? {}));
  for await (const entry of readTar(createReadStream(good))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    let body: Buffer = Buffer.concat(chunks);
    if (entry.name === MANIFEST_ENTRY) {
      const manifest = JSON.parse(body.toString("utf8")) as BackupManifest;
      for (const [key, { bytes, contentType }] of added) {
        const item = { key, size: bytes.length, contentType, sha256: sha256(bytes) };
        const entryName = `fichiers/${key}`;
        const at = manifest.files.findIndex((file) => file.key === key);
        if (at >= 0) manifest.files[at] = { ...item, entry: entryName };
        else manifest.files.push({ ...item, entry: entryName });
        if (at < 0) await tar.add(entryName, bytes.length, bytes);
      }
      if (change.duplicateRowOf) {
        const table = manifest.tables.find((item) => item.name === change.duplicateRowOf);
        if (!table) throw new Error(`no table ${change.duplicateRowOf}`);
        table.rows += 1;
        table.sha256 = duplicatedSha;
      }
      body = Buffer.from(JSON.stringify(manifest));
    } else if (entry.name === `base/${change.duplicateRowOf}.copy.gz`) {
      const text = gunzipSync(body).toString("utf8");
      const doubled = Buffer.from(`${text.split("\n")[0]}\n${text}`, "utf8");
      duplicatedSha = sha256(doubled);
      body = gzipSync(doubled);
    } else if (entry.name.startsWith("fichiers/")) {
      const replaced = added.get(entry.name.slice("fichiers/".length));
      if (replaced) body = replaced.bytes;
    }
    await tar.add(entry.name, body.length, body);
  }
  await tar.finish();
  stream.end();
  await new Promise<void>((resolve) => stream.on("close", () => resolve()));
  return out;
}
let duplicatedSha = "";

describe.each(storageDrivers)("a restore's files on $kind", ({ start }) => {
  let store: StorageUnderTest;
  let directory: string;
  let good: string;
  const photo = Buffer.alloc(8_000, 1);
  const otherPhoto = Buffer.alloc(8_000, 2);
  const page = Buffer.from("<script>alert(document.cookie)</script>");

  beforeAll(async () => {
    store = await start();
    directory = await mkdtemp(path.join(os.tmpdir(), "restore-files-"));
    await db()
      .insert(blogArticles)
      .values({
        title: "Séance d'automne",
        slug: `automne-${store.storage.kind}`,
        excerpt: "Extrait",
        content: "<p>Texte</p>",
        author: "Claire",
      });
    await store.storage.put("media/photo-1200.webp", photo, { contentType: "image/webp" });
    good = (await createBackup({ pool: db().$client, storage: store.storage, directory })).file;
  });
  afterAll(async () => {
    await store.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it("whose tables fail leaves every live file as it was, and serves none of the archive's", async () => {
    const broken = await craft(good, path.join(directory, "tables-cassees.tar"), {
      files: {
        "media/photo-1200.webp": { bytes: otherPhoto, contentType: "image/webp" },
        "media/nouvelle-1200.webp": { bytes: page, contentType: "text/html" },
      },
      duplicateRowOf: "public.blog_articles",
    });
    await verifyBackup(broken);
    const before = await everyFile(store.storage);

    await expect(
      restoreBackup(broken, { pool: db().$client, storage: store.storage }),
    ).rejects.toThrow();

    // Not one byte changed, nothing added, nothing left staged.
    expect(await everyFile(store.storage)).toEqual(before);
  });

  it("refuses, before touching anything, an archive holding a file the site never makes", async () => {
    const before = await everyFile(store.storage);
    for (const key of [
      "media/piege.html",
      "blog-images/script.js",
      "media/logo.svg",
      "autre/x.jpg",
    ]) {
      const crafted = await craft(good, path.join(directory, "piege.tar"), {
        files: { [key]: { bytes: page, contentType: "text/html" } },
      });
      const error = await verifyBackup(crafted).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BackupRefusedError);
      expect((error as Error).message).toBe(
        `Cette sauvegarde contient un fichier que le site ne crée jamais (« ${key} ») : elle ne peut pas être restaurée.`,
      );
      await expect(
        restoreBackup(crafted, { pool: db().$client, storage: store.storage }),
      ).rejects.toBeInstanceOf(BackupRefusedError);
    }
    expect(await everyFile(store.storage)).toEqual(before);
  });

  it("once committed, puts the archive's files live, typed by their key and not by the archive", async () => {
    const crafted = await craft(good, path.join(directory, "bonne.tar"), {
      files: {
        "media/photo-1200.webp": { bytes: otherPhoto, contentType: "image/webp" },
        "media/nouvelle-1200.webp": { bytes: page, contentType: "text/html" },
      },
    });
    await restoreBackup(crafted, { pool: db().$client, storage: store.storage });
    const files = await everyFile(store.storage);
    expect(Object.keys(files).sort()).toEqual([
      "media/nouvelle-1200.webp",
      "media/photo-1200.webp",
    ]);
    expect(files["media/photo-1200.webp"]).toBe(otherPhoto.toString("base64"));
    expect((await store.storage.head("media/nouvelle-1200.webp"))?.contentType).toBe("image/webp");
  });

  it("left committed by a killed process, is finished by the next backup, which holds its files", async () => {
    // A restore killed between its commit and the move of its files: the record and the staged file.
    const staging = "restauration/0123456789abcdef/";
    await store.storage.put(`${staging}media/photo-1200.webp`, photo, {
      contentType: "image/webp",
    });
    const client = await db().$client.connect();
    await recordSwitch(client, staging).finally(() => client.release());

    const backup = await createBackup({ pool: db().$client, storage: store.storage, directory });
    expect(backup.manifest.files.map((file) => file.key).sort()).toEqual([
      "media/nouvelle-1200.webp",
      "media/photo-1200.webp",
    ]);
    const files = await everyFile(store.storage);
    expect(files["media/photo-1200.webp"]).toBe(photo.toString("base64"));
    expect(Object.keys(files).some((key) => key.startsWith("restauration/"))).toBe(false);
    const { rows } = await db().$client.query("select * from restore_file_switches");
    expect(rows).toEqual([]);
  });
});
