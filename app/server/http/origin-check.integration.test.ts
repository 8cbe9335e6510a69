import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { originCheck } from "./origin-check.server";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(originCheck("https://studio.example.com"));
  app.all("/action", (_req, res) => void res.send("ok"));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (headers: Record<string, string>) =>
  fetch(`${base}/action`, { method: "POST", headers }).then((response) => response.status);

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
});
