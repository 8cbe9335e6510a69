import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { craftArchive as craft } from "../../../tests/support/backup-archives";
import { storageDrivers, type StorageUnderTest } from "../../../tests/support/storage-drivers";
import { db } from "../db/client.server";
import { blogArticles } from "../db/schema";
import type { Storage } from "../storage/types";
import { createBackup } from "./backup.server";
import { BackupRefusedError, restoreBackup, verifyBackup } from "./restore.server";
import { recordSwitch } from "./staged-files.server";

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

  it("never comes from a backup holding a file the site does not make: such a file is left out", async () => {
    await store.storage.put("notes/liste.txt", Buffer.from("à faire"), {
      contentType: "text/plain",
    });
    const backup = await createBackup({ pool: db().$client, storage: store.storage, directory });
    expect(backup.manifest.files.map((file) => file.key)).toEqual(["media/photo-1200.webp"]);
    await verifyBackup(backup.file);
    await store.storage.delete(["notes/liste.txt"]);
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
