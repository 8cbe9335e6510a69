import http, { type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachePolicy, canonicalPrivateAreas } from "./cache-policy.server";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(canonicalPrivateAreas());
  app.use(cachePolicy());
  app.all("/{*rest}", (req, res) => void res.json({ method: req.method, url: req.originalUrl }));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ask = (path: string, method = "GET") =>
  fetch(`${base}${path}`, { method, redirect: "manual" });

describe("canonicalPrivateAreas", () => {
  it("sends another spelling of a private area to its own, method and query kept", async () => {
    const cases: Array<[string, string]> = [
      [
        "/GALERIE-CLIENT/0b6f3c1e-6d0a-4c4e-9d55-1f2a3b4c5d6e?photo=x",
        "/galerie-client/0b6f3c1e-6d0a-4c4e-9d55-1f2a3b4c5d6e?photo=x",
      ],
      ["/Galerie-Client.data", "/galerie-client.data"],
      ["/ADMIN/galeries", "/admin/galeries"],
      ["/%61dmin/galeries/nouvelle", "/admin/galeries/nouvelle"],
      ["/Admin", "/admin"],
    ];
    for (const [asked, expected] of cases) {
      const answer = await ask(asked, "POST");
      expect(answer.status, asked).toBe(308);
      expect(answer.headers.get("location"), asked).toBe(expected);
    }
  });

  it("lets the site's own spelling and other addresses through, with their policies", async () => {
    for (const path of [
      "/galerie-client/abc",
      "/admin/galeries",
      "/Galerie",
      "/administration",
      "/blog",
    ]) {
      const answer = await ask(path);
      expect(answer.status, path).toBe(200);
      expect((await answer.json()).url).toBe(path);
    }
    const gallery = await ask("/galerie-client/abc");
    expect(gallery.headers.get("cache-control")).toBe("no-store");
    expect(gallery.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
  });
});

describe("cachePolicy", () => {
  it("keeps every answer of a buyer's order page from being indexed, whatever its spelling (decision 0168)", async () => {
    for (const path of [
      "/commande/abc",
      "/commande/abc.data",
      "/commande/abc/bon.pdf",
      "/commande/abc/facture/F-2027-000001.pdf",
      "/Commande/abc",
      "/%63ommande/abc",
    ]) {
      expect((await ask(path)).headers.get("x-robots-tag"), path).toBe("noindex, nofollow");
    }
    for (const path of ["/commandes", "/bons-cadeaux", "/blog/commande"]) {
      expect((await ask(path)).headers.get("x-robots-tag"), path).toBeNull();
    }
  });

  it("keeps a private session type's booking pages out of every cache, its link being their secret (decision 0115)", async () => {
    for (const path of [
      "/reserver/brive?lien=abc",
      "/reserver/brive/portrait?mois=2027-01&lien=abc",
      "/reserver/brive.data?lien=abc",
    ]) {
      expect((await ask(path)).headers.get("cache-control"), path).toBe("no-store");
    }
    for (const path of [
      "/reserver/brive",
      "/reserver/brive?mois=2027-01",
      "/reservation/abc?lien=x",
    ]) {
      expect((await ask(path)).headers.get("cache-control"), path).toBeNull();
    }
  });
});
