import { once } from "node:events";
import type { Readable, Writable } from "node:stream";

/*
 * The backup archive is a plain POSIX tar (ustar, with pax records for long names and big files): any
 * operator can list or unpack it with `tar`, and it is written and read as a stream, never held in memory.
 * Only what backups need: regular files, written once in order, read once in order.
 */

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK * 2);
/** The largest size an ustar header's 11 octal digits can say; bigger files get a pax `size` record. */
const MAX_OCTAL_SIZE = 0o77777777777;

function writeString(header: Buffer, value: string, offset: number, length: number) {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), "utf8");
}

function writeOctal(header: Buffer, value: number, offset: number, length: number) {
  writeString(header, `${value.toString(8).padStart(length - 1, "0")}\0`, offset, length);
}

function ustarHeader(name: string, size: number, type: "0" | "x", mtime: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  writeString(header, name, 0, 100);
  writeOctal(header, 0o644, 100, 8);
  writeOctal(header, 0, 108, 8);
  writeOctal(header, 0, 116, 8);
  writeOctal(header, Math.min(size, MAX_OCTAL_SIZE), 124, 12);
  writeOctal(header, Math.floor(mtime / 1000), 136, 12);
  header.fill(" ", 148, 156);
  header.write(type, 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  writeString(header, `${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  return header;
}

/** One pax record: « <length> <key>=<value>\n », its length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  for (;;) {
    const total = length + String(length).length;
    if (String(total).length === String(length).length) return `${total}${body}`;
    length += 1;
  }
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

async function write(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, "drain");
}

/** Writes tar entries to `out`, one after the other; `finish()` ends the archive (not `out`). */
export class TarWriter {
  private readonly out: Writable;
  constructor(out: Writable) {
    this.out = out;
  }

  /** An entry of `size` bytes read from `body` (exactly that many, or the archive would be wrong). */
  async add(
    name: string,
    size: number,
    body: Readable | Buffer,
    mtime = Date.now(),
  ): Promise<void> {
    await this.begin(name, size, mtime);
    let written = 0;
    if (Buffer.isBuffer(body)) {
      await write(this.out, body);
      written = body.length;
    } else {
      for await (const chunk of body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        written += bytes.length;
        if (written > size) break;
        await write(this.out, bytes);
      }
    }
    await this.end(name, size, written);
  }

  /**
   * An entry of `size` bytes that `fill` hands over piece by piece in one buffer it reuses: `write` resolves
   * once the piece has left for the output (its write's callback), so the buffer may be filled again. A
   * stream would allocate a buffer per piece, garbage an idle server keeps for tens of MiB.
   * The output must not hold pieces as they are (a PassThrough would): a file, or a transform that copies.
   */
  async addPieces(
    name: string,
    size: number,
    mtime: number,
    fill: (write: (piece: Buffer) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    await this.begin(name, size, mtime);
    let written = 0;
    await fill(async (piece) => {
      written += piece.length;
      if (written > size) throw new Error(`Entrée « ${name} » : plus de ${size} octets.`);
      await new Promise<void>((resolve, reject) =>
        this.out.write(piece, (error) => (error ? reject(error) : resolve())),
      );
    });
    await this.end(name, size, written);
  }

  private async begin(name: string, size: number, mtime: number): Promise<void> {
    const records: string[] = [];
    if (Buffer.byteLength(name) > 100 || /[^\x20-\x7e]/.test(name))
      records.push(paxRecord("path", name));
    if (size > MAX_OCTAL_SIZE) records.push(paxRecord("size", String(size)));
    if (records.length > 0) {
      const pax = Buffer.from(records.join(""), "utf8");
      await write(this.out, ustarHeader("PaxHeader", pax.length, "x", mtime));
      await write(this.out, Buffer.concat([pax, Buffer.alloc(padding(pax.length))]));
    }
    const shortName = Buffer.from(name, "utf8").subarray(0, 100).toString("latin1");
    await write(this.out, ustarHeader(shortName, size, "0", mtime));
  }

  private async end(name: string, size: number, written: number): Promise<void> {
    if (written !== size) {
      throw new Error(`Entrée « ${name} » : ${written} octets lus au lieu de ${size}.`);
    }
    await write(this.out, Buffer.alloc(padding(size)));
  }

  async finish(): Promise<void> {
    await write(this.out, ZEROS);
  }
}

export type TarEntry = { name: string; size: number; body: AsyncIterable<Buffer> };

/** The archive is not a tar this code wrote (cut short, damaged, or something else). */
export class TarFormatError extends Error {
  override name = "TarFormatError";
}

function readOctal(header: Buffer, offset: number, length: number): number {
  const text = header
    .subarray(offset, offset + length)
    .toString("ascii")
    .replace(/[\0 ]+$/, "")
    .trim();
  if (!/^[0-7]*$/.test(text)) throw new TarFormatError("en-tête d'archive illisible");
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function checkHeader(header: Buffer) {
  let sum = 0;
  for (let index = 0; index < BLOCK; index += 1) {
    sum += index >= 148 && index < 156 ? 32 : (header[index] ?? 0);
  }
  if (sum !== readOctal(header, 148, 8)) throw new TarFormatError("en-tête d'archive abîmé");
}

/**
 * Reads an archive's entries in order. Each entry's body must be read (or left) before the next: the
 * entries are the stream itself, never buffered beyond one chunk.
 */
export async function* readTar(
  input: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<TarEntry> {
  const iterator = input[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  let done = false;

  async function fill(bytes: number): Promise<boolean> {
    while (pending.length < bytes && !done) {
      const next = await iterator.next();
      if (next.done) done = true;
      else {
        // The chunk itself when nothing waits (most of the time): a photo's bytes are not copied twice.
        const chunk = Buffer.isBuffer(next.value)
          ? next.value
          : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      }
    }
    return pending.length >= bytes;
  }
  async function take(bytes: number): Promise<Buffer> {
    if (!(await fill(bytes))) throw new TarFormatError("archive incomplète");
    const taken = pending.subarray(0, bytes);
    pending = pending.subarray(bytes);
    return taken;
  }
  /** Bytes of the current entry not read yet. */
  let left = 0;
  async function* body(): AsyncGenerator<Buffer> {
    while (left > 0) {
      if (pending.length === 0 && !(await fill(1))) throw new TarFormatError("archive incomplète");
      const chunk = pending.subarray(0, Math.min(left, pending.length));
      pending = pending.subarray(chunk.length);
      left -= chunk.length;
      yield chunk;
    }
  }

  let pax: Record<string, string> = {};
  for (;;) {
    const header = await take(BLOCK);
    if (header.every((byte) => byte === 0)) return;
    checkHeader(header);
    const type = String.fromCharCode(header[156] ?? 48);
    const size = pax.size ? Number(pax.size) : readOctal(header, 124, 12);
    const name = pax.path ?? header.subarray(0, 100).toString("latin1").replace(/\0.*$/s, "");
    if (type === "x") {
      const records = (await take(size + padding(size))).subarray(0, size).toString("utf8");
      pax = {};
      for (const match of records.matchAll(/\d+ ([^=]+)=([^\n]*)\n/g)) {
        pax[match[1] ?? ""] = match[2] ?? "";
      }
      continue;
    }
    pax = {};
    left = size;
    yield { name, size, body: body() };
    // What the reader left of this entry is skipped.
    for await (const _ of body()) void _;
    await take(padding(size));
  }
}
