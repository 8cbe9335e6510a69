import { randomBytes } from "node:crypto";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq, inArray, like, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import routes from "../../app/routes";
import {
  galleries,
  galleryPhotos,
  rateLimits,
  resumableUploads,
  users,
} from "../../app/server/db/schema";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { localStorage } from "../../app/server/storage/local.server";
import { galleryPrefix } from "../../app/server/storage/keys";
import { addReadyPhoto, insertTestGallery, type TestGallery } from "../support/galleries";
import { makeTestJpeg } from "../support/photos";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  sessionCookieHeader,
  type TestAccount,
} from "../support/accounts";
import { serverDatabase, serverDataDir, serverBaseUrl } from "../support/server-under-test";

/*
 * Who may reach a client gallery (plan §12 « Authorisation », decision 0103). For every client route of the
 * route table (derived from it: a new route is checked the day it is added) and every visitor who has not
 * typed gallery A's current code — none, a forged token, gallery B's cookie, A's cookie of an older code,
 * a cookie of an expired gallery, a signed-in non-administrator — no photo of A is reachable (pages and
 * their data show neither its id nor its name, files answer 404 or 410 with no image) and every action
 * changes nothing. The administrator sees A read-only. The owner's previews, progress and uploads answer
 * only within the gallery of their address (and nothing without a session).
 */

const baseUrl = serverBaseUrl();
const authSecret = inject("authSecret");
const marker = randomBytes(4).toString("hex");
const secretName = `SECRET-${marker}.jpg`;
/** A's photo the client kept: what `?favoris=1` would put in the ZIP. */
const favouriteName = `FAVORI-${marker}.jpg`;

const store = () =>
  localStorage({
    root: path.join(serverDataDir(), "uploads"),
    partsRoot: path.join(serverDataDir(), "incoming-uploads", "parts"),
  });

let a: TestGallery;
let b: TestGallery;
let expired: TestGallery;
let photoA = "";
let photoB = "";
let photoExpired = "";
let member: TestAccount;
let admin: TestAccount;
let memberCookie = "";
let adminCookie = "";

const cookieName = (galleryId: string) => `galerie-${galleryId}`;
const token = (subject: string, secret = authSecret) =>
  signLinkTokenWith(secret, "gallery-access", subject, { lifetimeSeconds: 3600 });

beforeAll(async () => {
  const database = serverDatabase();
  a = await insertTestGallery(database, { title: `Galerie A ${marker}` });
  b = await insertTestGallery(database, { title: `Galerie B ${marker}` });
  expired = await insertTestGallery(database, { title: `Galerie expirée ${marker}` });
  const buffer = await makeTestJpeg({ index: 3, width: 800, height: 600 });
  photoA = (await addReadyPhoto(database, store(), a.id, { name: secretName, buffer })).id;
  const favourite = await addReadyPhoto(database, store(), a.id, { name: favouriteName, buffer });
  await database
    .update(galleryPhotos)
    .set({ favourite: true })
    .where(eq(galleryPhotos.id, favourite.id));
  photoB = (await addReadyPhoto(database, store(), b.id, { name: `B-${marker}.jpg`, buffer })).id;
  photoExpired = (
    await addReadyPhoto(database, store(), expired.id, { name: `E-${marker}.jpg`, buffer })
  ).id;
  await database
    .update(galleries)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(galleries.id, expired.id));
  // Signed in as an administrator, then demoted: a valid session of a non-administrator.
  member = await createAccount("admin");
  admin = await createAccount("admin");
  await clearSignInLimits(member, admin);
  memberCookie = await sessionCookieHeader(member);
  adminCookie = await sessionCookieHeader(admin);
  await database.update(users).set({ role: "user" }).where(eq(users.email, member.email));
}, 120_000);

afterAll(async () => {
  const database = serverDatabase();
  const ids = [a.id, b.id, expired.id];
  const uploads = await database
    .select({ key: resumableUploads.storageKey, storageUploadId: resumableUploads.storageUploadId })
    .from(resumableUploads)
    .where(inArray(resumableUploads.galleryId, ids));
  for (const upload of uploads) await store().abortMultipart(upload.key, upload.storageUploadId);
  await database.delete(galleries).where(inArray(galleries.id, ids));
  await database
    .delete(rateLimits)
    .where(or(...ids.map((id) => like(rateLimits.key, `galerie-code:%${id}`))));
  for (const id of ids) await store().deletePrefix(galleryPrefix(id));
  await deleteAccount(member);
  await deleteAccount(admin);
});

/** Every path of the route table under /galerie-client (as written there, with its parameters). */
function clientPaths(entries: RouteConfigEntry[] = routes): string[] {
  return entries.flatMap((entry) => [
    ...(entry.path?.startsWith("galerie-client") ? [`/${entry.path}`] : []),
    ...clientPaths(entry.children ?? []),
  ]);
}

/** A route's address for gallery `galleryId` and its photo: the page, a web size, a download, the ZIP. */
function fill(routePath: string, galleryId: string, photoId: string): string {
  return routePath
    .replace(":id", galleryId)
    .replace(":photoId", photoId)
    .replace(":file", "r1-w800.jpg");
}

const VISITOR_NAMES = [
  "sans cookie",
  "jeton forgé",
  "cookie de la galerie B (sous son nom et sous celui de A)",
  "cookie de A d'un ancien code",
  "cookie valable d'une galerie expirée",
  "compte connecté non administrateur",
];

/** The addresses of one client route to try: the page with its data and viewer, the ZIP with its query. */
function addressesOf(routePath: string, url: string, photoId: string): string[] {
  if (routePath === "/galerie-client/:id") return [url, `${url}.data`, `${url}?photo=${photoId}`];
  if (routePath.endsWith(".zip")) return [url, `${url}?favoris=1`];
  return [url];
}

/** The visitors who have not typed A's current code, and the answer A's files owe them. */
const visitors = () => [
  { name: "sans cookie", galleryId: a.id, photoId: photoA, cookie: "", status: 404 },
  {
    name: "jeton forgé",
    galleryId: a.id,
    photoId: photoA,
    cookie: `${cookieName(a.id)}=${token(`${a.id}.1`, "une-autre-clef-secrete-bien-longue-0123456789")}`,
    status: 404,
  },
  {
    name: "cookie de la galerie B (sous son nom et sous celui de A)",
    galleryId: a.id,
    photoId: photoA,
    cookie: `${cookieName(b.id)}=${token(`${b.id}.1`)}; ${cookieName(a.id)}=${token(`${b.id}.1`)}`,
    status: 404,
  },
  {
    name: "cookie de A d'un ancien code",
    galleryId: a.id,
    photoId: photoA,
    cookie: `${cookieName(a.id)}=${token(`${a.id}.0`)}`,
    status: 404,
  },
  {
    name: "cookie valable d'une galerie expirée",
    galleryId: expired.id,
    photoId: photoExpired,
    cookie: `${cookieName(expired.id)}=${token(`${expired.id}.1`)}`,
    status: 410,
  },
  {
    name: "compte connecté non administrateur",
    galleryId: a.id,
    photoId: photoA,
    cookie: memberCookie,
    status: 404,
  },
];

const send = (url: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${url}`, {
    redirect: "manual",
    ...init,
    headers: { ...(cookie ? { cookie } : {}), ...(init.headers ?? {}) },
  });

async function selectionState() {
  const [photo] = await serverDatabase()
    .select({ favourite: galleryPhotos.favourite, comment: galleryPhotos.favouriteComment })
    .from(galleryPhotos)
    .where(eq(galleryPhotos.id, photoA));
  const [gallery] = await serverDatabase()
    .select({ validatedAt: galleries.selectionValidatedAt, version: galleries.accessVersion })
    .from(galleries)
    .where(eq(galleries.id, a.id));
  return { ...photo, ...gallery };
}

const writes = (photoId: string): Record<string, string>[] => [
  { intent: "favourite", photoId, value: "1" },
  { intent: "comment", photoId, comment: "Intrusion" },
  { intent: "validate" },
];

describe("the client galleries' authorisation", () => {
  it("covers every client route of the route table, and every visitor", () => {
    expect(visitors().map((visitor) => visitor.name)).toEqual(VISITOR_NAMES);
    const paths = clientPaths();
    expect(paths).toEqual(
      expect.arrayContaining([
        "/galerie-client/:id",
        "/galerie-client/:id/photos/:photoId/:file",
        "/galerie-client/:id/telecharger/:photoId",
        "/galerie-client/:id/telecharger.zip",
      ]),
    );
  });

  it.each(VISITOR_NAMES)("shows nothing of gallery A to: %s", async (name) => {
    const visitor = visitors().find((entry) => entry.name === name);
    if (!visitor) throw new Error(name);
    const before = await selectionState();
    for (const routePath of clientPaths()) {
      const url = fill(routePath, visitor.galleryId, visitor.photoId);
      const isPage = routePath === "/galerie-client/:id";
      for (const address of addressesOf(routePath, url, visitor.photoId)) {
        // Files also asked the way a resumed download or a download manager asks.
        const asked = isPage
          ? [{ method: "GET" }]
          : [
              { method: "GET" },
              { method: "GET", headers: { Range: "bytes=0-99" } },
              { method: "HEAD" },
            ];
        for (const init of asked) {
          const what = `${init.method} ${address}${init.headers ? " Range" : ""}`;
          const response = await send(address, visitor.cookie, init);
          const body = Buffer.from(await response.arrayBuffer());
          const text = body.toString("latin1");
          expect(response.headers.get("x-robots-tag"), what).toBe("noindex, nofollow, noarchive");
          expect(response.headers.get("content-type") ?? "", what).not.toMatch(
            /^(image\/|application\/zip)/,
          );
          expect(response.headers.get("content-range"), what).toBeNull();
          // (The `?photo=` address names the id itself: its page may echo the address, nothing more.)
          if (!address.includes("?photo=")) expect(text, what).not.toContain(visitor.photoId);
          expect(text, what).not.toContain(secretName);
          expect(text, what).not.toContain(favouriteName);
          expect(text, what).not.toContain("/photos/");
          expect(text, what).not.toContain(`E-${marker}`);
          if (isPage) {
            // The page: the code form (200), or 410 once expired.
            expect(response.status, what).toBe(visitor.status === 410 ? 410 : 200);
          } else {
            expect(response.status, what).toBe(visitor.status);
            // A French page that says no more than the status (decision 0202).
            expect(response.headers.get("content-type"), what).toBe("text/html; charset=utf-8");
            if (init.method === "GET") {
              // (The body is read as latin1: « expiré » is not matched whole.)
              expect(text, what).toContain(
                visitor.status === 410 ? "Lien expir" : "Fichier introuvable",
              );
            }
            // No JPEG bytes, no ZIP bytes.
            expect(body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])), what).toBe(false);
            expect(body.subarray(0, 2).toString("latin1"), what).not.toBe("PK");
          }
        }
      }
    }
    const page = `/galerie-client/${visitor.galleryId}`;
    for (const form of writes(visitor.photoId)) {
      for (const address of [page, `${page}.data`]) {
        const response = await send(address, visitor.cookie, {
          method: "POST",
          body: new URLSearchParams(form),
        });
        expect([404, 410], `${address} ${form.intent}`).toContain(response.status);
        expect(await response.text()).not.toContain(secretName);
      }
    }
    expect(await selectionState()).toEqual(before);
  });

  it("lets an administrator see gallery A read-only, without the code", async () => {
    const before = await selectionState();
    const page = await send(`/galerie-client/${a.id}`, adminCookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Aperçu administrateur");
    expect(html).toContain(photoA);
    const file = await send(`/galerie-client/${a.id}/photos/${photoA}/r1-w800.jpg`, adminCookie);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    for (const form of writes(photoA)) {
      const response = await send(`/galerie-client/${a.id}`, adminCookie, {
        method: "POST",
        body: new URLSearchParams(form),
      });
      expect(response.status, form.intent).toBe(403);
      expect(await response.text()).toContain(
        "Aperçu administrateur : seul le client peut modifier sa sélection.",
      );
    }
    expect(await selectionState()).toEqual(before);
  });

  it("opens gallery A to its current code only, and its files to the sizes written", async () => {
    const cookie = `${cookieName(a.id)}=${token(`${a.id}.1`)}`;
    expect(
      (await send(`/galerie-client/${a.id}/photos/${photoA}/r1-w800.jpg`, cookie)).status,
    ).toBe(200);
    for (const file of [
      "r1-w960.jpg",
      "r2-w800.jpg",
      "r1-w800.png",
      "r1-w800.gif",
      "..%2Foriginal.jpg",
    ]) {
      const response = await send(`/galerie-client/${a.id}/photos/${photoA}/${file}`, cookie);
      expect(response.status, file).toBe(404);
    }
    // Another gallery's photo through A's address: 404.
    expect(
      (await send(`/galerie-client/${a.id}/photos/${photoB}/r1-w800.jpg`, cookie)).status,
    ).toBe(404);
    expect((await send(`/galerie-client/${a.id}/telecharger/${photoB}`, cookie)).status).toBe(404);
    // The favourites' ZIP holds the favourite only (what the visitors above were refused).
    const favourites = await send(`/galerie-client/${a.id}/telecharger.zip?favoris=1`, cookie);
    expect(favourites.status).toBe(200);
    expect(favourites.headers.get("content-type")).toBe("application/zip");
    const archive = Buffer.from(await favourites.arrayBuffer()).toString("latin1");
    expect(archive).toContain(favouriteName);
    expect(archive).not.toContain(secretName);
    // Downloads refused when the owner does not allow them.
    await serverDatabase()
      .update(galleries)
      .set({ downloadsAllowed: false })
      .where(eq(galleries.id, a.id));
    expect((await send(`/galerie-client/${a.id}/telecharger/${photoA}`, cookie)).status).toBe(404);
    await serverDatabase()
      .update(galleries)
      .set({ downloadsAllowed: true })
      .where(eq(galleries.id, a.id));
    expect((await send(`/galerie-client/${a.id}/telecharger/${photoA}`, cookie)).status).toBe(200);
  });

  it("answers the owner's previews, progress and uploads only within the gallery of the address", async () => {
    const preview = (galleryId: string, photoId: string) =>
      `/admin/galeries/${galleryId}/photos/${photoId}/r1-w800.jpg`;
    const own = await send(preview(b.id, photoB), adminCookie);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("image/jpeg");
    await own.arrayBuffer();
    // Gallery A's address with B's photo (and the reverse): 404, even to the signed-in owner.
    for (const address of [preview(a.id, photoB), preview(b.id, photoA)]) {
      const response = await send(address, adminCookie);
      expect(response.status, address).toBe(404);
      expect(response.headers.get("content-type") ?? "", address).not.toMatch(/^image\//);
      await response.arrayBuffer();
    }
    // A's processing state lists A's photos, never B's.
    const progress = await send(`/admin/galeries/${a.id}/progression`, adminCookie);
    expect(progress.status).toBe(200);
    const state = await progress.text();
    expect(state).toContain(photoA);
    expect(state).not.toContain(photoB);
    // Without a session, or with a non-administrator's: refused like every admin resource route.
    for (const [cookie, status] of [
      ["", 401],
      [memberCookie, 403],
    ] as const) {
      for (const address of [preview(a.id, photoA), `/admin/galeries/${a.id}/progression`]) {
        const response = await send(address, cookie);
        expect(response.status, `${address} ${cookie ? "membre" : "sans session"}`).toBe(status);
        expect(response.headers.get("content-type") ?? "", address).not.toMatch(/^image\//);
        // Signed out, a preview's refusal offers « Se connecter », back to the address asked (decision
        // 0202): that address says nothing the visitor did not send.
        const text = (await response.text()).replaceAll(encodeURIComponent(address), "");
        expect(text, address).not.toContain(photoA);
        expect(text, address).not.toContain(secretName);
      }
    }

    // An upload of gallery B, asked or continued under gallery A's id (or none): unknown, nothing received.
    const start = await send("/admin/envois", adminCookie, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        galleryId: b.id,
        name: `ENVOI-${marker}.jpg`,
        size: 3,
        type: "image/jpeg",
      }),
    });
    expect(start.status).toBe(201);
    const { uploadId } = (await start.json()) as { uploadId: string };
    for (const query of [`?galerie=${a.id}`, `?galerie=${expired.id}`, "", "?galerie="]) {
      const asked = await send(`/admin/envois/${uploadId}${query}`, adminCookie);
      expect(asked.status, `GET ${query}`).toBe(404);
      const piece = await send(
        `/admin/envois/${uploadId}${query ? `${query}&` : "?"}offset=0`,
        adminCookie,
        {
          method: "POST",
          headers: { "Content-Type": "application/octet-stream" },
          body: new Uint8Array([0xff, 0xd8, 0xff]),
        },
      );
      expect(piece.status, `POST ${query}`).toBe(404);
    }
    // The upload id where a gallery id is expected: no such gallery.
    const photoForm = new FormData();
    photoForm.append(
      "photo",
      new Blob([new Uint8Array(await makeTestJpeg({ index: 4, width: 64, height: 48 }))], {
        type: "image/jpeg",
      }),
      `FORM-${marker}.jpg`,
    );
    const form = await send(`/admin/envois/formulaire/${uploadId}`, adminCookie, {
      method: "POST",
      body: photoForm,
    });
    expect(form.status).toBe(404);
    // Under its own gallery the upload is where it was left: nothing arrived through A.
    const mine = await send(`/admin/envois/${uploadId}?galerie=${b.id}`, adminCookie);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ received: 0, size: 3, photoId: null });
    const names = await serverDatabase()
      .select({ name: galleryPhotos.originalName })
      .from(galleryPhotos)
      .where(inArray(galleryPhotos.galleryId, [a.id, b.id]));
    expect(names.filter((row) => /^(ENVOI|FORM)-/.test(row.name))).toEqual([]);
  });

  it("keeps the owner's gallery pages to administrators", async () => {
    const ownerPages = [
      `/admin/galeries/${a.id}`,
      `/admin/galeries/${a.id}.data`,
      `/admin/galeries/${a.id}/selection`,
      `/admin/galeries/${a.id}/selection.csv`,
      `/admin/galeries/${a.id}/reglages`,
      `/admin/galeries/${a.id}/envoyer`,
    ];
    // A stranger, a non-administrator, and the client holding A's code.
    for (const cookie of ["", memberCookie, `${cookieName(a.id)}=${token(`${a.id}.1`)}`]) {
      for (const address of ownerPages) {
        const response = await send(address, cookie);
        const body = Buffer.from(await response.arrayBuffer());
        expect(response.status, address).not.toBe(200);
        expect(body.toString("latin1"), address).not.toContain(secretName);
        expect(body.toString("latin1"), address).not.toContain(a.accessCode);
      }
    }
  });

  it("keeps the client galleries out of robots and the sitemap", async () => {
    expect(await (await fetch(`${baseUrl}/robots.txt`)).text()).toContain(
      "Disallow: /galerie-client/",
    );
    expect(await (await fetch(`${baseUrl}/sitemap.xml`)).text()).not.toContain("galerie-client");
  });
});
