import http, { type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientError } from "./refusal.server";
import { cleanAddress, isCleanAddress, requestBodyOf, requestInput } from "./request-input.server";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(cleanAddress());
  app.use(
    requestInput({
      defaultLimit: { maxBytes: 1024, maxFieldLength: 100, maxMilliseconds: 300 },
      limits: [{ path: "/upload", maxBytes: 4096, stream: true }],
    }),
  );
  // What React Router would receive.
  app.use(async (req, res) => {
    // A streamed path that refuses before reading (a piece sent without a session).
    if (req.path === "/upload/refused") return void res.status(401).json({ error: "refused" });
    const body = requestBodyOf(req);
    if (body?.kind === "stream") {
      let size = 0;
      try {
        for await (const chunk of body.stream) size += (chunk as Buffer).length;
      } catch {
        return;
      }
      return void res.json({ size });
    }
    const form = await new Response(body ? new Uint8Array(body.bytes) : null, {
      headers: { "Content-Type": body?.contentType ?? "text/plain" },
    }).formData();
    res.json(
      [...form].map(([name, value]) => [name, typeof value === "string" ? value : value.name]),
    );
  });
  server = http.createServer({ connectionsCheckingInterval: 50 }, app);
  server.headersTimeout = 300;
  server.requestTimeout = 60_000;
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: "POST",
    body,
    headers: { Accept: "text/html", ...headers },
    // Streams need it; harmless for the others.
    duplex: "half",
  } as RequestInit);

describe("isCleanAddress", () => {
  it("accepts UTF-8 text and refuses control characters or bytes that are not UTF-8", () => {
    expect(isCleanAddress("/blog?q=caf%C3%A9+cr%C3%A8me&page=2")).toBe(true);
    expect(isCleanAddress("/blog/categorie/%C3%A9t%C3%A9")).toBe(true);
    for (const url of ["/blog?q=%00", "/blog?q=%C3%28", "/blog?q=%", "/a%0Ab", "/blog?x%7F=1"]) {
      expect(isCleanAddress(url), url).toBe(false);
    }
  });
});

describe("requestInput", () => {
  it("removes control characters (not tabs and newlines) from every field of a form post", async () => {
    const urlencoded = await post("/form", "message=a%00b%01c%09d%0Ae%C3%28&n%00om=x", {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(await urlencoded.json()).toEqual([
      ["message", "abc\td\ne\uFFFD("],
      ["nom", "x"],
    ]);
    const form = new FormData();
    form.append("message", "a\u0000b");
    form.append("photo", new File(["x"], "photo.jpg"));
    const multipart = await post("/form", form);
    expect(await multipart.json()).toEqual([
      ["message", "ab"],
      ["photo", "photo.jpg"],
    ]);
  });

  it("refuses a field longer than the path allows with a French 400", async () => {
    const answer = await post("/form", `message=${"a".repeat(101)}`, {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("dépasse 100 caractères");
  });

  it("refuses a body over the limit with a French 413, announced or not", async () => {
    const announced = await post("/form", "a".repeat(2048), {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(announced.status).toBe(413);
    expect(await announced.text()).toContain("trop volumineux");
    const unannounced = await post(
      "/form",
      new ReadableStream({
        start(controller) {
          for (let index = 0; index < 8; index += 1) controller.enqueue(new Uint8Array(512));
          controller.close();
        },
      }),
      { "Content-Type": "application/x-www-form-urlencoded" },
    );
    expect(unannounced.status).toBe(413);
  });

  it("counts a streamed path's body as it passes, with that path's own limit", async () => {
    const within = await post("/upload", new Uint8Array(3000));
    expect(await within.json()).toEqual({ size: 3000 });
    const over = await post(
      "/upload",
      new ReadableStream({
        start(controller) {
          for (let index = 0; index < 8; index += 1) controller.enqueue(new Uint8Array(1024));
          controller.close();
        },
      }),
    );
    expect(over.status).toBe(413);
  });

  it("refuses an address that does not decode to clean text with a French 400", async () => {
    const answer = await fetch(`${base}/blog?q=%00`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.text()).toContain("caractères invalides");
  });
});

describe("slow senders", () => {
  it("get a French 408 once the time for the headers is over", async () => {
    const { connect } = await import("node:net");
    const url = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
        socket.write("POST /form HTTP/1.1\r\nHost: x\r\n");
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain("trop de temps");
  });

  it("are cut off a few seconds after a streamed path answered without reading their body", async () => {
    const { connect } = await import("node:net");
    const url = new URL(base);
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      let trickle: NodeJS.Timeout | undefined;
      const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
        // 1 KB of a declared 4 KB, then a byte every 400 ms (never idle long enough for Node's own
        // keep-alive timeout): the server answers at once and must not wait for the rest.
        socket.write(
          "POST /upload/refused HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n" +
            "Content-Length: 4000\r\n\r\n" +
            "x".repeat(1000),
        );
        trickle = setInterval(() => socket.write("x"), 400);
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("close", () => {
        clearInterval(trickle);
        resolve(text);
      });
      socket.on("error", reject);
      // Bounded: without the cut, the request limit (60 s here) would end it.
      setTimeout(() => socket.destroy(), 25_000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it("get a French 408 when a form's body arrives too slowly", async () => {
    const { connect } = await import("node:net");
    const url = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
        // Headers in time, then 10 bytes of a declared 100 and nothing more.
        socket.write(
          "POST /form HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n" +
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n" +
            "message=ab",
        );
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("</html>")) socket.destroy();
      });
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain("Le formulaire a mis trop de temps à arriver");
  });
});
