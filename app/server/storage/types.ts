import type { Readable } from "node:stream";

/** What the store knows of one object. `etag` changes whenever the bytes do. */
export type ObjectInfo = {
  key: string;
  size: number;
  etag: string;
  lastModified: Date;
  contentType: string;
};

/** An object being read: its body is a stream the caller consumes or destroys. */
export type ObjectBody = ObjectInfo & {
  body: Readable;
  /** The bytes sent when a range was asked (inclusive), else absent. */
  range?: { start: number; end: number };
};

export type ByteRange = { start: number; end?: number };

/** What a read may be given: `signal` gives it up (the visitor who asked for it left). */
export type ReadOptions = { signal?: AbortSignal };

/**
 * The store did not answer in time (`timedOut`, a 504 for a visitor) or could not be reached (a 503): the
 * site is fine, its files are away for a moment.
 */
export class StorageUnavailableError extends Error {
  /** What a visitor is told, with `status`. */
  static readonly visitorMessage =
    "Les photos du site sont momentanément inaccessibles : le stockage des fichiers ne répond pas. Réessayez dans un instant.";
  readonly timedOut: boolean;
  constructor(message: string, options: { timedOut: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "StorageUnavailableError";
    this.timedOut = options.timedOut;
  }

  /** 504 when the store was too slow to answer, 503 when it could not be reached. */
  get status(): 503 | 504 {
    return this.timedOut ? 504 : 503;
  }
}

/**
 * Where the site keeps its files: the local disk (DATA_DIR/uploads) or an S3-compatible object store.
 * Every upload of the site goes through it (blog images, media library, client galleries): nothing else
 * touches the files, so one setting moves them all and several app servers can share one store.
 *
 * Keys are relative paths of lowercase letters, digits and `/_.-` (see keys.ts), never starting with `/`.
 */
export interface Storage {
  readonly kind: "local" | "s3";
  /** Writes a whole object. A reader never sees half of it. A stream needs its `contentLength`. */
  put(
    key: string,
    body: Buffer | Readable,
    options: { contentType: string; contentLength?: number },
  ): Promise<ObjectInfo>;
  /** Reads an object (or one range of it); null when it does not exist. */
  get(key: string, options?: ReadOptions & { range?: ByteRange }): Promise<ObjectBody | null>;
  head(key: string, options?: ReadOptions): Promise<ObjectInfo | null>;
  /** Deletes objects; missing keys are fine. */
  delete(keys: string[]): Promise<void>;
  /** Deletes every object under a prefix (ending with `/`); returns how many. Safe to run twice. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every object under a prefix, in key order. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /**
   * An object written in parts (resumable uploads): parts numbered from 1, all of one size but the last
   * (at least 5 MiB for S3), each retried by number until the upload completes or is aborted.
   */
  startMultipart(key: string, contentType: string): Promise<string>;
  putPart(
    key: string,
    uploadId: string,
    part: number,
    body: Readable | Buffer,
    length: number,
  ): Promise<string>;
  completeMultipart(
    key: string,
    uploadId: string,
    parts: { part: number; etag: string }[],
  ): Promise<ObjectInfo>;
  /** Forgets the parts of an unfinished upload (best effort: some stores keep them until a lifecycle rule). */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /**
   * Runs `use` with a path on the local disk holding the object: the file itself on disk, else a temporary
   * copy removed afterwards (sharp and the ZIP's checks read files).
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
}
