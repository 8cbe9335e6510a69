import { Transform, type Readable } from "node:stream";
import type { Request as ExpressRequest, RequestHandler } from "express";
import { withoutControlCharacters } from "~/lib/forms";
import { discardRestOfBody, refuse } from "./refusal.server";

/**
 * The first line of defence against bad input, before any loader or action runs:
 * - the address: a path or query string holding invalid UTF-8 or control characters (NUL…) is refused
 *   with a French 400; no page can mean anything by them, and PostgreSQL refuses NUL in text.
 * - the body: limited in size per path, from `Content-Length` up front and while it arrives (413), and
 *   form posts normalised: control characters other than tab and newlines are removed from every field
 *   (a visitor's message is kept, without the byte that would make the database refuse it), bytes that
 *   are not UTF-8 become U+FFFD, and a field longer than the path allows is refused with a French 400. A
 *   body that is not a form (JSON, plain text, no type at all) is refused with a French 415: every page
 *   takes forms only, and its action would otherwise fail to read it.
 * Bodies of paths that stream (the admin's image upload) are counted as they pass, not held in memory.
 */

export type BodyLimit = {
  /** Path prefix the limit applies to ("/admin/images" also covers "/admin/images.data"). */
  path: string;
  maxBytes: number;
  /** Longest form field accepted, in characters; none when absent. */
  maxFieldLength?: number;
  /** The body is passed on as a stream (counted, not held in memory) and not normalised. */
  stream?: boolean;
  /**
   * How long a body that is read in full may take to arrive (a slow sender answered 408). Streamed bodies
   * (large uploads on a slow line) are bounded by the server's request time-out instead.
   */
  maxMilliseconds?: number;
};

export type RequestInputOptions = {
  /** The limit of paths no entry of `limits` covers. */
  defaultLimit: Omit<BodyLimit, "path">;
  /** Specific limits; the longest matching prefix wins. */
  limits: BodyLimit[];
};

/** The body as React Router's request handler should receive it. */
export type RequestBody =
  | { kind: "buffer"; bytes: Buffer; contentType: string | undefined }
  | { kind: "stream"; stream: Readable };

const bodies = new WeakMap<ExpressRequest, RequestBody>();

/** The body read (or wrapped) by `requestInput`, if it ran for this request. */
export function requestBodyOf(req: ExpressRequest): RequestBody | undefined {
  return bodies.get(req);
}

export class RequestInputError extends Error {
  readonly status: 400 | 408 | 413;
  constructor(status: 400 | 408 | 413, message: string) {
    super(message);
    this.status = status;
  }
}

const TOO_LARGE =
  "L'envoi est trop volumineux pour ce formulaire. Raccourcissez votre texte et réessayez.";
const INVALID_ADDRESS =
  "L'adresse demandée contient des caractères invalides (octets nuls, caractères de contrôle ou encodage incorrect). Vérifiez l'adresse saisie.";
const TOO_SLOW = "Le formulaire a mis trop de temps à arriver. Veuillez réessayer.";
const INVALID_FORM = "Le formulaire envoyé est illisible. Rechargez la page et réessayez.";
const NOT_A_FORM =
  "Cette adresse n'accepte que l'envoi d'un formulaire de la page. Rechargez la page et réessayez.";

function fieldTooLong(maxFieldLength: number): string {
  return `Un champ du formulaire dépasse ${maxFieldLength.toLocaleString("fr-FR")} caractères. Raccourcissez votre texte et réessayez.`;
}

// What may never appear once an address is decoded: C0 controls (NUL, but also tab and newlines, which no
// address of the site holds), DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const ADDRESS_CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;

function decodesCleanly(component: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(component.replace(/\+/g, " "));
  } catch {
    return false;
  }
  return !ADDRESS_CONTROL_CHARACTERS.test(decoded);
}

/** A path with its escapes decoded (« /%63ommande » is /commande to the router), as written when invalid. */
export function decodedPath(path: string): string {
  if (!path.includes("%")) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Whether every segment of the path and every name and value of the query decode to clean UTF-8 text. */
export function isCleanAddress(url: string): boolean {
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? "" : url.slice(queryStart + 1);
  if (!path.split("/").every(decodesCleanly)) return false;
  return query
    .split("&")
    .flatMap((pair) => pair.split("="))
    .every(decodesCleanly);
}

export function limitFor(path: string, options: RequestInputOptions): Omit<BodyLimit, "path"> {
  let best: BodyLimit | undefined;
  for (const limit of options.limits) {
    const covers =
      path === limit.path || path.startsWith(`${limit.path}/`) || path.startsWith(`${limit.path}.`);
    if (covers && (!best || limit.path.length > best.path.length)) best = limit;
  }
  return best ?? options.defaultLimit;
}

/** A pass-through stream that fails once more than `maxBytes` went through it. */
function countingStream(maxBytes: number, onTooLarge: () => void): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        onTooLarge();
        callback(new RequestInputError(413, TOO_LARGE));
      } else callback(null, chunk);
    },
  });
}

/** A form of a few hundred KB arrives in well under a second even on a poor mobile line. */
const DEFAULT_BODY_MILLISECONDS = 30_000;

/** Reads the whole body, refusing it once it exceeds `maxBytes` (413) or arrives too slowly (408). */
function readBody(req: ExpressRequest, maxBytes: number, maxMilliseconds: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const deadline = setTimeout(() => fail(new RequestInputError(408, TOO_SLOW)), maxMilliseconds);
    const fail = (error: Error) => {
      clearTimeout(deadline);
      req.off("data", onData);
      req.off("end", onEnd);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(new RequestInputError(413, TOO_LARGE));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      clearTimeout(deadline);
      resolve(Buffer.concat(chunks));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", fail);
    req.once("close", () => {
      if (!req.complete) fail(new BodyInterruptedError());
    });
  });
}

/** The client went away before its body arrived: there is nobody left to answer. */
class BodyInterruptedError extends Error {}

type FormKind = "urlencoded" | "multipart";

function formKind(contentType: string | undefined): FormKind | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  if (type === "multipart/form-data") return "multipart";
  return undefined;
}

/**
 * The form post with every text field cleaned (see the module comment), encoded again the way it came.
 * Files are kept as they are.
 */
export async function normaliseForm(
  bytes: Buffer,
  contentType: string,
  maxFieldLength: number | undefined,
): Promise<{ bytes: Buffer; contentType: string }> {
  const kind = formKind(contentType);
  let form: FormData;
  try {
    // Undici decodes bytes that are not UTF-8 (raw or percent-encoded) as U+FFFD.
    form = await new Response(new Uint8Array(bytes), {
      headers: { "Content-Type": contentType },
    }).formData();
  } catch {
    throw new RequestInputError(400, INVALID_FORM);
  }
  const cleaned: Array<[string, string | File]> = [];
  for (const [name, value] of form) {
    const cleanName = withoutControlCharacters(name);
    if (typeof value !== "string") {
      cleaned.push([cleanName, value]);
      continue;
    }
    const cleanValue = withoutControlCharacters(value);
    if (maxFieldLength !== undefined && cleanValue.length > maxFieldLength) {
      throw new RequestInputError(400, fieldTooLong(maxFieldLength));
    }
    cleaned.push([cleanName, cleanValue]);
  }
  if (kind === "urlencoded") {
    const params = new URLSearchParams();
    for (const [name, value] of cleaned) if (typeof value === "string") params.append(name, value);
    return { bytes: Buffer.from(params.toString()), contentType };
  }
  const rebuilt = new FormData();
  for (const [name, value] of cleaned) rebuilt.append(name, value);
  const encoded = new Response(rebuilt);
  return {
    bytes: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("Content-Type") ?? contentType,
  };
}

/** Refuses malformed addresses (400); see the module comment. */
export function cleanAddress(): RequestHandler {
  return (req, res, next) => {
    if (isCleanAddress(req.originalUrl)) return next();
    refuse(req, res, 400, INVALID_ADDRESS);
  };
}

/** Limits and normalises request bodies; see the module comment. */
export function requestInput(options: RequestInputOptions): RequestHandler {
  return async (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const limit = limitFor(req.path, options);
    const tooLarge = () => refuse(req, res, 413, TOO_LARGE);
    const declared = Number(req.get("content-length"));
    if (Number.isFinite(declared) && declared > limit.maxBytes) return tooLarge();
    if (limit.stream) {
      const counted = countingStream(limit.maxBytes, tooLarge);
      req.on("error", (error) => counted.destroy(error));
      bodies.set(req, { kind: "stream", stream: req.pipe(counted) });
      // Answered without reading the body (a refusal: no session, a bad piece): the rest is not kept
      // coming for the 20-minute request limit, whoever sends it.
      res.once("finish", () => discardRestOfBody(req));
      return next();
    }
    const contentType = req.get("content-type");
    if (!formKind(contentType)) return refuse(req, res, 415, NOT_A_FORM);
    try {
      const bytes = await readBody(
        req,
        limit.maxBytes,
        limit.maxMilliseconds ?? DEFAULT_BODY_MILLISECONDS,
      );
      bodies.set(req, {
        kind: "buffer",
        ...(await normaliseForm(bytes, contentType ?? "", limit.maxFieldLength)),
      });
    } catch (error) {
      if (error instanceof BodyInterruptedError) return;
      if (!(error instanceof RequestInputError)) return next(error);
      if (error.status === 413) return tooLarge();
      return refuse(req, res, error.status, error.message);
    }
    next();
  };
}
