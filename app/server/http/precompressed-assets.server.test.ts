import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptsBrotli, hashedAssets } from "./precompressed-assets.server";

describe("acceptsBrotli", () => {
  it("reads br among the accepted codings, unless refused with q=0", () => {
    expect(acceptsBrotli("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsBrotli("br;q=0.5, gzip")).toBe(true);
    expect(acceptsBrotli("*")).toBe(true);
    expect(acceptsBrotli("gzip, br;q=0")).toBe(false);
    expect(acceptsBrotli("br;q=0, *")).toBe(false);
    expect(acceptsBrotli("*;q=0")).toBe(false);
    expect(acceptsBrotli("gzip, deflate")).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});

describe("hashedAssets", () => {
  const script = "export const answer = 42;\n".repeat(50);
  let directory: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), "assets-"));
    writeFileSync(path.join(directory, "app-abc.js"), script);
    writeFileSync(path.join(directory, "app-abc.js.br"), brotliCompressSync(script));
    writeFileSync(path.join(directory, "plain-abc.js"), script);
    const app = express();
    app.use("/assets", hashedAssets(directory), (_req, res) => void res.status(404).end());
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`;
  });

  afterAll(() => {
    server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("sends the build's brotli file to a browser that accepts brotli, as JavaScript", async () => {
    const response = await fetch(`${base}/app-abc.js`, { headers: { "Accept-Encoding": "br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await response.text()).toBe(script);
  });

  it("sends the plain file to other clients and for files without a compressed copy", async () => {
    const plain = await fetch(`${base}/app-abc.js`, { headers: { "Accept-Encoding": "gzip" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(await plain.text()).toBe(script);
    const uncompressed = await fetch(`${base}/plain-abc.js`, {
      headers: { "Accept-Encoding": "br" },
    });
    expect(uncompressed.headers.get("content-encoding")).toBeNull();
    expect(await uncompressed.text()).toBe(script);
  });

  it("answers 404 for a missing asset, with or without brotli", async () => {
    const missing = await fetch(`${base}/absent-1234.js`, { headers: { "Accept-Encoding": "br" } });
    expect(missing.status).toBe(404);
  });
});
