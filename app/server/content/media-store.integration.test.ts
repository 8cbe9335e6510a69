import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { ImageRejectedError } from "../images/uploads.server";
import { db } from "../db/client.server";
import { media } from "../db/schema";
import {
  ContentError,
  documentSubject,
  listRevisions,
  listStudios,
  loadDocument,
  saveDocument,
  setStudioRetired,
} from "./content-store.server";
import {
  assignSlot,
  deleteMedia,
  listLibrary,
  mediaDirectory,
  mediaUsage,
  storeMedia,
  updateMedia,
} from "./media-store.server";

// Uploads go to a folder of this file's own (env() reads DATA_DIR once, on first use).
const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/media-store-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase();
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const owner = { id: "", name: "Camille" };

async function incoming(bytes: Buffer): Promise<string> {
  // In the file's own folder: an upload the library refuses stays where it was, and goes with the folder.
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, `upload-${Date.now()}-${Math.random()}.part`);
  await fs.writeFile(file, bytes);
  return file;
}

/** A red 3000×2000 JPEG as a phone writes it: turned (orientation 6) and with GPS and camera metadata. */
function cameraJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 3000, height: 2000, channels: 3, background: { r: 200, g: 30, b: 40 } },
  })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: "Appareil", Model: "Secret", Copyright: "Propriétaire" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 32/1 0/1" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

async function storedFiles(file: string): Promise<string[]> {
  const names = await fs.readdir(mediaDirectory()).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(`${file}-`)).sort();
}

describe("the media library", () => {
  it("stores an upload upright, without metadata, at every width up to its own, with size and colour", async () => {
    const upload = await incoming(await cameraJpeg());
    const id = await storeMedia(
      { name: "IMG_0042.JPG", path: upload },
      { alt: "Portrait de famille au studio", focal: { x: 30, y: 70 } },
    );
    const [row] = await db().select().from(media).where(eq(media.id, id));
    expect(row).toMatchObject({
      builtin: null,
      width: 1600,
      height: 2400,
      widths: [400, 800, 1280, 1600],
      alt: "Portrait de famille au studio",
      focalX: 30,
      focalY: 70,
      originalName: "IMG_0042.JPG",
    });
    expect(row?.colour).toMatch(/^#[0-9a-f]{6}$/);
    const [r = 0, g = 0] = [1, 3].map((start) =>
      parseInt(row?.colour.slice(start, start + 2) ?? "", 16),
    );
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(80);
    const file = row?.file ?? "";
    expect(await storedFiles(file)).toEqual(
      [400, 800, 1280, 1600]
        .flatMap((width) => ["avif", "jpg", "webp"].map((format) => `${file}-${width}.${format}`))
        .sort(),
    );
    const largest = await sharp(path.join(mediaDirectory(), `${file}-1600.jpg`)).metadata();
    expect(largest).toMatchObject({ width: 1600, height: 2400 });
    expect(largest.exif).toBeUndefined();
    expect(largest.orientation).toBeUndefined();
    const avif = await sharp(path.join(mediaDirectory(), `${file}-400.avif`)).metadata();
    expect(avif).toMatchObject({ width: 400, height: 600, compression: "av1" });

    expect(await updateMedia(id, { alt: "Nouvelle description", focal: { x: 50, y: 10 } })).toBe(
      true,
    );
    const library = await listLibrary();
    expect(library[0]).toMatchObject({
      id,
      alt: "Nouvelle description",
      focal: { x: 50, y: 10 },
      demo: false,
    });
    expect(library[0]?.picture?.sources.avif).toContain(`/uploads/media/${file}-1600.avif 1600w`);
  });

  it("refuses a file that is not an image with the blog's French message, storing nothing", async () => {
    const before = (await listLibrary()).length;
    const upload = await incoming(Buffer.from("ceci n'est pas une photo"));
    const attempt = storeMedia(
      { name: "photo.jpg", path: upload },
      { alt: "x", focal: { x: 50, y: 50 } },
    );
    await expect(attempt).rejects.toBeInstanceOf(ImageRejectedError);
    await expect(attempt).rejects.toThrow("Le fichier n'est pas une image valide.");
    expect(await listLibrary()).toHaveLength(before);
  });

  it("says where each photo is used, in the owner's words, retired studios included", async () => {
    const pagePhotos = await loadDocument("pagePhotos");
    const gallery = await loadDocument("gallery");
    const gifts = await loadDocument("giftSessions");
    const [brive] = (await listStudios()).filter((studio) => studio.slug === "brive");
    const usage = await mediaUsage();
    expect(usage.get(pagePhotos.slots["accueil.hero"])).toContain("Accueil : grande photo");
    expect(usage.get(pagePhotos.slots["scolaire.hero"])).toEqual([
      "Professionnels : carte Scolaire",
      "Scolaire : grande photo",
    ]);
    expect(usage.get(gallery.items[0]?.photo ?? "")).toEqual([
      "Galerie : Mariage de Camille et Thomas",
    ]);
    expect(usage.get(gifts.sessions[0]?.photo ?? "")).toContain(
      `Séances à offrir : ${gifts.sessions[0]?.title}`,
    );
    expect(usage.get(brive?.data.photo ?? "")).toContain(brive?.data.name);

    await setStudioRetired(brive?.id ?? "", true);
    expect((await mediaUsage()).get(brive?.data.photo ?? "")).toContain(
      `${brive?.data.name} (retiré)`,
    );
    await setStudioRetired(brive?.id ?? "", false);
  });

  it("puts a photo in a slot with a revision, and deletes a photo (and its files) only once unused", async () => {
    const upload = await incoming(await cameraJpeg());
    const id = await storeMedia(
      { name: "a.jpg", path: upload },
      { alt: "Classe", focal: { x: 50, y: 50 } },
    );
    const [row] = await db().select().from(media).where(eq(media.id, id));
    const previous = (await loadDocument("pagePhotos")).slots["scolaire.hero"];

    expect(await assignSlot("page:scolaire.hero", id, owner)).toBe("Scolaire : grande photo");
    expect((await loadDocument("pagePhotos")).slots["scolaire.hero"]).toBe(id);
    const [revision] = await listRevisions(documentSubject("pagePhotos"));
    expect(revision).toMatchObject({
      authorName: "Camille",
      summary: "Scolaire : grande photo : photo remplacée",
    });
    expect(await deleteMedia(id)).toEqual({ status: "used", usage: ["Scolaire : grande photo"] });
    // A demo photo in use is kept as well.
    expect(await deleteMedia(previous)).toMatchObject({ status: "used" });

    await assignSlot("page:scolaire.hero", previous, owner);
    expect(await deleteMedia(id)).toEqual({ status: "deleted" });
    expect(await storedFiles(row?.file ?? "")).toEqual([]);
    expect(await deleteMedia(id)).toEqual({ status: "missing" });
    // The history still names it: bringing that version back is refused, in French.
    await expect(assignSlot("page:scolaire.hero", id, owner)).rejects.toBeInstanceOf(ContentError);
  });

  it("refuses slot keys that name nothing", async () => {
    const [photo] = await listLibrary();
    for (const key of ["page:inconnu", "galerie:999", "style:boudoir:0", "studio:x", "autre"]) {
      await expect(assignSlot(key, photo?.id ?? "", owner), key).rejects.toBeInstanceOf(
        ContentError,
      );
    }
  });

  it("never leaves a slot naming a deleted photo when a write and a delete cross", async () => {
    for (let round = 0; round < 4; round++) {
      const upload = await incoming(
        await sharp({
          create: { width: 500, height: 400, channels: 3, background: "#336699" },
        })
          .jpeg()
          .toBuffer(),
      );
      const id = await storeMedia(
        { name: "b.jpg", path: upload },
        { alt: "Course", focal: { x: 50, y: 50 } },
      );
      const before = await loadDocument("gallery");
      const original = before.items[1]?.photo ?? "";
      const [assigned, deleted] = await Promise.allSettled([
        assignSlot("galerie:1", id, owner),
        deleteMedia(id),
      ]);
      const exists = (await db().select().from(media).where(eq(media.id, id))).length === 1;
      const named = (await loadDocument("gallery")).items[1]?.photo === id;
      if (named) expect(exists).toBe(true);
      if (assigned.status === "fulfilled")
        expect(deleted).toMatchObject({ value: { status: "used" } });
      else expect(deleted).toMatchObject({ value: { status: "deleted" } });
      const restored = await loadDocument("gallery");
      if (restored.items[1]) restored.items[1].photo = original;
      await saveDocument("gallery", restored, owner);
      await deleteMedia(id);
    }
  });
});
