import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONE_CLICK_UNSUBSCRIBE_PATH, originCheck } from "./origin-check.server";

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
