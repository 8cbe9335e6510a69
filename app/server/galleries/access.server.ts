import { randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { formatDateFr } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { db } from "../db/client.server";
import { galleries } from "../db/schema";
import { env } from "../env.server";
import { refuse } from "~/lib/file-refusal";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit.server";
import { signLinkToken, verifyLinkToken } from "../signed-link.server";

/*
 * Who may see a client gallery (decision 0103). The address carries an unguessable id; the access code is
 * the second factor, typed once: the browser then holds a signed cookie naming the gallery and the code's
 * version (a new code voids every cookie). The cookie's path is /galerie-client, not the gallery's own
 * address: React Router's data requests (/galerie-client/{id}.data) would not carry a narrower one. Its
 * name holds the id, so a client of two galleries keeps both.
 */

/** No 0/O, 1/I/L: a code read on the phone is typed right. 31⁸ ≈ 8.5 × 10¹¹ codes. */
export const ACCESS_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const ACCESS_CODE_LENGTH = 8;

export function generateAccessCode(): string {
  return Array.from(
    { length: ACCESS_CODE_LENGTH },
    () => ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)],
  ).join("");
}

/** What the person typed, as stored: upper case, without spaces or dashes. */
export function normaliseAccessCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]+/g, "");
}

/** A code as shown to people: K7PM-4QXT. */
export function formatAccessCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Compares in constant time (for codes of the same length). */
export function accessCodeMatches(typed: string, stored: string): boolean {
  const given = Buffer.from(normaliseAccessCode(typed));
  const expected = Buffer.from(stored);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const GALLERY_COOKIE_PATH = "/galerie-client";
export const galleryCookieName = (galleryId: string) => `galerie-${galleryId}`;

/** A client stays signed in to a gallery this long at most (and never past its expiry). */
const ACCESS_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export type GalleryRow = typeof galleries.$inferSelect;

/** The Set-Cookie header that opens `gallery` to this browser (after the right code). */
export async function galleryAccessCookie(gallery: GalleryRow, now = Date.now()): Promise<string> {
  const lifetimeSeconds = Math.max(
    1,
    Math.min(ACCESS_LIFETIME_SECONDS, Math.floor((gallery.expiresAt.getTime() - now) / 1000)),
  );
  const token = await signLinkToken("gallery-access", `${gallery.id}.${gallery.accessVersion}`, {
    lifetimeSeconds,
    now,
  });
  return [
    `${galleryCookieName(gallery.id)}=${token}`,
    `Max-Age=${lifetimeSeconds}`,
    `Path=${GALLERY_COOKIE_PATH}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(env().SITE_URL.startsWith("https://") ? ["Secure"] : []),
  ].join("; ");
}

/** The gallery of a client address, unless the id is malformed, unknown, or the gallery is being deleted. */
export async function findClientGallery(galleryId: string): Promise<GalleryRow | null> {
  if (!isUuid(galleryId)) return null;
  const [row] = await db()
    .select()
    .from(galleries)
    .where(and(eq(galleries.id, galleryId), isNull(galleries.deletingAt)));
  return row ?? null;
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      // A malformed escape is no token: the same answer as no cookie, never an error page.
      return null;
    }
  }
  return null;
}

/** True when this browser typed the gallery's current code (its cookie is valid for this version). */
export async function hasGalleryCookie(request: Request, gallery: GalleryRow): Promise<boolean> {
  const check = await verifyLinkToken(
    "gallery-access",
    cookieValue(request, galleryCookieName(gallery.id)),
  );
  return check.ok && check.subject === `${gallery.id}.${gallery.accessVersion}`;
}

export const isExpired = (gallery: GalleryRow, now = new Date()) => gallery.expiresAt <= now;

/** The expiry as the client reads it (the last day the gallery opens). */
export function expiryDay(gallery: Pick<GalleryRow, "expiresAt">): string {
  return formatDateFr(new Date(gallery.expiresAt.getTime() - 1000));
}

/**
 * For the routes of a gallery's files (photos, downloads, ZIP): the gallery when this browser holds its
 * code, or when `allowAdmin` finds an administrator (the owner's « Voir comme le client »). Otherwise a 404
 * that says nothing of whether the gallery exists; 410 once it has expired (the French pages of decision
 * 0202, the routes being `fileRoute`s).
 */
export async function requireGalleryFileAccess(
  request: Request,
  galleryId: string,
  options: { allowAdmin?: boolean } = {},
): Promise<GalleryRow> {
  const gallery = await findClientGallery(galleryId);
  if (!gallery) throw refuse(404);
  const granted =
    (await hasGalleryCookie(request, gallery)) ||
    (options.allowAdmin === true && (await isAdministrator(request)));
  if (!granted) throw refuse(404);
  if (isExpired(gallery)) throw refuse(410, "Cette galerie a expiré.");
  return gallery;
}

async function isAdministrator(request: Request): Promise<boolean> {
  const { getAdmin } = await import("../admin/guard.server");
  return (await getAdmin(request)) !== null;
}

/**
 * Attempts at a gallery's code, counted before the comparison (every attempt counts, right or wrong): one
 * browser on one gallery, one address across galleries (guessing ids and codes), and one gallery from
 * anywhere (a botnet: the real client then waits too, and the message says when to try again).
 */
export const CODE_ATTEMPT_LIMITS = {
  perClientAndGallery: { limit: 8, windowSeconds: 15 * 60 },
  perClient: { limit: 30, windowSeconds: 60 * 60 },
  perGallery: { limit: 100, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export const codeAttemptKeys = (client: string, galleryId: string) => ({
  perClientAndGallery: `galerie-code:${client}:${galleryId}`,
  perClient: `galerie-code:${client}`,
  perGallery: `galerie-code:${galleryId}`,
});

/**
 * Counts one attempt; refused (with the seconds to wait) when a limit is passed. The gallery's own counter
 * only counts attempts its client's limits let through: one address hammering the form is stopped by its
 * own limits and cannot keep the gallery locked for its real client.
 */
export async function consumeCodeAttempt(
  client: string,
  galleryId: string,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const keys = codeAttemptKeys(client, galleryId);
  const own = await Promise.all([
    consumeRateLimit(keys.perClientAndGallery, CODE_ATTEMPT_LIMITS.perClientAndGallery),
    consumeRateLimit(keys.perClient, CODE_ATTEMPT_LIMITS.perClient),
  ]);
  const results = own.every((result) => result.allowed)
    ? [...own, await consumeRateLimit(keys.perGallery, CODE_ATTEMPT_LIMITS.perGallery)]
    : own;
  const refused = results.filter((result) => !result.allowed);
  return {
    allowed: refused.length === 0,
    retryAfterSeconds: Math.max(0, ...refused.map((result) => result.retryAfterSeconds)),
  };
}

/** « Trop de tentatives. Réessayez dans N minutes. » */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Trop de tentatives. Réessayez dans ${minutes} minute${minutes > 1 ? "s" : ""}.`;
}

export const WRONG_CODE_MESSAGE =
  "Code d'accès incorrect. Vérifiez le code à 8 caractères reçu par e-mail.";
export { MISSING_GALLERY_MESSAGE } from "~/lib/gallery-texts";

/** How this request may see a gallery: as its client (the cookie), as an administrator (read-only), or not. */
export async function clientGalleryViewer(
  request: Request,
  gallery: GalleryRow,
): Promise<"client" | "admin" | null> {
  if (await hasGalleryCookie(request, gallery)) return "client";
  if (await isAdministrator(request)) return "admin";
  return null;
}
