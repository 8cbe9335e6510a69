import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageDrivers, type StorageUnderTest } from "../../../tests/support/storage-drivers";
import { parseRange, serveUploads } from "./serve-uploads.server";

/** /uploads as the site mounts it (app.server.ts), over each store. */
describe.each(storageDrivers)("/uploads from $kind", ({ start }) => {
  let store: StorageUnderTest;
  let server: Server;
  let base = "";
  const photo = randomBytes(30_000);

  beforeAll(async () => {
    store = await start();
    const app = express();
    app.use(
      "/uploads",
      serveUploads(() => store.storage, {
        setHeaders: (res) => res.setHeader("Cross-Origin-Resource-Policy", "cross-origin"),
      }),
      (_req, res) => void res.status(404).end(),
    );
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/uploads`;
    const type = { contentType: "image/jpeg" };
    await store.storage.put("blog-images/0123456789abcdef-1700000000000.jpg", photo, type);
    await store.storage.put("media/0123456789abcdef-1700000000000-400.avif", photo, {
      contentType: "image/avif",
    });
    await store.storage.put("galleries/a1/p1/original.jpg", photo, type);
    await store.storage.put("settings/watermark.png", photo, { contentType: "image/png" });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await store?.stop();
  });

  it("serves a blog image and a media file with a year's immutable caching, for any origin", async () => {
    const response = await fetch(`${base}/blog-images/0123456789abcdef-1700000000000.jpg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("content-length")).toBe(String(photo.length));
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("etag")).toMatch(/^(W\/)?".+"$/);
    expect(response.headers.get("last-modified")).toMatch(/GMT$/);
    expect(Buffer.from(await response.arrayBuffer()).equals(photo)).toBe(true);

    const media = await fetch(`${base}/media/0123456789abcdef-1700000000000-400.avif`);
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/avif");
    expect(Buffer.from(await media.arrayBuffer()).equals(photo)).toBe(true);
  });

  it("answers HEAD without a body, and 304 to a known ETag or date", async () => {
    const url = `${base}/blog-images/0123456789abcdef-1700000000000.jpg`;
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(photo.length));
    const etag = head.headers.get("etag") ?? "";
    const lastModified = head.headers.get("last-modified") ?? "";

    const again = await fetch(url, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(url, { headers: { "If-None-Match": `W/${etag}` } })).status).toBe(304);
    expect((await fetch(url, { headers: { "If-None-Match": '"autre"' } })).status).toBe(200);
    expect((await fetch(url, { headers: { "If-Modified-Since": lastModified } })).status).toBe(304);
    const before = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await fetch(url, { headers: { "If-Modified-Since": before } })).status).toBe(200);
  });

  it("answers one byte range with 206, and 416 past the end", async () => {
    const url = `${base}/media/0123456789abcdef-1700000000000-400.avif`;
    const part = await fetch(url, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${photo.length}`);
    expect(part.headers.get("content-length")).toBe("100");
    expect(Buffer.from(await part.arrayBuffer()).equals(photo.subarray(100, 200))).toBe(true);

    const tail = await fetch(url, { headers: { Range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(photo.subarray(-10))).toBe(true);

    const past = await fetch(url, { headers: { Range: `bytes=${photo.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${photo.length}`);

    // A range for another version of the file gives the whole (current) file.
    const stale = await fetch(url, { headers: { Range: "bytes=0-9", "If-Range": '"ancienne"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(photo.length);
  });

  it("never serves a client gallery's files, nor anything outside the public prefixes", async () => {
    for (const path of [
      "/galleries/a1/p1/original.jpg",
      "/settings/watermark.png",
      "/blog-images/../galleries/a1/p1/original.jpg",
      "/blog-images/%2e%2e/galleries/a1/p1/original.jpg",
      "/media%2f..%2fgalleries/a1/p1/original.jpg",
      "/blog-images/absent.jpg",
      "/blog-images/",
      "/",
      "/blog-images/%E0%A4%A.jpg",
    ]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(404);
      expect((await response.arrayBuffer()).byteLength, path).toBe(0);
    }
    const post = await fetch(`${base}/blog-images/0123456789abcdef-1700000000000.jpg`, {
      method: "POST",
    });
    expect(post.status).toBe(404);
  });

  it("serves a stored file with the type its key implies, never one declared when it was written", async () => {
    // What a crafted backup or a hand-made upload could leave in the store (decision 0128).
    const script = Buffer.from("<script>alert(document.cookie)</script>");
    for (const key of ["media/piege.html", "media/piege.js", "blog-images/logo.svg"]) {
      await store.storage.put(key, script, { contentType: "text/html" });
      const response = await fetch(`${base}/${key}`);
      expect(response.status, key).toBe(404);
      await response.arrayBuffer();
    }
    await store.storage.put("media/deguisee-400.jpg", script, { contentType: "text/html" });
    for (const method of ["GET", "HEAD"]) {
      const response = await fetch(`${base}/media/deguisee-400.jpg`, { method });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      await response.arrayBuffer();
    }
  });
});

describe("parseRange", () => {
  it("reads one range of bytes and ignores what it does not handle", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=90-500", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-5", 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange("bytes=-500", 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=5-2", 100)).toBeNull();
    expect(parseRange("bytes=0-1,5-6", 100)).toBeNull();
    expect(parseRange("items=0-1", 100)).toBeNull();
    expect(parseRange("bytes=-", 100)).toBeNull();
  });
});
