import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { insertTestGallery } from "../../../tests/support/galleries";
import { formatSize } from "~/lib/sizes";
import { db } from "../db/client.server";
import { galleries, galleryPhotos } from "../db/schema";
import { signLinkToken } from "../signed-link.server";
import {
  accessCodeMatches,
  CODE_ATTEMPT_LIMITS,
  consumeCodeAttempt,
  findClientGallery,
  galleryAccessCookie,
  galleryCookieName,
  hasGalleryCookie,
  normaliseAccessCode,
  requireGalleryFileAccess,
  tooManyAttemptsMessage,
} from "./access.server";
import { setComment, setFavourite, validateSelection } from "./client.server";
import { selectionEmail, selectionReceiptEmail } from "./emails.server";

useAppDatabase({ jobs: true });

/*
 * Who may see a client gallery (decision 0103): the code as typed, the three limits on attempts, and the
 * signed cookie (one gallery, one code version, never past the expiry).
 */

async function row(galleryId: string) {
  const gallery = await findClientGallery(galleryId);
  if (!gallery) throw new Error("galerie absente");
  return gallery;
}

/** A request carrying the Set-Cookie's value (as the browser sends it back). */
const withCookie = (setCookie: string, rename?: string) => {
  const pair = setCookie.split(";")[0] ?? "";
  const value = pair.slice(pair.indexOf("=") + 1);
  const name = rename ?? pair.slice(0, pair.indexOf("="));
  return new Request("http://localhost/galerie-client/x", {
    headers: { Cookie: `${name}=${value}` },
  });
};

const photoRow = async (galleryId: string, name: string) => {
  const [photo] = await db()
    .insert(galleryPhotos)
    .values({
      galleryId,
      position: 1,
      originalName: name,
      sourceExtension: "jpg",
      status: "ready",
      width: 1600,
      height: 1067,
      widths: [480, 960, 1600],
      variantRevision: 1,
    })
    .returning({ id: galleryPhotos.id });
  if (!photo) throw new Error("photo absente");
  return photo.id;
};

describe("the access code", () => {
  it("is read whatever the case, spaces and dashes, and compared whole", () => {
    expect(normaliseAccessCode(" k7pm-4qxt ")).toBe("K7PM4QXT");
    expect(accessCodeMatches("k7pm 4qxt", "K7PM4QXT")).toBe(true);
    expect(accessCodeMatches("K7PM-4QXT", "K7PM4QXT")).toBe(true);
    expect(accessCodeMatches("K7PM-4QXZ", "K7PM4QXT")).toBe(false);
    expect(accessCodeMatches("K7PM4QX", "K7PM4QXT")).toBe(false);
    expect(accessCodeMatches("", "K7PM4QXT")).toBe(false);
  });

  // One size format for the product (decision 0139): binary units, a non-breaking space before the unit.
  it("gives download sizes in French units", () => {
    expect(formatSize(350 * 1024 * 1024)).toBe("350\u00a0Mo");
    expect(formatSize(2_140_000_000)).toBe("2\u00a0Go");
    expect(formatSize(812)).toBe("812\u00a0octets");
  });

  it("says how long to wait, in minutes", () => {
    expect(tooManyAttemptsMessage(30)).toBe("Trop de tentatives. Réessayez dans 1 minute.");
    expect(tooManyAttemptsMessage(840)).toBe("Trop de tentatives. Réessayez dans 14 minutes.");
  });
});

describe("attempts at a code", () => {
  it("allow 8 per browser and gallery in 15 minutes, then refuse with the time to wait", async () => {
    const a = await insertTestGallery(db());
    const b = await insertTestGallery(db());
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect((await consumeCodeAttempt("10.0.0.1", a.id)).allowed).toBe(true);
    }
    const refused = await consumeCodeAttempt("10.0.0.1", a.id);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(800);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(900);
    // Another gallery from the same address, and the same gallery from another address, go on.
    expect((await consumeCodeAttempt("10.0.0.1", b.id)).allowed).toBe(true);
    expect((await consumeCodeAttempt("10.0.0.2", a.id)).allowed).toBe(true);
  });

  it("allow 30 per address in an hour across galleries (guessing ids and codes)", async () => {
    const ids = await Promise.all(
      Array.from({ length: 8 }, async () => (await insertTestGallery(db())).id),
    );
    let allowed = 0;
    for (let attempt = 0; attempt < 31; attempt++) {
      const result = await consumeCodeAttempt("10.0.1.1", ids[attempt % ids.length] ?? "");
      if (result.allowed) allowed++;
      else expect(result.retryAfterSeconds).toBeGreaterThan(3500);
    }
    expect(allowed).toBe(CODE_ATTEMPT_LIMITS.perClient.limit);
  });

  it("allow 100 per gallery in an hour from anywhere (a botnet), the real client then waits too", async () => {
    const gallery = await insertTestGallery(db());
    for (let attempt = 0; attempt < 100; attempt++) {
      expect((await consumeCodeAttempt(`10.1.${attempt}.1`, gallery.id)).allowed).toBe(true);
    }
    expect((await consumeCodeAttempt("10.2.0.1", gallery.id)).allowed).toBe(false);
  });

  it("do not let one address keep a gallery locked: its refused attempts are not the gallery's", async () => {
    const gallery = await insertTestGallery(db());
    for (let attempt = 0; attempt < 150; attempt++)
      await consumeCodeAttempt("10.3.0.1", gallery.id);
    expect((await consumeCodeAttempt("10.3.0.1", gallery.id)).allowed).toBe(false);
    expect((await consumeCodeAttempt("10.4.0.1", gallery.id)).allowed).toBe(true);
  });
});

describe("the gallery's cookie", () => {
  it("opens its gallery only, for its code version, never past the expiry", async () => {
    const a = await row((await insertTestGallery(db())).id);
    const b = await row((await insertTestGallery(db())).id);
    const cookie = await galleryAccessCookie(a);
    expect(cookie).toMatch(
      new RegExp(
        `^${galleryCookieName(a.id)}=[^;]+; Max-Age=\\d+; Path=/galerie-client; HttpOnly; SameSite=Lax`,
      ),
    );
    expect(await hasGalleryCookie(withCookie(cookie), a)).toBe(true);
    await expect(requireGalleryFileAccess(withCookie(cookie), a.id)).resolves.toMatchObject({
      id: a.id,
    });

    // A's token under B's name, or no cookie, or a forged token: nothing.
    expect(await hasGalleryCookie(withCookie(cookie, galleryCookieName(b.id)), b)).toBe(false);
    expect(await hasGalleryCookie(new Request("http://localhost/"), a)).toBe(false);
    expect(await hasGalleryCookie(withCookie(`${galleryCookieName(a.id)}=forged.token`), a)).toBe(
      false,
    );
    // A malformed escape in the cookie: no token, not an error.
    expect(await hasGalleryCookie(withCookie(`${galleryCookieName(a.id)}=%E0%A4%A`), a)).toBe(
      false,
    );
    const otherPurpose = await signLinkToken("newsletter-confirm", `${a.id}.${a.accessVersion}`);
    expect(
      await hasGalleryCookie(withCookie(`${galleryCookieName(a.id)}=${otherPurpose}`), a),
    ).toBe(false);
    await expect(
      requireGalleryFileAccess(new Request("http://localhost/"), a.id),
    ).rejects.toMatchObject({ init: { status: 404 } });

    // A new code voids it.
    await db()
      .update(galleries)
      .set({ accessVersion: sql`${galleries.accessVersion} + 1` })
      .where(eq(galleries.id, a.id));
    expect(await hasGalleryCookie(withCookie(cookie), await row(a.id))).toBe(false);

    // Expired: 410 even with a valid cookie; being deleted: 404.
    const c = await row((await insertTestGallery(db())).id);
    const cCookie = await galleryAccessCookie(c);
    await db()
      .update(galleries)
      .set({ expiresAt: new Date(Date.now() - 1000), purgeAt: new Date(Date.now() + 1000) })
      .where(eq(galleries.id, c.id));
    await expect(requireGalleryFileAccess(withCookie(cCookie), c.id)).rejects.toMatchObject({
      init: { status: 410 },
    });
    await db().update(galleries).set({ deletingAt: new Date() }).where(eq(galleries.id, c.id));
    await expect(requireGalleryFileAccess(withCookie(cCookie), c.id)).rejects.toMatchObject({
      init: { status: 404 },
    });
    await expect(requireGalleryFileAccess(withCookie(cookie), "pas-un-uuid")).rejects.toMatchObject(
      {
        init: { status: 404 },
      },
    );
  });

  it("lasts until the expiry when that comes before 30 days", async () => {
    const soon = await row(
      (await insertTestGallery(db(), { expiresAt: new Date(Date.now() + 3600_000) })).id,
    );
    const maxAge = Number(/Max-Age=(\d+)/.exec(await galleryAccessCookie(soon))?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
  });
});

describe("the selection", () => {
  it("is written until validated, then locked; the studio's e-mail and the client's receipt are queued with the lock", async () => {
    const gallery = await insertTestGallery(db());
    const other = await insertTestGallery(db());
    const first = await photoRow(gallery.id, "IMG_0001.jpg");
    const second = await photoRow(gallery.id, "IMG_0002.jpg");
    const foreign = await photoRow(other.id, "IMG_0099.jpg");

    expect(await setFavourite(gallery.id, first, true)).toBe("done");
    expect(await setComment(gallery.id, second, "  En noir et blanc ?  ")).toBe("done");
    expect(await setFavourite(gallery.id, foreign, true)).toBe("unknown-photo");
    const [foreignRow] = await db()
      .select()
      .from(galleryPhotos)
      .where(eq(galleryPhotos.id, foreign));
    expect(foreignRow?.favourite).toBe(false);

    expect(await validateSelection(gallery.id)).toEqual({ count: 2 });
    expect(await validateSelection(gallery.id)).toBeNull();
    expect(await setFavourite(gallery.id, first, false)).toBe("locked");
    expect(await setComment(gallery.id, first, "trop tard")).toBe("locked");
    const rows = await db()
      .select({ favourite: galleryPhotos.favourite, comment: galleryPhotos.favouriteComment })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, gallery.id))
      .orderBy(galleryPhotos.originalName);
    expect(rows).toEqual([
      { favourite: true, comment: null },
      { favourite: true, comment: "En noir et blanc ?" },
    ]);

    const jobs = await db().execute<{ data: unknown }>(
      sql`select data from pgboss.job where name = 'mail' and data->>'galleryId' = ${gallery.id} order by data->>'kind'`,
    );
    // The client's receipt (decision 0134) with the studio's e-mail, once, however often she presses.
    expect(jobs.rows.map((job) => job.data)).toEqual([
      { kind: "gallery-selection", galleryId: gallery.id },
      { kind: "gallery-selection-receipt", galleryId: gallery.id },
    ]);
    const mail = await selectionEmail(gallery.id);
    expect(mail?.subject).toBe("Sélection reçue : Séance en famille (2 photos)");
    expect(mail?.text).toContain("IMG_0001.jpg, IMG_0002.jpg");
    expect(mail?.text).toContain("- IMG_0002.jpg : En noir et blanc ?");
    expect(mail?.text).toContain(`/admin/galeries/${gallery.id}/selection`);

    const receipt = await selectionReceiptEmail(gallery.id);
    expect(receipt?.to).toBe("julie.martin@example.test");
    expect(receipt?.subject).toBe("Votre sélection est bien arrivée : Séance en famille");
    expect(receipt?.text).toContain("Nous avons bien reçu votre sélection de 2 photos");
    expect(receipt?.text).toContain("- IMG_0001.jpg\n- IMG_0002.jpg : En noir et blanc ?");
    expect(receipt?.text).toContain(`/galerie-client/${gallery.id}`);
    expect(receipt?.html).toContain("IMG_0002.jpg : En noir et blanc ?");
  });

  it("sends no receipt when the selection was reopened before the e-mail left", async () => {
    const gallery = await insertTestGallery(db());
    await setFavourite(gallery.id, await photoRow(gallery.id, "IMG_0003.jpg"), true);
    expect(await validateSelection(gallery.id)).toEqual({ count: 1 });
    await db()
      .update(galleries)
      .set({ selectionValidatedAt: null })
      .where(eq(galleries.id, gallery.id));
    expect(await selectionReceiptEmail(gallery.id)).toBeNull();
  });
});
