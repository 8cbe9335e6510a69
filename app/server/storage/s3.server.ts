import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as S3 from "@aws-sdk/client-s3";
import { checkKey, checkPrefix, contentTypeOf } from "./keys";
import {
  StorageUnavailableError,
  type ByteRange,
  type ObjectBody,
  type ObjectInfo,
  type ReadOptions,
  type Storage,
} from "./types";

export type S3Settings = {
  /** An S3-compatible server's address; AWS itself when absent. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `{bucket}` in the path rather than the host name (MinIO, s3rver and most S3-compatible servers). */
  forcePathStyle: boolean;
  /** Put before every key: several sites (or a site and something else) can share one bucket. */
  prefix?: string;
  /** A folder on the local disk for `withLocalFile`'s temporary copies. */
  temporaryDirectory: string;
  /**
   * How long the store may keep the site waiting: for an answer to each request (its retries included),
   * and between two packets of a body on its way in or out (S3_TIMEOUT_SECONDS, 10 s by default).
   */
  timeoutMs?: number;
};

type Sdk = typeof S3;

/** Objects per DeleteObjects request and per listing page (S3's maximum for both). */
const BATCH = 1000;

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A streamed body that fails midway (the owner's connection dropped during a piece) aborts its request: the
 * SDK would otherwise wait for the announced bytes until the socket's timeout, holding the request open
 * while the browser already retries.
 */
function abortedWith(body: Buffer | Readable | undefined): AbortSignal | undefined {
  if (!body || Buffer.isBuffer(body)) return undefined;
  const controller = new AbortController();
  body.once("error", (error: Error) => controller.abort(error));
  return controller.signal;
}

/** The SDK's error when the store went silent (a connection or a socket given up). */
function isSilence(error: unknown): boolean {
  const { name, code } = error as { name?: string; code?: string };
  return name === "TimeoutError" || name === "RequestTimeout" || code === "ETIMEDOUT";
}

/** The SDK's error when the store could not be reached at all. */
function isUnreachable(error: unknown): boolean {
  const { code } = error as { code?: string };
  return ["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"].includes(code ?? "");
}

/**
 * An S3-compatible object store (decision 0100). The SDK is loaded on first use (decision 0092): a site on
 * local disk never loads it.
 *
 * Settings every S3-compatible server accepts: checksums only when an operation requires them (recent SDKs
 * otherwise send `aws-chunked` bodies with a trailing CRC32, which some servers store as part of the
 * object), and always an explicit ContentLength (a stream without one cannot be signed).
 */
export function s3Storage(settings: S3Settings): Storage {
  const prefix = settings.prefix ? settings.prefix.replace(/\/*$/, "/") : "";
  const Bucket = settings.bucket;
  const objectKey = (key: string) => `${prefix}${checkKey(key)}`;
  const siteKey = (stored: string) => stored.slice(prefix.length);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  let connection: Promise<{ sdk: Sdk; client: S3.S3Client }> | undefined;
  const connect = () =>
    (connection ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        credentials: {
          accessKeyId: settings.accessKeyId,
          secretAccessKey: settings.secretAccessKey,
        },
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
        // A socket that connects or moves no byte for this long is given up (a frozen store).
        requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
      }),
    })));

  /**
   * Every request to the store: bounded by `timeoutMs` until its answer arrives (retries included; a body
   * streamed in from a visitor is bounded by the socket's silence instead, a slow line being no fault),
   * given up when `signal` fires (the visitor left), and a store that does not answer becomes a
   * StorageUnavailableError the HTTP layer answers in French.
   */
  async function send<Output = unknown>(
    command: object,
    options: { signal?: AbortSignal; body?: Buffer | Readable } = {},
  ): Promise<Output> {
    const { client } = await connect();
    const deadline = new AbortController();
    const streamed = options.body !== undefined && !Buffer.isBuffer(options.body);
    const timer = streamed
      ? undefined
      : setTimeout(() => deadline.abort(new Error("storage deadline")), timeoutMs);
    const signals = [deadline.signal, options.signal, abortedWith(options.body)].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    try {
      // send() is typed per command class; each caller names the output it expects.
      return (await client.send(command as never, {
        abortSignal: AbortSignal.any(signals),
      })) as Output;
    } catch (error) {
      const timedOut = deadline.signal.aborted || isSilence(error);
      if (timedOut || isUnreachable(error)) {
        throw new StorageUnavailableError(
          `Le stockage S3 n'a pas répondu (${command.constructor.name})`,
          {
            timedOut,
            cause: error,
          },
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function head(key: string, options: ReadOptions = {}): Promise<ObjectInfo | null> {
    const { sdk } = await connect();
    try {
      const found = await send<S3.HeadObjectCommandOutput>(
        new sdk.HeadObjectCommand({ Bucket, Key: objectKey(key) }),
        options,
      );
      return {
        key,
        size: found.ContentLength ?? 0,
        etag: found.ETag ?? "",
        lastModified: found.LastModified ?? new Date(0),
        // The key says the type (keys.ts), never what was declared when the object was written.
        contentType: contentTypeOf(key),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function get(
    key: string,
    options: ReadOptions & { range?: ByteRange } = {},
  ): Promise<ObjectBody | null> {
    const { sdk } = await connect();
    const range = options.range;
    if (range && (range.start < 0 || (range.end !== undefined && range.end < range.start))) {
      throw new RangeError(`Range ${range.start}-${range.end}`);
    }
    try {
      const found = await send<S3.GetObjectCommandOutput>(
        new sdk.GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ""}` } : {}),
        }),
        { signal: options.signal },
      );
      const body = found.Body as Readable;
      const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(found.ContentRange ?? "");
      const size = contentRange ? Number(contentRange[3]) : (found.ContentLength ?? 0);
      const info = {
        key,
        size,
        etag: found.ETag ?? "",
        lastModified: found.LastModified ?? new Date(0),
        // The key says the type (keys.ts), never what was declared when the object was written.
        contentType: contentTypeOf(key),
        body,
      };
      if (!range) return info;
      // What the store sent (a store that ignores ranges sends everything, and says so).
      const start = contentRange ? Number(contentRange[1]) : 0;
      const end = contentRange ? Number(contentRange[2]) : size - 1;
      if (range.start > end) {
        body.destroy();
        throw new RangeError(`Range ${range.start}-${range.end} of ${size}`);
      }
      return { ...info, range: { start, end } };
    } catch (error) {
      if (isNotFound(error)) return null;
      if (statusOf(error) === 416) throw new RangeError(`Range ${range?.start}-${range?.end}`);
      throw error;
    }
  }

  /** Writes a whole object and reads back what the store kept (its ETag and date). */
  async function putObject(key: string, body: Buffer | Readable, length: number, type: string) {
    const { sdk } = await connect();
    await send(
      new sdk.PutObjectCommand({
        Bucket,
        Key: objectKey(key),
        Body: body,
        ContentLength: length,
        ContentType: type,
      }),
      { body },
    );
    const written = await head(key);
    if (!written) throw new Error(`Storage: ${key} vanished after writing`);
    if (written.size !== length) {
      throw new Error(`Storage: ${key} holds ${written.size} bytes, ${length} sent`);
    }
    return written;
  }

  /** One page of keys after `after` (StartAfter rather than a continuation token: any server pages so). */
  async function page(listPrefix: string, after: string | undefined) {
    const { sdk } = await connect();
    const answer = await send<S3.ListObjectsV2CommandOutput>(
      new sdk.ListObjectsV2Command({
        Bucket,
        Prefix: `${prefix}${listPrefix}`,
        MaxKeys: BATCH,
        ...(after ? { StartAfter: after } : {}),
      }),
    );
    return { objects: answer.Contents ?? [], truncated: answer.IsTruncated === true };
  }

  async function* list(listPrefix: string): AsyncGenerator<ObjectInfo> {
    if (listPrefix !== "") checkPrefix(listPrefix);
    let after: string | undefined;
    for (;;) {
      const { objects, truncated } = await page(listPrefix, after);
      for (const object of objects) {
        if (!object.Key) continue;
        const key = siteKey(object.Key);
        yield {
          key,
          size: object.Size ?? 0,
          etag: object.ETag ?? "",
          lastModified: object.LastModified ?? new Date(0),
          contentType: contentTypeOf(key),
        };
      }
      after = objects.at(-1)?.Key;
      if (!truncated || !after) return;
    }
  }

  async function deleteStored(storedKeys: string[]) {
    const { sdk } = await connect();
    for (let start = 0; start < storedKeys.length; start += BATCH) {
      const batch = storedKeys.slice(start, start + BATCH);
      const answer = await send<S3.DeleteObjectsCommandOutput>(
        new sdk.DeleteObjectsCommand({
          Bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(
          `Storage: ${failed.length} objects not deleted (${failed[0]?.Key}: ${failed[0]?.Code})`,
        );
      }
    }
  }

  return {
    kind: "s3",

    async put(key, body, { contentType, contentLength }) {
      if (Buffer.isBuffer(body)) {
        if (contentLength !== undefined && contentLength !== body.length) {
          throw new Error(`Storage: ${key} has ${body.length} bytes, ${contentLength} announced`);
        }
        return putObject(key, body, body.length, contentType);
      }
      if (contentLength === undefined) throw new Error(`Storage: ${key} needs its contentLength`);
      return putObject(key, body, contentLength, contentType);
    },

    get,

    head,
    async delete(keys) {
      await deleteStored(keys.map(objectKey));
    },

    async deletePrefix(deleted) {
      checkPrefix(deleted);
      // Page by page: each page is deleted before the next is asked (StartAfter the last key).
      let count = 0;
      let after: string | undefined;
      for (;;) {
        const { objects, truncated } = await page(deleted, after);
        const storedKeys = objects.flatMap((object) => (object.Key ? [object.Key] : []));
        await deleteStored(storedKeys);
        count += storedKeys.length;
        after = storedKeys.at(-1);
        if (!truncated || !after) return count;
      }
    },

    list,

    async startMultipart(key, contentType) {
      const { sdk } = await connect();
      const started = await send<S3.CreateMultipartUploadCommandOutput>(
        new sdk.CreateMultipartUploadCommand({
          Bucket,
          Key: objectKey(key),
          ContentType: contentType,
        }),
      );
      if (!started.UploadId) throw new Error(`Storage: no upload id for ${key}`);
      return started.UploadId;
    },

    async putPart(key, uploadId, part, body, length) {
      const { sdk } = await connect();
      if (Buffer.isBuffer(body) && body.length !== length) {
        throw new Error(`Storage: part ${part} has ${body.length} bytes, ${length} announced`);
      }
      const answer = await send<S3.UploadPartCommandOutput>(
        new sdk.UploadPartCommand({
          Bucket,
          Key: objectKey(key),
          UploadId: uploadId,
          PartNumber: part,
          Body: body,
          ContentLength: length,
        }),
        { body },
      );
      if (!answer.ETag) throw new Error(`Storage: no ETag for part ${part} of ${key}`);
      return answer.ETag;
    },

    async completeMultipart(key, uploadId, parts) {
      const { sdk } = await connect();
      await send(
        new sdk.CompleteMultipartUploadCommand({
          Bucket,
          Key: objectKey(key),
          UploadId: uploadId,
          MultipartUpload: {
            Parts: [...parts]
              .sort((a, b) => a.part - b.part)
              .map(({ part, etag }) => ({ PartNumber: part, ETag: etag })),
          },
        }),
      );
      const written = await head(key);
      if (!written) throw new Error(`Storage: ${key} vanished after its upload completed`);
      return written;
    },

    async abortMultipart(key, uploadId) {
      const { sdk } = await connect();
      try {
        await send(
          new sdk.AbortMultipartUploadCommand({ Bucket, Key: objectKey(key), UploadId: uploadId }),
        );
      } catch (error) {
        // Best effort (types.ts): a store without the operation (s3rver) or an upload already gone leaves
        // its parts to the bucket's lifecycle rule for incomplete uploads (README).
        if (isNotFound(error) || [405, 501].includes(statusOf(error) ?? 0)) return;
        throw error;
      }
    },

    async withLocalFile(key, use) {
      const found = await get(key);
      if (!found) throw new Error(`Storage: ${key} does not exist`);
      // Owner-only: a copy may be a backup (sessions, clients' data) or a client's photo (decision 0129).
      await fs.mkdir(settings.temporaryDirectory, { recursive: true, mode: 0o700 });
      const copy = path.join(
        settings.temporaryDirectory,
        `${randomUUID()}${path.extname(key).toLowerCase()}`,
      );
      try {
        await pipeline(found.body, createWriteStream(copy, { mode: 0o600 }));
        return await use(copy);
      } finally {
        await fs.rm(copy, { force: true });
      }
    },
  };
}

/** Checks that the bucket answers with these credentials (the server's start, with S3). */
export async function checkBucket(settings: S3Settings): Promise<void> {
  const sdk = await import("@aws-sdk/client-s3");
  const client = new sdk.S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    maxAttempts: 2,
  });
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: settings.bucket }), {
      abortSignal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    // A HEAD has no body: the status is all the store says.
    const status = statusOf(error);
    if (status && error instanceof Error) error.message = `HTTP ${status} ${error.message}`.trim();
    throw error;
  } finally {
    client.destroy();
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === "NotFound" || name === "NoSuchKey" || name === "NoSuchUpload";
}
