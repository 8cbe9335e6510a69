import path from "node:path";
import { asc, eq, inArray, like, or, sql } from "drizzle-orm";
import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { afterAll } from "vitest";
import { galleries, galleryPhotos, rateLimits } from "../../app/server/db/schema";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { galleryPrefix } from "../../app/server/storage/keys";
import { localStorage } from "../../app/server/storage/local.server";
import type { SessionCookie } from "./accounts";
import { addReadyPhoto, insertTestGallery } from "./galleries";
import { fetchPage, postForm, type FetchedPage } from "./html";
import { serverAuthSecret, serverDatabase, serverDataDir } from "./server-under-test";

/**
 * The client galleries' tests, over HTTP and in the browser: the server's store, galleries made and removed
 * with their files, ready photos with their placeholder, the client's access without typing the code (the
 * code form has its own tests), and a server-rendered form submitted as a browser without JavaScript does.
 */

/** The photo store of the server under test (its DATA_DIR). */
export const serverStore = () =>
  localStorage({
    root: path.join(serverDataDir(), "uploads"),
    partsRoot: path.join(serverDataDir(), "incoming-uploads", "parts"),
  });

async function thumbhashOf(buffer: Buffer): Promise<string> {
  const { data, info } = await sharp(buffer)
    .rotate()
    .resize(100, 100, { fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
}

/** A ready photo (addReadyPhoto) with the ThumbHash placeholder the processing computes. */
export async function addReadyPhotoWithPlaceholder(
  galleryId: string,
  photo: { name: string; buffer: Buffer },
): Promise<string> {
  const { id } = await addReadyPhoto(serverDatabase(), serverStore(), galleryId, photo);
  await serverDatabase()
    .update(galleryPhotos)
    .set({ thumbhash: await thumbhashOf(photo.buffer) })
    .where(eq(galleryPhotos.id, id));
  return id;
}

/**
 * Removes test galleries with their files and the code attempts counted for them (`attemptAddresses`: the
 * per-address counters of the loopback addresses a file typed codes from, beside 127.0.0.1).
 */
export async function removeClientGalleries(
  ids: string[],
  attemptAddresses: string[] = [],
): Promise<void> {
  if (ids.length === 0) return;
  await serverDatabase().delete(galleries).where(inArray(galleries.id, ids));
  await serverDatabase()
    .delete(rateLimits)
    .where(
      or(
        ...ids.map((id) => like(rateLimits.key, `galerie-code:%${id}`)),
        ...attemptAddresses.map((address) => like(rateLimits.key, `galerie-code:${address}%`)),
      ),
    );
  for (const id of ids) await serverStore().deletePrefix(galleryPrefix(id));
}

/**
 * The galleries of a test file: `newGallery(title)` makes one, removed with its files after the file's
 * tests (call it after `useOwnServer`, whose server must outlive the removal).
 */
export function useTestGalleries() {
  const ids: string[] = [];
  afterAll(() => removeClientGalleries(ids));
  return async function newGallery(title: string): Promise<string> {
    const { id } = await insertTestGallery(serverDatabase(), { title });
    ids.push(id);
    return id;
  };
}

/** A gallery whose client's access ended a minute ago, not yet erased. */
export const insertExpiredGallery = () =>
  insertTestGallery(serverDatabase(), {
    expiresAt: new Date(Date.now() - 60_000),
    purgeAt: new Date(Date.now() + 86_400_000),
  });

/** A gallery's photos as stored, in the owner's order. */
export function storedPhotos(galleryId: string) {
  return serverDatabase()
    .select()
    .from(galleryPhotos)
    .where(eq(galleryPhotos.galleryId, galleryId))
    .orderBy(asc(galleryPhotos.position));
}

/** The preparation jobs queued for these photos (done or not). */
export async function photoJobs(photoIds: string[]): Promise<number> {
  const result = await serverDatabase().execute<{ count: string }>(
    sql`select count(*) from pgboss.job where name = 'photos' and data->>'photoId' in (${sql.join(
      photoIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return Number(result.rows[0]?.count);
}

/**
 * The cookie the code form sets for `galleryId` (the code of `accessVersion`, 1 for a new gallery), signed
 * with the server's secret as the server signs it after the right code.
 */
export function clientAccessCookie(galleryId: string, accessVersion = 1): SessionCookie {
  return {
    name: `galerie-${galleryId}`,
    value: signLinkTokenWith(
      serverAuthSecret(),
      "gallery-access",
      `${galleryId}.${accessVersion}`,
      {
        lifetimeSeconds: 3600,
      },
    ),
  };
}

/** The same cookie as a Cookie header, for fetch(). */
export const clientAccessHeader = (galleryId: string, accessVersion = 1) => {
  const { name, value } = clientAccessCookie(galleryId, accessVersion);
  return `${name}=${value}`;
};

/** The value a browser would send for a form field as the server rendered it (null: not sent). */
function renderedValue(field: Element): string | null {
  if (field.tagName === "TEXTAREA") return field.textContent ?? "";
  if (field.tagName === "SELECT") {
    const option = field.querySelector("option[selected]") ?? field.querySelector("option");
    return option?.getAttribute("value") ?? option?.textContent ?? "";
  }
  const type = field.getAttribute("type");
  if (type === "checkbox" || type === "radio") {
    return field.hasAttribute("checked") ? (field.getAttribute("value") ?? "on") : null;
  }
  return field.getAttribute("value") ?? "";
}

/**
 * What a browser without JavaScript sends when `button` is pressed on the server-rendered page at `page`:
 * the fields of its form as rendered, with `changes` typed over them (null: a box unticked), and the
 * button's own name and value, to the form's action (the page itself when it has none).
 */
export function submitButton(
  button: Element | null | undefined,
  page: string,
  options: { cookie?: string; changes?: Record<string, string | null> } = {},
): Promise<FetchedPage> {
  const form = button?.closest("form");
  if (!button || !form) throw new Error(`no form around the button on ${page}`);
  const changes = options.changes ?? {};
  const fields = new URLSearchParams();
  for (const field of form.querySelectorAll("input[name], textarea[name], select[name]")) {
    const name = field.getAttribute("name") ?? "";
    const value = name in changes ? changes[name] : renderedValue(field);
    if (value !== null && value !== undefined) fields.set(name, value);
  }
  for (const [name, value] of Object.entries(changes)) {
    if (!fields.has(name) && value !== null) fields.set(name, value);
  }
  const buttonName = button.getAttribute("name");
  if (buttonName) fields.set(buttonName, button.getAttribute("value") ?? "");
  const target = new URL(form.getAttribute("action") ?? page, new URL(page, "http://site"));
  if ((form.getAttribute("method") ?? "get").toLowerCase() === "post") {
    return postForm(`${target.pathname}${target.search}`, fields, { cookie: options.cookie });
  }
  return fetchPage(`${target.pathname}?${fields}`, { cookie: options.cookie });
}
