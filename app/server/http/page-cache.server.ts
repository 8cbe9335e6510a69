import zlib from "node:zlib";
import type {
  Request as ExpressRequest,
  RequestHandler,
  Response as ExpressResponse,
} from "express";
import { PageRender } from "../context";
import { log } from "../logger.server";

/**
 * The page cache: public pages rendered once, then served again to every visitor without cookies.
 *
 * Rendering a page with React costs milliseconds of CPU; serving stored bytes costs microseconds. A stored
 * page is served again only while it cannot differ from a fresh render:
 * - its content: every page is stored with the content version read before its render (a number
 *   PostgreSQL raises in the same transaction as any change to articles or categories) and served only
 *   while that number is unchanged, checked with one query per request (requests that arrive while one
 *   read is running share the next one). No page is assumed not to read the database.
 * - its visitor: only GET requests without cookies or credentials are looked up or stored, and only
 *   answers 200 without `Set-Cookie`, `private` or `no-store`; the admin area never.
 * - its nonce: the Content-Security-Policy nonce of the render is cut out of the stored bytes and each
 *   answer gets the fresh nonce of its own response, so no two answers share one.
 * What a page does on each visit (counting a view) is recorded with it and repeated (`onEveryServe`).
 * Compression is done once too: each stretch between two nonces is stored gzipped, and an answer is those
 * stretches with its nonce in between (see `gzipAnswer`), instead of compressing every answer again.
 * See docs/decisions/0006-page-cache.md.
 */

export type PageCacheOptions = {
  /** Reads the current content version (one round trip). */
  readContentVersion: () => Promise<number>;
  /** A read slower than this counts as failed: the page is rendered, not served from the cache. */
  readTimeoutMs?: number;
  /** Upper bound of the memory held, all pages together (bodies, compressed parts, addresses). */
  maxBytes?: number;
  /** Upper bound of the number of stored pages. */
  maxEntries?: number;
  /** Pages larger than this are not stored. */
  maxEntryBytes?: number;
  /** A stored page is rendered again after this long even if nothing changed (dates, the year). */
  maxAgeMs?: number;
};

type Entry = {
  headers: Array<[string, string]>;
  /** The body cut at each occurrence of the render's nonce (views of one buffer). */
  parts: Buffer[];
  /** The same parts, each deflated on its own up to a byte boundary (views of one buffer). */
  deflatedParts: Buffer[];
  /** Memory the entry holds: its two buffers, its address and headers, and a fixed overhead. */
  bytes: number;
  /** Content version the page was rendered under. */
  version: number;
  storedAt: number;
  effects: PageRender["effects"];
};

// Headers that belong to one answer, not to the page: set again for each response.
const PER_RESPONSE_HEADERS = new Set([
  "connection",
  "content-encoding",
  "content-length",
  "content-security-policy",
  "date",
  "etag",
  "keep-alive",
  "server-timing",
  "set-cookie",
  "transfer-encoding",
  "vary",
  "x-page-cache",
]);

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
// An empty last block: what ends every deflate stream.
const LAST_BLOCK = zlib.deflateRawSync(Buffer.alloc(0));

/**
 * Deflates `part` on its own and ends with a full flush: the output stops on a byte boundary and refers to
 * nothing before it, so such pieces (and stored blocks) can follow one another in one deflate stream.
 */
function deflatePart(part: Buffer): Buffer {
  return zlib.deflateRawSync(part, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
}

/**
 * `pieces` copied into one buffer of exactly their size, returned as views of it. (Small buffers from
 * zlib or Buffer.concat are slices of larger shared ones: keeping them would hold far more memory than
 * their length says.)
 */
function compact(pieces: Buffer[]): { views: Buffer[]; bytes: number } {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const block = Buffer.allocUnsafeSlow(total);
  const views: Buffer[] = [];
  let offset = 0;
  for (const piece of pieces) {
    piece.copy(block, offset);
    views.push(block.subarray(offset, offset + piece.length));
    offset += piece.length;
  }
  return { views, bytes: total };
}

// What an entry costs beyond its bytes: the map slot, objects, arrays.
const ENTRY_OVERHEAD_BYTES = 1_024;

/** `bytes` as one uncompressed ("stored") deflate block, RFC 1951 §3.2.4. */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block[0] = 0; // not the last block, type "stored", then padding to the byte boundary
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

/** The gzip file (RFC 1952) of the page with `nonce` in each place the render's nonce was. */
export function gzipAnswer(parts: Buffer[], deflatedParts: Buffer[], nonce: Buffer): Buffer {
  const pieces: Buffer[] = [GZIP_HEADER];
  const nonceBlock = storedBlock(nonce);
  let crc = 0;
  let length = 0;
  parts.forEach((part, index) => {
    if (index > 0) {
      pieces.push(nonceBlock);
      crc = zlib.crc32(nonce, crc);
      length += nonce.length;
    }
    pieces.push(deflatedParts[index] ?? deflatePart(part));
    crc = zlib.crc32(part, crc);
    length += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  pieces.push(LAST_BLOCK, trailer);
  return Buffer.concat(pieces);
}

export function pageCache(options: PageCacheOptions) {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxEntries = options.maxEntries ?? 5_000;
  const maxEntryBytes = options.maxEntryBytes ?? 2 * 1024 * 1024;
  const readTimeoutMs = options.readTimeoutMs ?? 1_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  // Map order is recency order: a hit moves its entry to the end, eviction takes from the start.
  const entries = new Map<string, Entry>();
  let storedBytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    storedBytes -= entry.bytes;
  }

  function store(key: string, entry: Entry) {
    remove(key);
    entries.set(key, entry);
    storedBytes += entry.bytes;
    for (const oldest of entries.keys()) {
      if (storedBytes <= maxBytes && entries.size <= maxEntries) break;
      remove(oldest);
    }
  }

  // One read at a time: requests that arrive while one is running share the next, which starts once
  // the running one is back, so every request gets a number read after it arrived (a change committed
  // before it arrived is always seen) while the database sees at most one read in flight.
  let running: Promise<number> | undefined;
  let waiting: Promise<number> | undefined;
  function read(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const reading = Promise.race([
      options.readContentVersion(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`content version not read within ${readTimeoutMs} ms`)),
          readTimeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    running = reading;
    const done = () => {
      if (running === reading) running = undefined;
    };
    reading.then(done, done);
    return reading;
  }
  function currentVersion(): Promise<number> {
    if (!running) return read();
    const ignore = () => undefined;
    waiting ??= running.then(ignore, ignore).then(() => {
      waiting = undefined;
      return read();
    });
    return waiting;
  }

  function serve(req: ExpressRequest, res: ExpressResponse, entry: Entry) {
    const nonce = Buffer.from(String(res.locals.cspNonce ?? ""));
    const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
    let body: Buffer;
    if (gzip) body = gzipAnswer(entry.parts, entry.deflatedParts, nonce);
    else {
      const pieces: Buffer[] = [];
      entry.parts.forEach((part, index) => {
        if (index > 0) pieces.push(nonce);
        pieces.push(part);
      });
      body = Buffer.concat(pieces);
    }
    for (const effect of entry.effects) {
      try {
        effect({ userAgent: req.get("user-agent") ?? null });
      } catch (error) {
        log.warn("page_cache_effect_failed", { error, path: req.path });
      }
    }
    res.status(200);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("X-Page-Cache", "hit");
    res.setHeader("Vary", "Accept-Encoding");
    if (gzip) res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }

  /** Records the answer produced downstream and stores it once complete, if it may be. */
  function capture(
    req: ExpressRequest,
    res: ExpressResponse,
    key: string,
    version: number,
    render: PageRender,
  ) {
    const headersBefore = new Set(res.getHeaderNames());
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const collect = (chunk: unknown, encoding: unknown) => {
      if (tooLarge || chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buffer =
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > maxEntryBytes) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(buffer);
    };

    const write = res.write;
    const end = res.end;
    res.write = function (this: ExpressResponse, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: ExpressResponse, chunk?: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      const entry = tooLarge ? undefined : finish();
      if (entry) store(key, entry);
      return (end as (...args: unknown[]) => ExpressResponse).call(this, chunk, ...rest);
    } as typeof res.end;
    res.setHeader("X-Page-Cache", "miss");

    function finish(): Entry | undefined {
      const cacheControl = String(res.getHeader("cache-control") ?? "");
      if (
        !render.storable ||
        res.statusCode !== 200 ||
        res.hasHeader("set-cookie") ||
        /no-store|private|no-cache/i.test(cacheControl)
      ) {
        return undefined;
      }
      const body = Buffer.concat(chunks);
      const nonce = String(res.locals.cspNonce ?? "");
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = nonce ? body.indexOf(nonce) : -1; at !== -1; at = body.indexOf(nonce, from)) {
        parts.push(body.subarray(from, at));
        from = at + nonce.length;
      }
      parts.push(body.subarray(from));
      const plain = compact(parts);
      const deflated = compact(plain.views.map(deflatePart));
      const headers: Array<[string, string]> = [];
      for (const name of res.getHeaderNames()) {
        if (headersBefore.has(name) || PER_RESPONSE_HEADERS.has(name)) continue;
        const value = res.getHeader(name);
        if (value !== undefined) headers.push([name, String(value)]);
      }
      const headerBytes = headers.reduce(
        (sum, [name, value]) => sum + name.length + value.length,
        0,
      );
      return {
        headers,
        parts: plain.views,
        deflatedParts: deflated.views,
        bytes:
          plain.bytes + deflated.bytes + key.length * 2 + headerBytes * 2 + ENTRY_OVERHEAD_BYTES,
        version,
        storedAt: Date.now(),
        effects: render.effects,
      };
    }
  }

  let lastUnavailableLog = -Infinity;

  const middleware: RequestHandler = async (req, res, next) => {
    const eligible =
      req.method === "GET" &&
      !req.headers.cookie &&
      !req.headers.authorization &&
      !/^\/admin(\/|\.data|$)/.test(req.path);
    if (!eligible) return next();

    const key = req.originalUrl;
    const entry = entries.get(key);
    let version: number;
    try {
      version = await currentVersion();
      if (entry && entry.version === version && Date.now() - entry.storedAt < maxAgeMs) {
        entries.delete(key);
        entries.set(key, entry);
        return serve(req, res, entry);
      }
    } catch (error) {
      // The database does not answer: render as if there were no cache (the page says what it can).
      // Logged once a minute at most: during an outage every request comes here.
      if (Date.now() - lastUnavailableLog >= 60_000) {
        lastUnavailableLog = Date.now();
        log.warn("page_cache_version_unavailable", { error });
      }
      // Nothing rendered now can be stored: without the version, nothing could tell when it went stale.
      return next();
    }
    remove(key);
    const render = new PageRender();
    res.locals.pageRender = render;
    capture(req, res, key, version, render);
    next();
  };

  return {
    middleware,
    /** Number of stored pages and their bytes, for tests and diagnostics. */
    size: () => ({ entries: entries.size, bytes: storedBytes }),
    clear: () => {
      entries.clear();
      storedBytes = 0;
    },
  };
}
