import { createReadStream } from "node:fs";
import { open, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { Env } from "../env.server";
import { s3Storage, type S3Settings } from "../storage/s3.server";
import { ENCRYPTED_MAGIC, isEncrypted } from "./encryption.server";

/*
 * Where the backups are kept (decision 0118): the server's own folder (DATA_DIR/backups), or an
 * S3-compatible bucket of their own (BACKUP_S3_*), off the machine. A backup is always written to the local
 * folder first (createBackup renames it there only once complete), then handed to the destination: kept
 * where it is, or uploaded in parts and the local copy removed. The page, the retention, the download, the
 * check and the restore see the same list through this one interface.
 */

const NAME =
  /^sauvegarde-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})(?:-(\d{1,2}))?\.tar(\.enc)?$/;

/** Whether a name is a backup's (a name is never a path: nothing outside the destination). */
export const isBackupName = (name: string) => NAME.test(name);

export type BackupFile = {
  name: string;
  size: number;
  createdAt: Date;
  /** From its first bytes, never its name (decision 0129): a renamed plain tar is not « chiffrée ». */
  encrypted: boolean;
};

/** A backup's facts read from its name (`sauvegarde-2026-11-27-030000.tar.enc`), or null. */
function backupFileOf(name: string, size: number, encrypted: boolean): BackupFile | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, year, month, day, hours, minutes, seconds, rank] = match;
  return {
    name,
    size,
    // The second backup of one second (« -2 ») sorts after the first.
    createdAt: new Date(
      Date.parse(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}Z`) + Number(rank ?? 1) - 1,
    ),
    encrypted,
  };
}

/** Whether a local archive begins as an encrypted one does. */
async function startsEncrypted(file: string): Promise<boolean> {
  const handle = await open(file);
  try {
    const start = Buffer.alloc(ENCRYPTED_MAGIC.length);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    return isEncrypted(start.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

const newestFirst = (files: BackupFile[]) =>
  files.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());

/** Where the backups are, in words the owner's page can show (never a secret). */
export type DestinationDescription =
  | { kind: "local"; directory: string }
  | { kind: "s3"; bucket: string; prefix: string; endpoint: string | null };

export interface BackupDestination {
  readonly description: DestinationDescription;
  /** The backups kept there, newest first (other files are not backups and are left alone). */
  list(): Promise<BackupFile[]>;
  /** Takes a complete archive written in the local folder (createBackup's `file`). */
  keep(file: string): Promise<void>;
  /** A backup's bytes as a stream, or null when there is no such backup. */
  read(name: string): Promise<{ size: number; body: Readable } | null>;
  /** Runs `use` with a local file holding the backup (a temporary copy for S3), or null when missing. */
  withLocalFile<T>(name: string, use: (file: string) => Promise<T>): Promise<{ value: T } | null>;
  remove(names: string[]): Promise<void>;
}

/** The server's own folder: the archives stay where createBackup wrote them. */
export function localDestination(directory: string): BackupDestination {
  const fileOf = async (name: string) => {
    if (!isBackupName(name)) return null;
    const file = path.join(directory, name);
    try {
      return { file, size: (await stat(file)).size };
    } catch {
      return null;
    }
  };
  return {
    description: { kind: "local", directory },
    async list() {
      let names: string[];
      try {
        names = await readdir(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const files: BackupFile[] = [];
      for (const name of names) {
        if (!isBackupName(name)) continue;
        const file = path.join(directory, name);
        const found = backupFileOf(name, (await stat(file)).size, await startsEncrypted(file));
        if (found) files.push(found);
      }
      return newestFirst(files);
    },
    async keep(file) {
      if (path.dirname(path.resolve(file)) !== path.resolve(directory)) {
        throw new Error(`backup ${file} outside ${directory}`);
      }
    },
    async read(name) {
      const found = await fileOf(name);
      return found ? { size: found.size, body: createReadStream(found.file) } : null;
    },
    async withLocalFile(name, use) {
      const found = await fileOf(name);
      return found ? { value: await use(found.file) } : null;
    },
    async remove(names) {
      for (const name of names) {
        if (isBackupName(name)) await rm(path.join(directory, name), { force: true });
      }
    },
  };
}

/** Parts of at least 16 MiB, and never more than S3's 10,000 of them (an archive of 150 GB still fits). */
export function partSizeFor(size: number): number {
  return Math.max(16 * 1024 * 1024, Math.ceil(size / 9_000));
}

/**
 * An S3-compatible bucket (BACKUP_S3_*): each archive uploaded in parts read from the local file (never
 * in memory), checked by its size, then removed from the local folder. A check or a restore reads a copy
 * downloaded under `directory` (DATA_DIR/backups), removed afterwards.
 */
export function s3Destination(settings: BackupS3Settings, directory: string): BackupDestination {
  const store = s3Storage({
    ...settings,
    temporaryDirectory: path.join(directory, ".partial-copies"),
  });
  // Questions (the list, a backup's first bytes, whether one exists, deletions) are bounded like the site's
  // files (S3_TIMEOUT_SECONDS): the page must not wait a minute for a bucket that does not answer
  // (decision 0129). Only the archives' own bytes, streamed for minutes, get the longer bound.
  const answers = s3Storage({
    ...settings,
    timeoutMs: settings.answerTimeoutMs ?? settings.timeoutMs,
    temporaryDirectory: path.join(directory, ".partial-copies"),
  });
  const exists = async (name: string) => isBackupName(name) && (await answers.head(name)) !== null;
  return {
    description: {
      kind: "s3",
      bucket: settings.bucket,
      prefix: settings.prefix ?? "",
      endpoint: settings.endpoint ?? null,
    },
    async list() {
      const objects: Array<{ key: string; size: number }> = [];
      for await (const object of answers.list("")) {
        if (isBackupName(object.key)) objects.push(object);
      }
      const files = await Promise.all(
        objects.map(async (object) => {
          // Its first bytes only: what it is, whatever its name says.
          const start = await answers
            .get(object.key, { range: { start: 0, end: ENCRYPTED_MAGIC.length - 1 } })
            // An empty object has no first bytes (416): not an encrypted archive.
            .catch((error: unknown) => {
              if (error instanceof RangeError) return null;
              throw error;
            });
          const chunks: Buffer[] = [];
          for await (const chunk of start?.body ?? []) chunks.push(chunk as Buffer);
          return backupFileOf(object.key, object.size, isEncrypted(Buffer.concat(chunks)));
        }),
      );
      return newestFirst(files.filter((file): file is BackupFile => file !== null));
    },
    async keep(file) {
      const name = path.basename(file);
      if (!isBackupName(name)) throw new Error(`not a backup: ${name}`);
      const { size } = await stat(file);
      const partSize = partSizeFor(size);
      const uploadId = await store.startMultipart(name, "application/x-tar");
      try {
        const parts: { part: number; etag: string }[] = [];
        const count = Math.max(1, Math.ceil(size / partSize));
        for (let part = 1; part <= count; part += 1) {
          const start = (part - 1) * partSize;
          const length = Math.min(partSize, size - start);
          const body = createReadStream(file, { start, end: start + length - 1 });
          parts.push({ part, etag: await store.putPart(name, uploadId, part, body, length) });
        }
        const written = await store.completeMultipart(name, uploadId, parts);
        if (written.size !== size) {
          throw new Error(`backup ${name}: ${written.size} bytes in the bucket, ${size} sent`);
        }
      } catch (error) {
        await store.abortMultipart(name, uploadId).catch(() => undefined);
        throw error;
      }
      await rm(file, { force: true });
    },
    async read(name) {
      if (!isBackupName(name)) return null;
      const found = await store.get(name);
      return found ? { size: found.size, body: found.body } : null;
    },
    async withLocalFile(name, use) {
      if (!(await exists(name))) return null;
      return { value: await store.withLocalFile(name, use) };
    },
    async remove(names) {
      await answers.delete(names.filter(isBackupName));
    },
  };
}

/** The bucket of the backups: `timeoutMs` for an archive's bytes, `answerTimeoutMs` for any question. */
export type BackupS3Settings = Omit<S3Settings, "temporaryDirectory"> & {
  answerTimeoutMs?: number;
};

/** The S3 settings of the backups (BACKUP_S3_*), or undefined when they stay on this server. */
export function backupS3SettingsOf(config: Env): BackupS3Settings | undefined {
  if (
    !config.BACKUP_S3_BUCKET ||
    !config.BACKUP_S3_ACCESS_KEY_ID ||
    !config.BACKUP_S3_SECRET_ACCESS_KEY
  ) {
    return undefined;
  }
  return {
    endpoint: config.BACKUP_S3_ENDPOINT,
    bucket: config.BACKUP_S3_BUCKET,
    region: config.BACKUP_S3_REGION,
    accessKeyId: config.BACKUP_S3_ACCESS_KEY_ID,
    secretAccessKey: config.BACKUP_S3_SECRET_ACCESS_KEY,
    forcePathStyle: Boolean(config.BACKUP_S3_ENDPOINT),
    prefix: config.BACKUP_S3_PREFIX,
    // An archive streams for minutes: a pause of the reader (a slow download) is no failure of the store.
    timeoutMs: 60_000,
    answerTimeoutMs: config.S3_TIMEOUT_SECONDS * 1000,
  };
}
