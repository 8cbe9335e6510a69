import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "./auth/auth.server";

/*
 * Tokens of e-mailed links (newsletter confirmation, unsubscribe): what the link is for, whom it is about
 * and until when, signed with a key derived from the session secret. Nothing is stored: a token cannot be
 * forged, nor used for another purpose or another subscriber, and the address of the person is not in it.
 */

/**
 * `gallery-access`: the cookie a client receives after the access code of a gallery (not a link).
 * `first-administrator`: the link the server prints at start while the site has no administrator.
 * `backup-download`: a backup's download link on /admin/sauvegardes (one administrator, ten minutes).
 * `backup-monthly`: the latest backup's link e-mailed each month (one administrator, 7 days; decision 0139).
 */
export type LinkPurpose =
  | "newsletter-confirm"
  | "newsletter-unsubscribe"
  | "gallery-access"
  | "first-administrator"
  | "backup-download"
  | "backup-monthly";

type Payload = { p: LinkPurpose; s: string; e?: number };

/** The links' own key, derived from the session secret (a token is no use as a session, nor the reverse). */
function keyOf(secret: string): Buffer {
  return createHmac("sha256", secret).update("studio e-mailed links").digest();
}

const holder = globalThis as typeof globalThis & { __studioLinkKey?: Promise<Buffer> };

/** This process's links' key (its secret is read once: see authSecret). */
function key(): Promise<Buffer> {
  holder.__studioLinkKey ??= authSecret().then(keyOf, (error: unknown) => {
    holder.__studioLinkKey = undefined;
    throw error;
  });
  return holder.__studioLinkKey;
}

function signature(secretKey: Buffer, body: string): Buffer {
  return createHmac("sha256", secretKey).update(body).digest();
}

type SignOptions = { lifetimeSeconds?: number; now?: number };

function signedToken(
  secretKey: Buffer,
  purpose: LinkPurpose,
  subject: string,
  { lifetimeSeconds, now = Date.now() }: SignOptions,
): string {
  const payload: Payload = { p: purpose, s: subject };
  if (lifetimeSeconds !== undefined) payload.e = Math.floor(now / 1000) + lifetimeSeconds;
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${signature(secretKey, body).toString("base64url")}`;
}

/**
 * A token for `subject` signed with `secret` (the server's AUTH_SECRET): what signLinkToken does, without
 * reading the secret, for whoever holds it (a test that plays a subscriber's mailbox).
 */
export function signLinkTokenWith(
  secret: string,
  purpose: LinkPurpose,
  subject: string,
  options: SignOptions = {},
): string {
  return signedToken(keyOf(secret), purpose, subject, options);
}

/** A token for `subject` (an id), valid `lifetimeSeconds` when given, else for as long as the secret. */
export async function signLinkToken(
  purpose: LinkPurpose,
  subject: string,
  options: SignOptions = {},
): Promise<string> {
  return signedToken(await key(), purpose, subject, options);
}

export type LinkTokenCheck =
  { ok: true; subject: string } | { ok: false; reason: "invalid" | "expired" };

/** Reads a token made by signLinkToken for `purpose`; anything else, or a late one, is refused. */
export async function verifyLinkToken(
  purpose: LinkPurpose,
  token: string | null | undefined,
  now = Date.now(),
): Promise<LinkTokenCheck> {
  if (!token || token.length > 600) return { ok: false, reason: "invalid" };
  const [body, given, ...rest] = token.split(".");
  if (!body || !given || rest.length > 0) return { ok: false, reason: "invalid" };
  const expected = signature(await key(), body);
  const provided = Buffer.from(given, "base64url");
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
    return { ok: false, reason: "invalid" };
  }
  let payload: Partial<Payload>;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<Payload>;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (payload.p !== purpose || typeof payload.s !== "string")
    return { ok: false, reason: "invalid" };
  if (typeof payload.e === "number" && payload.e * 1000 < now)
    return { ok: false, reason: "expired" };
  return { ok: true, subject: payload.s };
}
