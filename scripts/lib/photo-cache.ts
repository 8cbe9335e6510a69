import path from "node:path";
import sharp from "sharp";
import { createServer, type Plugin } from "vite";
import { imagetools } from "vite-imagetools";
import type * as demoPhotoPictures from "../../app/server/content/demo-photo-pictures.server.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The demo photos as the build encodes them (AVIF, WebP and JPEG at several widths), kept in the repository
 * (decision 0165): a fresh clone's build reads them instead of encoding every photo again (about 186 s of
 * CPU on this project's machine). One file per variant, named by vite-imagetools after the source photo's
 * bytes and the variant's directives, so a changed photo or preset gets a new name and is encoded at the
 * next build. The encoder's own version names the folder: another sharp (another libvips, AVIF or WebP
 * encoder) starts an empty one, and its build encodes everything as it would without the folder.
 * `npm run photos:cache` refreshes it; scripts/lib/photo-cache.test.ts checks it holds exactly what the
 * build uses.
 */
export const photoCacheRoot = path.join(root, "photo-cache");
export const photoCacheDirectory = path.join(
  photoCacheRoot,
  `sharp-${sharp.versions.sharp ?? "unknown"}`,
);

/** The module that imports every demo photo with its preset (the only importer of photos). */
export const photoImporter = path.join(root, "app/server/content/demo-photo-pictures.server.ts");

/**
 * vite-imagetools as the build uses it. `import photo from "~/assets/photos/x.jpg?photo"` gives AVIF, WebP
 * and JPEG at several widths (`?photo=hero` adds a 2400 px width for full-screen photos). Metadata (EXIF,
 * GPS) is dropped. `cacheDirectory`: the encoded variants read back instead of encoded (decision 0165).
 */
export function photoEncoder(cacheDirectory = photoCacheDirectory): Plugin {
  return imagetools({
    removeMetadata: true,
    cache: { dir: cacheDirectory },
    defaultDirectives: (url) => {
      const kind = url.searchParams.get("photo");
      if (kind === null) return new URLSearchParams();
      return new URLSearchParams({
        w: kind === "hero" ? "640;960;1280;1920;2400" : "400;640;960;1280",
        format: "avif;webp;jpg",
        quality: "62",
        as: "picture",
      });
    },
  });
}

type PhotoModule = typeof demoPhotoPictures;

/**
 * The names of the cache entries the build's photos use, found by vite-imagetools itself: the photos'
 * module is loaded by a Vite server with the same encoder, whose pictures then name each variant by its
 * cache entry (`/@imagetools/{name}`). A variant missing from `cacheDirectory` is encoded into it.
 */
export async function photoCacheEntriesUsed(cacheDirectory = photoCacheDirectory) {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [photoEncoder(cacheDirectory)],
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: "custom",
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const photos = (await server.ssrLoadModule(photoImporter)) as PhotoModule;
    const text = JSON.stringify(photos.demoPictureNames().map(photos.demoPicture));
    return [...new Set([...text.matchAll(/\/@imagetools\/([0-9a-f]{40})/g)].map(([, id]) => id))]
      .filter((id) => id !== undefined)
      .sort();
  } finally {
    await server.close();
  }
}
