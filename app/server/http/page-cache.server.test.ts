import type { Server } from "node:http";
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PageRender } from "../context";
import {
  giveBackGzipAnswer,
  gzipAnswer,
  gzipTemplate,
  holdsCachedPages,
  takeGzipAnswer,
  pageCache,
  type CachedPage,
} from "./page-cache.server";
import { securityHeaders } from "./security.server";

/**
 * The page cache in front of a stand-in for React Router: each route renders a page that carries the
 * response's nonce, counts its renders, and says whether it "read the database".
 */

let server: Server;
let base: string;
let contentVersion = 1;
let versionReads = 0;
let versionFails = false;
/** How long a read of the version takes: a round trip to the database. */
let readDelayMs = 10;
/** When set, a read of the version lasts until it settles instead (a test's own event). */
let readGate: Promise<void> | null = null;
/** Requests that reached the server, counted before the cache; `arrived` is told of each. */
let arrivals = 0;
let arrived: (() => void) | undefined;
const renders = new Map<string, number>();
const served: Array<string | null> = [];

const cache = pageCache({
  readContentVersion: async () => {
    versionReads += 1;
    // The number as the database has it when the read starts.
    const version = contentVersion;
    await (readGate ?? new Promise((resolve) => setTimeout(resolve, readDelayMs)));
    if (versionFails) throw new Error("base indisponible");
    return version;
  },
  readTimeoutMs: 300,
  maxBytes: 64 * 1024,
  maxEntries: 20,
  maxAgeMs: 60_000,
});

function page(title: string, nonce: string): string {
  return `<!DOCTYPE html><html lang="fr"><head><title>${title}</title></head><body><h1>${title}</h1><p>${"Texte. ".repeat(300)}</p><script nonce="${nonce}">window.page = 1;</script><script type="module" nonce="${nonce}">import "/a.js";</script></body></html>`;
}

beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.use(securityHeaders());
  app.use((_req, _res, next) => {
    arrivals += 1;
    arrived?.();
    next();
  });
  app.use(cache.middleware);
  app.use((req, res, next) => {
    renders.set(req.path, (renders.get(req.path) ?? 0) + 1);
    next();
  });
  const render = (req: express.Request, res: express.Response) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "public, max-age=0, s-maxage=60");
    res.send(page(req.path, String(res.locals.cspNonce)));
  };
  app.get("/static", (req, res) => render(req, res));
  app.get("/blog", (req, res) => render(req, res));
  app.get("/article", (req, res) => {
    const pageRender = res.locals.pageRender as PageRender | undefined;
    const effect = ({ userAgent }: { userAgent: string | null }) => served.push(userAgent);
    effect({ userAgent: req.get("user-agent") ?? null });
    pageRender?.effects.push(effect);
    render(req, res);
  });
  app.get("/streamed", (req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    const html = page("streamed", String(res.locals.cspNonce));
    res.write(html.slice(0, 1000));
    setTimeout(() => res.end(html.slice(1000)), 5);
  });
  app.get("/large", (_req, res) => void res.send("x".repeat(3 * 1024 * 1024)));
  app.get("/private", (req, res) => {
    res.setHeader("Cache-Control", "private, no-store");
    res.send(page("privé", String(res.locals.cspNonce)));
  });
  app.get("/cookie", (req, res) => {
    res.cookie("toast", "1");
    res.send(page("cookie", String(res.locals.cspNonce)));
  });
  app.get("/broken", (req, res) => {
    (res.locals.pageRender as PageRender).storable = false;
    res.send(page("cassé", String(res.locals.cspNonce)));
  });
  app.get(
    "/missing",
    (req, res) => void res.status(404).send(page("404", String(res.locals.cspNonce))),
  );
  app.get("/admin/articles", (req, res) => render(req, res));
  app.post("/static", (req, res) => render(req, res));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  cache.clear();
  renders.clear();
  served.length = 0;
  versionFails = false;
  readDelayMs = 10;
  readGate = null;
  arrived = undefined;
});

function nonceOfPolicy(response: Response): string {
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  if (!nonce) throw new Error("no nonce in the policy");
  return nonce;
}

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${path}`, init);
  return { response, body: await response.text(), cache: response.headers.get("x-page-cache") };
}

describe("page cache", () => {
  it("renders a page once and serves it again, each answer with its own nonce", async () => {
    const first = await get("/static");
    const second = await get("/static");
    const third = await get("/static");
    expect([first.cache, second.cache, third.cache]).toEqual(["miss", "hit", "hit"]);
    expect(renders.get("/static")).toBe(1);

    const nonces = [first, second, third].map(({ response }) => nonceOfPolicy(response));
    expect(new Set(nonces).size).toBe(3);
    for (const [index, { body }] of [first, second, third].entries()) {
      // Every script carries the nonce of its own response's policy, and no other nonce is left.
      expect(body.match(/nonce="([^"]+)"/g)).toEqual([
        `nonce="${nonces[index]}"`,
        `nonce="${nonces[index]}"`,
      ]);
      expect(body.replaceAll(nonces[index] ?? "", "N")).toBe(
        first.body.replaceAll(nonces[0] ?? "", "N"),
      );
    }
  });

  it("keeps the page's own headers and compresses each answer", async () => {
    await get("/static");
    const hit = await get("/static", { headers: { "accept-encoding": "gzip" } });
    expect(hit.cache).toBe("hit");
    expect(hit.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(hit.response.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60");
    expect(hit.response.headers.get("content-encoding")).toBe("gzip");
    expect(hit.body).toContain("<h1>/static</h1>");
    expect(hit.response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers without compression to a client that does not accept gzip", async () => {
    await get("/static");
    const plain = await get("/static", { headers: { "accept-encoding": "identity" } });
    expect(plain.cache).toBe("hit");
    expect(plain.response.headers.get("content-encoding")).toBeNull();
    expect(plain.body).toContain(`nonce="${nonceOfPolicy(plain.response)}"`);
  });

  it("stores a streamed answer whole", async () => {
    const first = await get("/streamed");
    const second = await get("/streamed");
    expect(second.cache).toBe("hit");
    expect(second.body.replaceAll(nonceOfPolicy(second.response), "N")).toBe(
      first.body.replaceAll(nonceOfPolicy(first.response), "N"),
    );
  });

  it("serves a page only while the content version is unchanged, whatever the page read", async () => {
    for (const path of ["/blog", "/static"]) {
      expect((await get(path)).cache, path).toBe("miss");
      expect((await get(path)).cache, path).toBe("hit");
    }
    contentVersion += 1;
    for (const path of ["/blog", "/static"]) {
      expect((await get(path)).cache, path).toBe("miss");
      expect((await get(path)).cache, path).toBe("hit");
      expect(renders.get(path), path).toBe(2);
    }
  });

  it("lets requests that arrive together share one read of the version", async () => {
    await get("/blog");
    const reads = versionReads;
    // The read lasts until all twenty requests have reached the server: they arrive while it runs, however
    // slowly a busy machine sends them (a 10 ms read let a loaded run see 11 reads).
    const before = arrivals;
    readGate = new Promise<void>((resolve) => {
      arrived = () => {
        if (arrivals - before >= 20) resolve();
      };
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => get("/blog")));
    expect(answers.every((answer) => answer.cache === "hit")).toBe(true);
    expect(versionReads - reads).toBeGreaterThanOrEqual(1);
    expect(versionReads - reads).toBeLessThan(10);
  });

  it("never answers a request with a version read before it arrived", async () => {
    await get("/blog");
    readDelayMs = 150;
    // A's read is running when the content changes and B arrives: B must wait for a read of its own.
    const first = get("/blog");
    await new Promise((resolve) => setTimeout(resolve, 40));
    contentVersion += 1;
    const second = await get("/blog");
    expect((await first).cache).toBe("hit");
    expect(second.cache).toBe("miss");
  });

  it("renders normally and stores nothing when the version cannot be read, or not in time", async () => {
    versionFails = true;
    for (const path of ["/blog", "/static", "/static"]) {
      const answer = await get(path);
      expect(answer.response.status).toBe(200);
      expect(answer.cache).toBeNull();
    }
    expect(renders.get("/static")).toBe(2);
    versionFails = false;
    // A read that has not ended when its time-out (300 ms) comes: the page is answered while it still runs.
    let release = () => {};
    readGate = new Promise((resolve) => (release = resolve));
    try {
      const slow = await get("/static");
      expect(slow.response.status).toBe(200);
      expect(slow.cache).toBeNull();
    } finally {
      release();
      readGate = null;
    }
    await get("/blog");
    expect((await get("/blog")).cache).toBe("hit");
  });

  it("repeats the page's per-visit effects for each visitor it serves", async () => {
    await get("/article", { headers: { "user-agent": "Visiteur 1" } });
    await get("/article", { headers: { "user-agent": "Visiteur 2" } });
    await get("/article", { headers: { "user-agent": "Googlebot" } });
    expect(renders.get("/article")).toBe(1);
    expect(served).toEqual(["Visiteur 1", "Visiteur 2", "Googlebot"]);
  });

  it("keys pages by their whole address, query included", async () => {
    await get("/blog?q=mariage");
    expect((await get("/blog?q=mariage")).cache).toBe("hit");
    expect((await get("/blog?q=naissance")).cache).toBe("miss");
  });

  it("never stores or serves for visitors with cookies or credentials", async () => {
    await get("/static");
    for (const headers of [{ cookie: "toast=1" }, { authorization: "Basic eDp5" }] as Array<
      Record<string, string>
    >) {
      const answer = await get("/static", { headers });
      expect(answer.cache).toBeNull();
    }
    expect(renders.get("/static")).toBe(3);
  });

  it("stores only successful, shareable answers to GET", async () => {
    for (const path of ["/private", "/cookie", "/broken", "/missing", "/admin/articles"]) {
      await get(path);
      const again = await get(path);
      expect(again.cache, path).not.toBe("hit");
      expect(renders.get(path), path).toBe(2);
    }
    await fetch(`${base}/static`, { method: "POST" });
    expect((await get("/static")).cache).toBe("miss");
  });

  it("stays within its memory and entry budgets, counting what it really holds", async () => {
    await get("/large");
    expect((await get("/large")).cache).toBe("miss");
    // The address counts: a long query string is memory too.
    const long = `/static?pad=${"x".repeat(8_000)}`;
    await get(long);
    expect(cache.size().bytes).toBeGreaterThan(16_000);
    cache.clear();
    for (let index = 0; index < 40; index += 1) await get(`/static?page=${index}`);
    expect(cache.size().bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size().entries).toBeLessThanOrEqual(20);
    // The most recent pages are the ones kept.
    expect((await get("/static?page=39")).cache).toBe("hit");
    expect((await get("/static?page=0")).cache).toBe("miss");
  });

  it("keeps a page asked for again as the most recent, however many times in a row", async () => {
    cache.clear();
    for (let index = 0; index < 40; index += 1) await get(`/static?fill=${index}`);
    const capacity = cache.size().entries;
    cache.clear();
    for (let index = 0; index < capacity; index += 1) await get(`/static?lru=${index}`);
    // The oldest page asked for twice (the second time it is already the newest), then a new page.
    expect((await get("/static?lru=0")).cache).toBe("hit");
    expect((await get("/static?lru=0")).cache).toBe("hit");
    await get(`/static?lru=${capacity}`);
    expect(cache.size().entries).toBe(capacity);
    // The one left out is the next oldest, not the page just asked for.
    expect((await get("/static?lru=0")).cache).toBe("hit");
    expect((await get("/static?lru=1")).cache).toBe("miss");
  });
});

/** A page's text of `size` bytes, varied by `seed`, with characters HTML escapes and a two-byte one. */
const text = (size: number, seed: number) =>
  Buffer.from(
    Array.from({ length: size }, (_, index) => 'abcdefghij <>"é'[(index * seed) % 14]).join(""),
  );

/** Stored pages cut at their nonces: empty parts, one part, parts of every size. */
const pageParts: Buffer[][] = [
  [text(0, 1)],
  [text(5_000, 3)],
  [text(0, 1), text(0, 1)],
  [text(120, 7), text(0, 1), text(90_000, 5), text(33, 11)],
  [Buffer.from("a"), Buffer.from("b"), Buffer.from("")],
];

/** The page the parts make with `nonce` in each place between them. */
const withNonce = (parts: Buffer[], nonce: Buffer) =>
  Buffer.concat(parts.flatMap((part, index) => (index ? [nonce, part] : [part])));

/** A stored page of these parts, its gzip template made for nonces of 24 characters. */
function storedPage(parts: Buffer[]): CachedPage {
  const template = gzipTemplate(parts, 24);
  return { parts, gzip: template } as CachedPage;
}

describe("gzipAnswer", () => {
  it("is a valid gzip file of the parts with the nonce between them", () => {
    for (const parts of pageParts) {
      const deflated = parts.map((part) =>
        zlib.deflateRawSync(part, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH }),
      );
      for (const nonce of [Buffer.from("7lMn0pF4XI5UHtr+iF6EqEp0"), Buffer.from("")]) {
        const expected = withNonce(parts, nonce);
        expect(zlib.gunzipSync(gzipAnswer(parts, deflated, nonce)).equals(expected)).toBe(true);
      }
    }
  });
});

describe("takeGzipAnswer", () => {
  it("gives a valid gzip file, CRC included, for each nonce spliced into the stored template", () => {
    for (const parts of pageParts) {
      const page = storedPage(parts);
      const answers = new Set<string>();
      // Nonces of the template's length use the template; others are assembled whole.
      for (const nonce of [
        randomBytes(18).toString("base64"),
        "AAAAAAAAAAAAAAAAAAAAAAAA",
        "x",
        "",
      ]) {
        const bytes = Buffer.from(nonce);
        const expected = withNonce(parts, bytes);
        const file = takeGzipAnswer(page, bytes);
        // gunzip checks the trailer's CRC-32 and length.
        expect(zlib.gunzipSync(file).equals(expected)).toBe(true);
        answers.add(file.toString("base64"));
      }
      if (parts.length > 1) expect(answers.size).toBe(4);
    }
  });

  it("fills an answer given back with the next nonce, never one still being written", () => {
    const parts = [text(120, 7), text(9_000, 5), text(33, 11)];
    const page = storedPage(parts);
    const expected = (nonce: string) => withNonce(parts, Buffer.from(nonce));
    const nonces = Array.from({ length: 3 }, () => randomBytes(18).toString("base64"));
    const first = takeGzipAnswer(page, Buffer.from(nonces[0] ?? ""));
    // Not given back yet: the next answer is another buffer, and the first keeps its nonce.
    const second = takeGzipAnswer(page, Buffer.from(nonces[1] ?? ""));
    expect(second).not.toBe(first);
    expect(zlib.gunzipSync(first).equals(expected(nonces[0] ?? ""))).toBe(true);
    giveBackGzipAnswer(page, first);
    const third = takeGzipAnswer(page, Buffer.from(nonces[2] ?? ""));
    expect(third).toBe(first);
    expect(zlib.gunzipSync(third).equals(expected(nonces[2] ?? ""))).toBe(true);
    expect(zlib.gunzipSync(second).equals(expected(nonces[1] ?? ""))).toBe(true);
  });
});

describe("holdsCachedPages", () => {
  it("sets the known version aside for an administrator's write, whatever the admin page", () => {
    for (const path of [
      "/admin",
      "/admin.data",
      "/admin/articles/nouveau",
      "/admin/studios.data",
    ]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        expect(holdsCachedPages(method, path, true), `${method} ${path}`).toBe(true);
      }
    }
  });

  it("never for a read, a request without cookie, or a visitor's form", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(holdsCachedPages(method, "/admin/articles/nouveau", true)).toBe(false);
    }
    expect(holdsCachedPages("POST", "/admin/articles/nouveau", false)).toBe(false);
    expect(holdsCachedPages("POST", "/contact", true)).toBe(false);
    expect(holdsCachedPages("POST", "/newsletter", true)).toBe(false);
    expect(holdsCachedPages("POST", "/administration", true)).toBe(false);
  });

  it("not for the client galleries' admin: uploads and gallery pages change nothing public", () => {
    for (const path of [
      "/admin/envois",
      "/admin/envois/0f8a2c44-3a1e-4c55-9d6b-1c2e3f4a5b6c",
      "/admin/envois/formulaire/0f8a2c44-3a1e-4c55-9d6b-1c2e3f4a5b6c",
      "/admin/galeries",
      "/admin/galeries.data",
      "/admin/galeries/nouvelle",
      "/admin/galeries/0f8a2c44-3a1e-4c55-9d6b-1c2e3f4a5b6c/reglages.data",
    ]) {
      expect(holdsCachedPages("POST", path, true), path).toBe(false);
      expect(holdsCachedPages("PATCH", path, true), path).toBe(false);
    }
  });

  it("does not mistake other admin pages for the galleries'", () => {
    for (const path of [
      "/admin/galeriesX",
      "/admin/envoisfoo",
      "/admin/medias/galerie",
      "/admin/newsletter/envois/1",
    ]) {
      expect(holdsCachedPages("POST", path, true), path).toBe(true);
    }
  });
});
