import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { eq, inArray, like } from "drizzle-orm";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, describe, expect, inject, it } from "vitest";
import routes from "../../app/routes";
import { closeServerDatabase, serverDatabase } from "../support/server-under-test";
import { contactForms } from "../support/studios";
import { blogNewsletterSubscribers, contactMessages, rateLimits } from "../../app/server/db/schema";

/**
 * What an attacker (or a broken client) sends to every public form and query parameter: NUL bytes,
 * control characters, bytes that are not UTF-8 (percent-encoded and raw), over-long values, oversized
 * and endless bodies, methods no page takes. The server never answers 5xx: it refuses in French (400,
 * 405, 413) or normalises the value and answers as usual, before any loader or action runs.
 */

const baseUrl = inject("baseUrl");
const { hostname, port } = new URL(baseUrl);

// Each submission comes from its own loopback address (127.x.y.z all reach the server), so that the
// per-client rate limits of the forms neither stop this file nor count against other files.
const usedAddresses: string[] = [];
function freshClientAddress(): string {
  const address = `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
  usedAddresses.push(address);
  return address;
}

const createdEmails: string[] = [];
function uniqueEmail(): string {
  const email = `e2e-bad-input-${randomBytes(5).toString("hex")}@example.org`;
  createdEmails.push(email);
  return email;
}

afterAll(async () => {
  const db = serverDatabase();
  if (createdEmails.length > 0) {
    await db.delete(contactMessages).where(inArray(contactMessages.email, createdEmails));
    await db
      .delete(blogNewsletterSubscribers)
      .where(inArray(blogNewsletterSubscribers.email, createdEmails));
  }
  for (const address of usedAddresses) {
    await db.delete(rateLimits).where(like(rateLimits.key, `%${address}%`));
  }
  await closeServerDatabase();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

type Sent = {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  /** The body, sent at once; or `chunks` bytes, sent in pieces until the server answers. */
  body?: Buffer | string;
  streamBytes?: number;
};

/** One request from a fresh loopback address, with a same-origin `Origin` (origin-check.server.ts). */
function send({ method = "GET", path, headers = {}, body, streamBytes }: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        host: hostname,
        port,
        method,
        path,
        localAddress: freshClientAddress(),
        headers: {
          Origin: baseUrl,
          Accept: "text/html",
          ...(body === undefined ? {} : { "Content-Length": Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (response) => {
        answered = true;
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text });
          request.destroy();
        });
      },
    );
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (streamBytes === undefined) {
      request.end(body);
      return;
    }
    // An upload that keeps coming: 64 KB at a time, until the server answers or all was sent.
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (!answered && sent < streamBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    request.flushHeaders();
    pump();
  });
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** A urlencoded body written by hand (so that it may hold what URLSearchParams would re-encode). */
function rawForm(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

function expectFrench(answer: Answer, status: number) {
  expect(answer.status, answer.body.replace(/^[^]*<h1>/, "")).toBe(status);
  expect(answer.headers["cache-control"]).toBe("no-store");
  expect(answer.body).toContain('lang="fr"');
  expect(answer.body).toMatch(/invalide|volumineux|méthode|trop long|dépasse/i);
}

/** Every public contact form: its address and a valid submission for it, percent-encoded. */
const contactForms_ = (["ussel", "brive", "limoges"] as const).flatMap((studio) => {
  const form = contactForms[studio];
  const fields = (email: string, message: string): Record<string, string> => ({
    shootingType: encodeURIComponent(form.shootingTypes[0]?.value ?? ""),
    prenom: "Camille",
    nom: "Martin",
    email: encodeURIComponent(email),
    ...(studio === "limoges" ? {} : { telephone: "0601020304" }),
    source: encodeURIComponent(form.sources[0]?.value ?? ""),
    // Last, so that raw bytes appended to the body belong to it.
    message,
  });
  return [
    { path: `/contact-studio-${studio}`, fields },
    { path: `/contact?studio=${studio}`, fields },
  ];
});

describe("contact forms", () => {
  it.each(contactForms_)(
    "$path keeps a message holding NUL, control characters and bytes that are not UTF-8",
    async ({ path, fields }) => {
      const email = uniqueEmail();
      const message = "Bonjour%00 nous%01 voudrions%C3%28 une s%C3%A9ance%0Apour deux.";
      const answer = await send({
        method: "POST",
        path,
        headers: FORM,
        body: rawForm(fields(email, message)),
      });
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      const stored = await serverDatabase()
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.email, email));
      expect(stored.map((row) => row.message)).toEqual([
        "Bonjour nous voudrions\uFFFD( une séance\npour deux.",
      ]);
    },
  );

  it.each(contactForms_)(
    "$path takes raw bytes that are not UTF-8 as U+FFFD",
    async ({ path, fields }) => {
      const email = uniqueEmail();
      const body = Buffer.concat([
        Buffer.from(rawForm(fields(email, "Caf"))),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(" au studio"),
      ]);
      const answer = await send({ method: "POST", path, headers: FORM, body });
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      const [stored] = await serverDatabase()
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.email, email));
      expect(stored?.message).toBe("Caf\uFFFD(\uFFFD au studio");
    },
  );

  it.each(contactForms_)(
    "$path refuses over-long values in French, echoing no more than the form allows",
    async ({ path, fields }) => {
      // Longer than the message may be: the form's own French field message.
      const long = await send({
        method: "POST",
        path,
        headers: FORM,
        body: rawForm(fields(uniqueEmail(), "a".repeat(6_000))),
      });
      expect(long.status).toBe(400);
      expect(long.body).toContain("Le message est trop long");
      // Longer than any field of a public form: refused before the action, in French.
      const huge = await send({
        method: "POST",
        path,
        headers: FORM,
        body: rawForm(fields(uniqueEmail(), "a".repeat(50_000))),
      });
      expectFrench(huge, 400);
      expect(huge.body.length).toBeLessThan(5_000);
    },
  );

  it.each(contactForms_)("$path refuses oversized bodies with 413", async ({ path, fields }) => {
    const padding = "a".repeat(20 * 1024 * 1024);
    const declared = await send({
      method: "POST",
      path,
      headers: FORM,
      body: `${rawForm(fields(uniqueEmail(), "Bonjour"))}&x=${padding}`,
    });
    expectFrench(declared, 413);
    expect(declared.body.length).toBeLessThan(5_000);
    // No Content-Length: counted while it arrives.
    const streamed = await send({
      method: "POST",
      path,
      headers: { ...FORM, "Transfer-Encoding": "chunked" },
      streamBytes: 20 * 1024 * 1024,
    });
    expectFrench(streamed, 413);
    const multipart = await send({
      method: "POST",
      path,
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      streamBytes: 20 * 1024 * 1024,
    });
    expectFrench(multipart, 413);
  });
});

describe("newsletter on /blog", () => {
  it("normalises an address holding NUL and refuses what cannot be an address, in French", async () => {
    const email = uniqueEmail();
    const withNul = email.replace("@", "%00@");
    const normalised = await send({
      method: "POST",
      path: "/blog",
      headers: FORM,
      body: rawForm({ email: withNul, source: "blog" }),
    });
    expect(normalised.status, normalised.body.slice(0, 300)).toBe(200);
    const stored = await serverDatabase()
      .select()
      .from(blogNewsletterSubscribers)
      .where(eq(blogNewsletterSubscribers.email, email));
    expect(stored).toHaveLength(1);

    for (const value of ["a%C3%28@example.org", `${"a".repeat(9_000)}@example.org`]) {
      const refused = await send({
        method: "POST",
        path: "/blog",
        headers: FORM,
        body: rawForm({ email: value, source: "blog" }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatch(/Email (invalide|trop long)/);
    }
  });

  it("refuses a 20 MB multipart post with 413", async () => {
    const answer = await send({
      method: "POST",
      path: "/blog",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": 20 << 20 },
      body: Buffer.alloc(0),
    });
    expectFrench(answer, 413);
  });
});

describe("admin sign-in", () => {
  it("answers a 10,000-character or NUL-holding e-mail without a server error", async () => {
    for (const email of [
      `${"a".repeat(9_988)}@example.org`,
      "owner%00@example.org",
      "owner%C3%28@example.org",
    ]) {
      const answer = await send({
        method: "POST",
        path: "/admin/login",
        headers: FORM,
        body: rawForm({ email, password: "not-the-password" }),
      });
      expect(answer.status, `${email.slice(0, 20)}: ${answer.body.slice(0, 200)}`).toBeLessThan(
        500,
      );
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.headers["cache-control"]).toBe("no-store");
    }
  });
});

describe("query parameters and addresses", () => {
  const refused = [
    "/blog?q=%00",
    "/blog?q=caf%C3%28",
    "/blog?q=%FF",
    "/blog?page=%00",
    "/blog?page=1%0D%0ASet-Cookie:x=1",
    "/blog?categorie=%00",
    "/blog?categorie=%C3%28",
    "/blog/categorie/x?page=%00",
    "/blog/categorie/x?page=%C3%28",
    "/blog/%00",
    "/blog/categorie/%C3%28",
    "/contact?studio=%00",
  ];
  it.each(refused)("%s is refused with a French 400", async (path) => {
    expectFrench(await send({ path }), 400);
  });

  it("refuses raw bytes that are not UTF-8, or NUL, in the address with a French 400", async () => {
    for (const bytes of [Buffer.from([0xc3, 0x28]), Buffer.from([0x00])]) {
      const raw = Buffer.concat([
        Buffer.from("GET /blog?q="),
        bytes,
        Buffer.from(` HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`),
      ]);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(raw));
        let text = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => (text += chunk));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('lang="fr"');
      expect(answer).toContain("caractères invalides");
    }
  });

  it("keeps normal pages for values it can normalise", async () => {
    for (const path of [
      `/blog?q=${encodeURIComponent("é".repeat(1_000))}`,
      "/blog?page=999999999999",
      "/blog?page=-1",
      "/blog?categorie=inconnue",
      "/blog/categorie/x?page=abc",
    ]) {
      const answer = await send({ path });
      expect(answer.status, path).toBeLessThan(500);
      expect([200, 404], path).toContain(answer.status);
    }
  });
});

describe("methods", () => {
  it("answers TRACE on any page, and PUT, DELETE, PATCH on /blog, with 405 and Allow", async () => {
    for (const path of ["/", "/blog", "/tarifs", "/contact", "/admin/login", "/nope"]) {
      const answer = await send({ method: "TRACE", path });
      expectFrench(answer, 405);
      expect(answer.headers.allow, path).toMatch(/^GET, HEAD(, POST)?$/);
    }
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const answer = await send({ method, path: "/blog", headers: FORM, body: "email=x" });
      expectFrench(answer, 405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST");
    }
  });

  it("answers a POST to a page without action with 405 and Allow: GET, HEAD", async () => {
    for (const path of ["/tarifs", "/", "/blog/categorie/x", "/nope"]) {
      const answer = await send({ method: "POST", path, headers: FORM, body: "x=1" });
      expectFrench(answer, 405);
      expect(answer.headers.allow, path).toBe("GET, HEAD");
    }
  });
});

describe("bodies that are not forms", () => {
  // Every route of the table, its parameters filled with values of the right shape.
  const routePaths = (entries: RouteConfigEntry[] = routes): string[] =>
    entries.flatMap((entry) => [
      ...(entry.path === undefined
        ? []
        : [
            `/${entry.path}`
              .replace(/:[a-zA-Z]+Id\b|:id\b|:uploadId\b/g, "00000000-0000-4000-8000-000000000000")
              .replace(/\/:[a-zA-Z]+\??/g, "/x")
              .replace(/\*$/, "x"),
          ]),
      ...routePaths(entry.children ?? []),
    ]);
  const bodies = [
    { type: "text/plain", body: "x" },
    { type: "application/json", body: '{"email":"a@example.com"}' },
    { type: undefined, body: "email=a%40example.com" },
  ];
  // The forms a visitor reaches without signing in, and the admin's sign-in.
  const forms = [
    "/blog",
    "/contact",
    "/contact-studio-brive",
    "/newsletter/desabonnement",
    "/admin/login",
    "/admin/mot-de-passe-oublie",
    "/admin/premier-administrateur",
  ];

  /** Each of `bodies` posted to `path`, with its answer. */
  async function* postedTo(path: string) {
    for (const { type, body } of bodies) {
      const headers: Record<string, string> = type ? { "Content-Type": type } : {};
      yield { type, answer: await send({ method: "POST", path, headers, body }) };
    }
  }

  it("are refused on every form with a French 415 in the site's refusal page", async () => {
    for (const path of forms) {
      for await (const { type, answer } of postedTo(path)) {
        expect(answer.status, `${path} ${type}`).toBe(415);
        expect(answer.headers["cache-control"]).toBe("no-store");
        expect(answer.body).toContain('lang="fr"');
        expect(answer.body).toContain("n&#39;accepte que l&#39;envoi d&#39;un formulaire");
      }
    }
  });

  it("never get a server error, on any route of the table", async () => {
    const paths = [...new Set(routePaths())];
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      for await (const { type, answer } of postedTo(path)) {
        expect(answer.status, `${path} ${type}`).toBeLessThan(500);
      }
    }
  });
});

describe("slow senders", () => {
  it("answers a declared 1 GB body at once, without waiting for it", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) }, () => {
        socket.write(
          `POST /contact HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${baseUrl}\r\n` +
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000000\r\n\r\nmessage=",
        );
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("</html>")) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("trop volumineux");
  });
});
