import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  type BackupHeader,
  type BackupManifest,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
} from "../../app/server/backup/backup.server";
import { readTar, TarWriter } from "../../app/server/backup/tar.server";

/*
 * Archives as a crafted or broken backup would be: a copy of a good one, changed, its manifest made to
 * agree, so that it passes every check of the archive itself and only what a restore does with it stops it.
 */

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export type ArchiveChange = {
  /** Files replaced or added, each with the type the archive declares. */
  files?: Record<string, { bytes: Buffer; contentType: string }>;
  /** A table whose first row is loaded twice (its primary key then fails, inside the transaction). */
  duplicateRowOf?: string;
  /** Said to come from this many migrations further than it does. */
  newerBy?: number;
};

/**
 * A copy of `good` changed as a crafted or broken archive would be, its manifest made to agree: it passes
 * every check of the archive itself, so only what the restore does with it can stop it.
 */
export async function craftArchive(
  good: string,
  out: string,
  change: ArchiveChange,
): Promise<string> {
  const stream = createWriteStream(out);
  const tar = new TarWriter(stream);
  const added = new Map(Object.entries(change.files ?? {}));
  // The doubled table comes before the manifest: its new checksum, for the manifest.
  let duplicatedSha = "";
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
      if (change.newerBy) manifest.migrations.count += change.newerBy;
      body = Buffer.from(JSON.stringify(manifest));
    } else if (entry.name === HEADER_ENTRY && change.newerBy) {
      const header = JSON.parse(body.toString("utf8")) as BackupHeader;
      header.migrations.count += change.newerBy;
      body = Buffer.from(JSON.stringify(header));
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
