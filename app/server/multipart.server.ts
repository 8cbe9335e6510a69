import { createWriteStream } from "node:fs";
import { once } from "node:events";

/**
 * Reads a `multipart/form-data` body as it arrives and writes the one file field `fieldName` to `target`,
 * never holding more than a chunk in memory (camera photos are tens of megabytes). Other fields are
 * skipped. Stops reading with `MultipartError("too-large")` as soon as the file passes `maxBytes`.
 */
export class MultipartError extends Error {
  override name = "MultipartError";
  readonly reason: "not-multipart" | "malformed" | "no-file" | "too-large";
  constructor(reason: MultipartError["reason"]) {
    super(reason);
    this.reason = reason;
  }
}

export type StreamedFile = {
  fileName: string;
  size: number;
  /** The text fields asked for by `textFields` that the body held (the first of each name). */
  fields: Record<string, string>;
};

const HEADER_END = Buffer.from("\r\n\r\n");
/** Part headers beyond this are not a browser's form: refused rather than buffered. */
const MAX_HEADER_BYTES = 16 * 1024;
/** A text field read beside the file (`textFields`) longer than this is not a browser's form either. */
const MAX_TEXT_FIELD_BYTES = 16 * 1024;

export function multipartBoundary(contentType: string | null): string {
  const match = /^multipart\/form-data\s*;.*?boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(
    contentType ?? "",
  );
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 200) throw new MultipartError("not-multipart");
  return boundary;
}

export async function streamFileField(
  request: Request,
  options: {
    fieldName: string;
    target: string;
    maxBytes: number;
    /** Short text fields to keep (e.g. a photo's alternative text posted with it); others are skipped. */
    textFields?: readonly string[];
  },
): Promise<StreamedFile> {
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!request.body) throw new MultipartError("malformed");
  const firstDelimiter = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = request.body.getReader();

  let pending = Buffer.alloc(0);
  let state: "preamble" | "headers" | "body" | "done" = "preamble";
  let writing: { fileName: string; size: number } | null = null;
  let found: Omit<StreamedFile, "fields"> | null = null;
  const fields: Record<string, string> = {};
  let reading: { name: string; chunks: Buffer[]; size: number } | null = null;
  const output = createWriteStream(options.target, { flags: "wx" });
  const outputFailed = once(output, "error").then(([error]) => {
    throw error;
  });
  outputFailed.catch(() => {});

  const write = async (bytes: Buffer) => {
    if (reading && bytes.length > 0) {
      reading.size += bytes.length;
      if (reading.size > MAX_TEXT_FIELD_BYTES) throw new MultipartError("malformed");
      reading.chunks.push(Buffer.from(bytes));
      return;
    }
    if (!writing || bytes.length === 0) return;
    writing.size += bytes.length;
    if (writing.size > options.maxBytes) throw new MultipartError("too-large");
    if (!output.write(bytes)) await Promise.race([once(output, "drain"), outputFailed]);
  };

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending = pending.length === 0 ? Buffer.from(value) : Buffer.concat([pending, value]);
      // Consume as much of `pending` as the state machine can.
      for (;;) {
        if (state === "preamble") {
          const start = pending.indexOf(firstDelimiter);
          if (start === -1) {
            if (pending.length > MAX_HEADER_BYTES) throw new MultipartError("malformed");
            break;
          }
          pending = pending.subarray(start + firstDelimiter.length);
          state = "headers";
        } else if (state === "headers") {
          if (pending.length < 2) break;
          if (pending.subarray(0, 2).toString() === "--") {
            state = "done";
            break;
          }
          const end = pending.indexOf(HEADER_END);
          if (end === -1) {
            if (pending.length > MAX_HEADER_BYTES) throw new MultipartError("malformed");
            break;
          }
          const headers = pending.subarray(0, end).toString("utf8");
          pending = pending.subarray(end + HEADER_END.length);
          const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
          const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
          const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
          writing =
            name === options.fieldName && fileName !== undefined && !found
              ? { fileName, size: 0 }
              : null;
          reading =
            name !== undefined &&
            fileName === undefined &&
            options.textFields?.includes(name) &&
            !(name in fields)
              ? { name, chunks: [], size: 0 }
              : null;
          state = "body";
        } else if (state === "body") {
          const end = pending.indexOf(delimiter);
          if (end === -1) {
            // Keep what could be the start of a delimiter split across two chunks.
            const safe = Math.max(0, pending.length - delimiter.length);
            await write(pending.subarray(0, safe));
            pending = pending.subarray(safe);
            break;
          }
          await write(pending.subarray(0, end));
          if (writing) found = { fileName: writing.fileName, size: writing.size };
          if (reading) fields[reading.name] = Buffer.concat(reading.chunks).toString("utf8");
          writing = null;
          reading = null;
          pending = pending.subarray(end + delimiter.length);
          state = "headers";
        } else {
          break;
        }
      }
      if (state === "done") break;
    }
  } catch (error) {
    output.destroy();
    await drain(reader);
    throw error;
  }
  output.end();
  await Promise.race([once(output, "finish"), outputFailed]);
  if (state !== "done" && !found) throw new MultipartError("malformed");
  if (!found) throw new MultipartError("no-file");
  if (state !== "done") await reader.cancel().catch(() => {});
  return { ...found, fields };
}

/** After a refusal, at most this much more is read (and dropped) so the browser still gets the answer. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused body: cancelling it would close the connection before the
 * browser reads our 413 and its French reason. Past DRAIN_LIMIT_BYTES the connection is closed after all.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0;
  try {
    while (dropped <= DRAIN_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The browser went away: nothing left to answer.
  }
}
