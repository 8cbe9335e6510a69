import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  crossSiteLeavesOnly,
  ONE_CLICK_UNSUBSCRIBE_PATH,
  originCheck,
} from "./origin-check.server";
import { requestInput } from "./request-input.server";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(originCheck("https://studio.example.com"));
  app.all("/action", (_req, res) => void res.send("ok"));
  // What the next handler (React Router) is shown of the request's origin.
  app.all(/^\/newsletter\//, (req, res) => void res.send(`origin=${req.get("origin") ?? ""}`));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (headers: Record<string, string>, path = "/action") =>
  fetch(`${base}${path}`, { method: "POST", headers }).then((response) => response.status);

describe("originCheck", () => {
  it("lets reads and same-site writes through", async () => {
    expect(
      (await fetch(`${base}/action`, { headers: { Origin: "https://evil.example" } })).status,
    ).toBe(200);
    expect(await post({ Origin: base })).toBe(200);
    expect(
      await post({ Origin: "https://studio.example.com", "Sec-Fetch-Site": "same-origin" }),
    ).toBe(200);
    expect(await post({})).toBe(200);
  });

  it("refuses writes from another site", async () => {
    expect(await post({ Origin: "https://evil.example" })).toBe(403);
    expect(await post({ "Sec-Fetch-Site": "cross-site" })).toBe(403);
    expect(await post({ Origin: "null" })).toBe(403);
  });

  it("takes the one-click unsubscribe (RFC 8058) from anywhere, on exactly its path", async () => {
    const foreign = { Origin: "https://mail.example.net", "Sec-Fetch-Site": "cross-site" };
    const response = await fetch(`${base}${ONE_CLICK_UNSUBSCRIBE_PATH}?token=x`, {
      method: "POST",
      headers: { ...foreign, "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    // Passed on without the foreign Origin, which React Router's own check would refuse.
    expect(await response.text()).toBe("origin=");
    expect(await post({ Origin: "null" }, ONE_CLICK_UNSUBSCRIBE_PATH)).toBe(200);
    // Its neighbours and its `.data` twin are checked as any other address.
    expect(await post(foreign, "/newsletter/confirmation")).toBe(403);
    expect(await post(foreign, `${ONE_CLICK_UNSUBSCRIBE_PATH}.data`)).toBe(403);
    expect(await post(foreign, `${ONE_CLICK_UNSUBSCRIBE_PATH}/autre`)).toBe(403);
  });
});

describe("crossSiteLeavesOnly", () => {
  it("lets another site's post leave the newsletter, never come back to it", async () => {
    const app = express();
    app.use(originCheck("https://studio.example.com"));
    app.use(requestInput({ defaultLimit: { maxBytes: 64 * 1024 }, limits: [] }));
    app.use(crossSiteLeavesOnly());
    app.all(ONE_CLICK_UNSUBSCRIBE_PATH, (_req, res) => void res.send("action"));
    const own = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    const address = own.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}${ONE_CLICK_UNSUBSCRIBE_PATH}?token=x`;
    const send = (headers: Record<string, string>, body: string | FormData) =>
      fetch(url, { method: "POST", headers: { Accept: "text/html", ...headers }, body });
    const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };
    const foreign = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    try {
      const back = await send({ ...foreign, ...urlencoded }, "token=x&intent=reinscrire");
      expect(back.status).toBe(403);
      expect(await back.text()).toContain("depuis notre propre page");
      const multipart = new FormData();
      multipart.append("intent", "reinscrire");
      expect((await send({ "Sec-Fetch-Site": "cross-site" }, multipart)).status).toBe(403);
      expect((await send({ Origin: "null", ...urlencoded }, "intent=reinscrire")).status).toBe(403);
      // Leaving, from anywhere; coming back, from the site's own page or without a browser.
      expect((await send({ ...foreign, ...urlencoded }, "List-Unsubscribe=One-Click")).status).toBe(
        200,
      );
      expect((await send({ ...foreign, ...urlencoded }, "token=x")).status).toBe(200);
      expect(
        (await send({ Origin: "https://studio.example.com", ...urlencoded }, "intent=reinscrire"))
          .status,
      ).toBe(200);
    } finally {
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  });
});
