import zlib from "node:zlib";
import type {
  Request as ExpressRequest,
  RequestHandler,
  Response as ExpressResponse,
} from "express";
import { PageRender } from "../context";
import { log } from "../logger.server";
import { withTimeout } from "../with-timeout.server";

/**
 * The page cache: public pages rendered once, then served again to every visitor without cookies.
 *
 * Rendering a page with React costs milliseconds of CPU; serving stored bytes costs microseconds. A stored
 * page is served again only while it cannot differ from a fresh render:
 * - its content: every page is stored with the content version known before its render (a number
 *   PostgreSQL raises in the same transaction as any change to the content) and served only while that
 *   number is unchanged. The number is known without a round trip while PostgreSQL notifies this process
 *   of every change (`knownContentVersion`, decision 0093); otherwise it is read with one query per request
 *   (requests that arrive while one read is running share the next one). No page is assumed not to read
 *   the database.
 * - its visitor: only GET requests without cookies or credentials are looked up or stored, and only
 *   answers 200 without `Set-Cookie`, `private` or `no-store`; the admin area never.
 * - its nonce: the Content-Security-Policy nonce of the render is cut out of the stored bytes and each
 *   answer gets the fresh nonce of its own response, so no two answers share one.
 * What a page does on each visit (counting a view) is recorded with it and repeated (`onEveryServe`).
 * Compression is done once too: each stretch between two nonces is stored gzipped, and an answer is those
 * stretches with its nonce in between (see `gzipAnswer`), instead of compressing every answer again.
 * Hits are mostly answered before Express by fast-hit.server.ts, with the same bytes and headers.
 * See docs/decisions/0006-page-cache.md and 0093-cache-without-round-trip.md.
 */

export type PageCacheOptions = {
  /** Reads the current content version (one round trip). */
  readContentVersion: () => Promise<number>;
  /**
   * The content version when it is known without a round trip (the LISTEN connection of decision 0093),
   * else undefined: then `readContentVersion` is asked.
   */
  knownContentVersion?: () => number | undefined;
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

export type CachedPage = {
  headers: Array<[string, string]>;
  /** The body cut at each occurrence of the render's nonce (views of one buffer). */
  parts: Buffer[];
  /** The whole gzip answer with room for a nonce of the render's length (see `gzipTemplate`). */
  gzip: GzipTemplate;
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

/** A gallery's photos and pages (hundreds of pieces for an hour) change no public content (decision 0101). */
const GALLERY_ADMIN = /^\/admin\/(?:envois|galeries)(?:\/|\.data$|$)/;

/**
 * Whether a request may change public content, so that the cached pages' known version is set aside until
 * it has answered (decision 0093): an administrator's write (a method other than GET, HEAD or OPTIONS under
 * /admin with a cookie), except the client galleries' admin, which changes nothing public. A visitor's form
 * (contact, newsletter) or a stranger's post never takes cached pages off the fast path.
 */
export function holdsCachedPages(method: string, path: string, hasCookie: boolean): boolean {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  if (
    !hasCookie ||
    !(path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin."))
  )
    return false;
  return !GALLERY_ADMIN.test(path);
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

// CRC-32 arithmetic (the polynomial of RFC 1952, bits reflected: bit 31 is x^0), so that the CRC of an
// answer is computed from the CRC stored with the page and the nonce alone, not from all its bytes again
// (see `answerCrc`).
const CRC_POLYNOMIAL = 0xedb88320;
const X_TO_THE_0 = 0x80000000;

/** a·b modulo the CRC polynomial. */
function multiplyModulo(a: number, b: number): number {
  let product = 0;
  for (let bit = X_TO_THE_0; bit !== 0 && (a & (bit | (bit - 1))) !== 0; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ CRC_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(8·length) modulo the CRC polynomial: what shifting a CRC past `length` bytes multiplies it by. */
function byteShift(length: number): number {
  let result = X_TO_THE_0;
  let power = 0x40000000; // x^1
  for (let bits = length * 8; bits > 0; bits = Math.floor(bits / 2)) {
    if (bits % 2 === 1) result = multiplyModulo(result, power);
    power = multiplyModulo(power, power);
  }
  return result;
}

/**
 * A page's gzip answer made once, with a hole for the nonce in each place the render's was: an answer is a
 * copy of `file` with its own nonce written into the holes and its own CRC into the trailer. Nonces have
 * one length (`securityHeaders`); an answer with another length is assembled by `gzipAnswer`.
 */
type GzipTemplate = {
  file: Buffer;
  nonceLength: number;
  /** Where the nonce goes in `file`. */
  nonceOffsets: number[];
  /** Answers already written, ready to be filled again (see `takeGzipAnswer`). */
  spare: Buffer[];
  /** Set when the page leaves the cache: its answers are not kept any more. */
  evicted: boolean;
  /** Each part deflated on its own (views of `file`). */
  deflatedParts: Buffer[];
  /** CRC-32 of the page with a nonce of zeros, and of such a nonce alone. */
  crcWithZeroNonce: number;
  zeroNonceCrc: number;
  /** Sum of x^(8·bytes after it) over the nonce's places: how a nonce's bits reach the page's CRC. */
  nonceShiftSum: number;
};

export function gzipTemplate(parts: Buffer[], nonceLength: number): GzipTemplate {
  const pieces: Buffer[] = [GZIP_HEADER];
  const nonceOffsets: number[] = [];
  const deflatedSpans: Array<[number, number]> = [];
  let offset = GZIP_HEADER.length;
  let length = 0;
  const hole = storedBlock(Buffer.alloc(nonceLength));
  parts.forEach((part, index) => {
    if (index > 0) {
      pieces.push(hole);
      nonceOffsets.push(offset + 5);
      offset += hole.length;
      length += nonceLength;
    }
    const deflated = deflatePart(part);
    pieces.push(deflated);
    deflatedSpans.push([offset, offset + deflated.length]);
    offset += deflated.length;
    length += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  pieces.push(LAST_BLOCK, trailer);
  const file = copyOf(pieces);
  const zeros = Buffer.alloc(nonceLength);
  let crcWithZeroNonce = 0;
  parts.forEach((part, index) => {
    if (index > 0) crcWithZeroNonce = zlib.crc32(zeros, crcWithZeroNonce);
    crcWithZeroNonce = zlib.crc32(part, crcWithZeroNonce);
  });
  let nonceShiftSum = 0;
  let bytesAfter = 0;
  for (const part of parts.slice(1).reverse()) {
    bytesAfter += part.length;
    nonceShiftSum ^= byteShift(bytesAfter);
    bytesAfter += nonceLength;
  }
  return {
    file,
    nonceOffsets,
    spare: [],
    evicted: false,
    nonceLength,
    deflatedParts: deflatedSpans.map(([start, end]) => file.subarray(start, end)),
    crcWithZeroNonce,
    zeroNonceCrc: zlib.crc32(zeros),
    nonceShiftSum: nonceShiftSum >>> 0,
  };
}

/** `pieces` in one buffer of exactly their size. */
function copyOf(pieces: Buffer[]): Buffer {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const file = Buffer.allocUnsafeSlow(total);
  let offset = 0;
  for (const piece of pieces) offset += piece.copy(file, offset);
  return file;
}

/** The CRC-32 of the page with `nonce` in its holes. */
function answerCrc(template: GzipTemplate, nonce: Buffer): number {
  // The CRC is affine in the nonce's bits: the CRC with a nonce of zeros, plus the nonce's own linear
  // part shifted to each of its places (the sum of those shifts is one factor, computed when stored).
  const nonceLinear = (zlib.crc32(nonce) ^ template.zeroNonceCrc) >>> 0;
  return (template.crcWithZeroNonce ^ multiplyModulo(template.nonceShiftSum, nonceLinear)) >>> 0;
}

// Answers already written are filled again rather than allocated: one page-sized buffer per answer cost a
// fifth of the CPU in garbage collection at tens of thousands of answers a second. Bounded, all pages
// together, and at most a few per page (as many as are written at the same moment).
const SPARE_ANSWER_BYTES = 4 * 1024 * 1024;
const SPARE_ANSWERS_PER_PAGE = 8;
let spareAnswerBytes = 0;

/**
 * The whole gzip answer of a stored page with `nonce`, in a buffer that belongs to the caller until it
 * hands it back with `giveBackGzipAnswer` once written (or never: it is then collected).
 */
export function takeGzipAnswer(entry: CachedPage, nonce: Buffer): Buffer {
  const template = entry.gzip;
  if (nonce.length !== template.nonceLength) {
    return gzipAnswer(entry.parts, template.deflatedParts, nonce);
  }
  let answer = template.spare.pop();
  if (answer) spareAnswerBytes -= answer.length;
  else {
    answer = Buffer.allocUnsafeSlow(template.file.length);
    template.file.copy(answer);
  }
  // Everything but the nonce and the CRC is the stored file already.
  for (const offset of template.nonceOffsets) nonce.copy(answer, offset);
  answer.writeUInt32LE(answerCrc(template, nonce), answer.length - 8);
  return answer;
}

/** An answer of `takeGzipAnswer` that the socket has written: it may be filled again. */
export function giveBackGzipAnswer(entry: CachedPage, answer: Buffer): void {
  const template = entry.gzip;
  if (
    template.evicted ||
    answer.length !== template.file.length ||
    template.spare.length >= SPARE_ANSWERS_PER_PAGE ||
    spareAnswerBytes + answer.length > SPARE_ANSWER_BYTES
  ) {
    return;
  }
  template.spare.push(answer);
  spareAnswerBytes += answer.length;
}

function forgetSpareAnswers(entry: CachedPage): void {
  entry.gzip.evicted = true;
  for (const answer of entry.gzip.spare) spareAnswerBytes -= answer.length;
  entry.gzip.spare.length = 0;
}

/** The uncompressed answer of a stored page with `nonce`. */
export function plainBody(entry: CachedPage, nonce: Buffer): Buffer {
  const pieces: Buffer[] = [];
  entry.parts.forEach((part, index) => {
    if (index > 0) pieces.push(nonce);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

/** What the page does on every visit (counting a view), as its render did. */
export function runEffects(entry: CachedPage, userAgent: string | null, path: string) {
  for (const effect of entry.effects) {
    try {
      effect({ userAgent });
    } catch (error) {
      log.warn("page_cache_effect_failed", { error, path });
    }
  }
}

export function pageCache(options: PageCacheOptions) {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxEntries = options.maxEntries ?? 5_000;
  const maxEntryBytes = options.maxEntryBytes ?? 2 * 1024 * 1024;
  const readTimeoutMs = options.readTimeoutMs ?? 1_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  // Map order is recency order: a hit moves its entry to the end, eviction takes from the start.
  const entries = new Map<string, CachedPage>();
  let storedBytes = 0;
  // The key at the end of `entries`, when known: a hit on it needs no move (a page asked for again and
  // again, as a busy page is, then costs no delete and insert of the map at each answer).
  let newest: string | undefined;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    if (key === newest) newest = undefined;
    entries.delete(key);
    storedBytes -= entry.bytes;
    forgetSpareAnswers(entry);
  }

  function store(key: string, entry: CachedPage) {
    remove(key);
    entries.set(key, entry);
    newest = key;
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
    const reading = withTimeout(options.readContentVersion(), readTimeoutMs, "content version");
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

  /** The stored page for `key` if it may be served under content `version` (and marks it recently used). */
  function lookup(key: string, version: number): CachedPage | undefined {
    const entry = entries.get(key);
    if (!entry || entry.version !== version || Date.now() - entry.storedAt >= maxAgeMs) {
      return undefined;
    }
    if (key !== newest) {
      entries.delete(key);
      entries.set(key, entry);
      newest = key;
    }
    return entry;
  }

  function serve(req: ExpressRequest, res: ExpressResponse, entry: CachedPage) {
    const nonce = Buffer.from(String(res.locals.cspNonce ?? ""));
    const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
    // A buffer of its own (not handed back: the compression middleware stands between it and the socket).
    const body = gzip ? takeGzipAnswer(entry, nonce) : plainBody(entry, nonce);
    runEffects(entry, req.get("user-agent") ?? null, req.path);
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

    function finish(): CachedPage | undefined {
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
      const gzip = gzipTemplate(plain.views, Buffer.byteLength(nonce));
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
        gzip,
        bytes:
          plain.bytes + gzip.file.length + key.length * 2 + headerBytes * 2 + ENTRY_OVERHEAD_BYTES,
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
    let version: number;
    try {
      version = options.knownContentVersion?.() ?? (await currentVersion());
      const entry = lookup(key, version);
      if (entry) return serve(req, res, entry);
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
    /**
     * The stored page for `key` when the content version is known without a round trip and the page was
     * rendered under it: what the fast path before Express serves (fast-hit.server.ts).
     */
    knownHit(key: string): CachedPage | undefined {
      const version = options.knownContentVersion?.();
      return version === undefined ? undefined : lookup(key, version);
    },
    /** Number of stored pages and their bytes, for tests and diagnostics. */
    size: () => ({ entries: entries.size, bytes: storedBytes }),
    clear: () => {
      for (const entry of entries.values()) forgetSpareAnswers(entry);
      entries.clear();
      newest = undefined;
      storedBytes = 0;
    },
  };
}
