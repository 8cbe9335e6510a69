import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LISTENER_APPLICATION_NAME } from "../../app/server/content/content-version-listener.server";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// Decision 0093: a cached page costs no database round trip while the process is told of every change by
// PostgreSQL (LISTEN/NOTIFY on the content version); a change committed by another connection shows once
// its notification arrives; when the listening connection is lost, every request reads the version itself
// (never stale) until the connection is back and the version read again.

let server: ServerProcess;
let database: pg.Client;

beforeAll(async () => {
  server = await startServerProcess(inject("adminDatabaseUrl"));
  database = new pg.Client({ connectionString: server.databaseUrl });
  await database.connect();
});

afterAll(async () => {
  await database?.end();
  await server?.stop();
});

async function tarifs() {
  const response = await fetch(`${server.baseUrl}/tarifs`, {
    headers: { "accept-encoding": "gzip" },
  });
  const html = await response.text();
  const timing = response.headers.get("server-timing") ?? "";
  return {
    html,
    cache: response.headers.get("x-page-cache"),
    queries: Number(/desc="(\d+) queries"/.exec(timing)?.[1] ?? Number.NaN),
  };
}

/** "hit 0": served from the cache without asking the database; "hit 1": after reading the version. */
const howServed = async () => {
  const answer = await tarifs();
  return `${answer.cache} ${answer.queries}`;
};

let title = "Séance Famille";
/** Renames the first price card of /tarifs in one transaction of another connection. */
async function renamePriceCard(next: string) {
  const result = await database.query(
    `update site_documents set data = replace(data::text, $1, $2)::jsonb where key = 'prices'`,
    [`"${title}"`, `"${next}"`],
  );
  expect(result.rowCount).toBe(1);
  title = next;
}

/** Waits (20 s at most) until /tarifs is served from the cache without asking the database. */
const onFastPath = () => expect.poll(howServed, { timeout: 20_000, interval: 50 }).toBe("hit 0");

const shows = (html: string, text: string) => html.includes(`${text}<`);

/** Header names in order, and their values but for what belongs to one answer. */
async function headersOf(acceptEncoding: string) {
  const response = await fetch(`${server.baseUrl}/tarifs`, {
    headers: { "accept-encoding": acceptEncoding },
  });
  await response.arrayBuffer();
  return [...response.headers]
    .filter(([name]) => name !== "date")
    .map(([name, value]) =>
      name === "content-security-policy"
        ? [name, value.replace(/'nonce-[^']+'/, "'nonce-…'")]
        : name === "content-length"
          ? [name, "…"]
          : [name, value],
    );
}

describe("page cache told of changes by PostgreSQL", () => {
  it("answers a hit before Express with the headers Express would send", async () => {
    await onFastPath();
    // A weighted Accept-Encoding is left to Express's negotiation: the same stored page, through the
    // whole middleware stack.
    const throughExpress = await headersOf("gzip;q=1, identity;q=0.5");
    const beforeExpress = await headersOf("gzip");
    expect(beforeExpress).toEqual(throughExpress);
    expect(beforeExpress).toContainEqual(["x-page-cache", "hit"]);
    expect(beforeExpress).toContainEqual(["content-encoding", "gzip"]);
    expect(beforeExpress.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "content-security-policy",
        "x-content-type-options",
        "referrer-policy",
        "permissions-policy",
        "x-frame-options",
        "cross-origin-opener-policy",
        "cross-origin-resource-policy",
        "content-type",
        "vary",
        "server-timing",
      ]),
    );
  });

  it("keeps cached pages on the fast path while a visitor's form is on its way", async () => {
    await onFastPath();
    // An anonymous post whose body is slow to come (a contact form on a slow line, or a stranger's
    // trickle): content changes only through the admin area, so nothing is set aside meanwhile.
    const url = new URL("/contact", server.baseUrl);
    const slowPost = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "content-length": "1000",
        origin: url.origin,
      },
    });
    slowPost.on("error", () => undefined);
    slowPost.write("prenom=Camille&");
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await howServed()).toBe("hit 0");
      expect(await howServed()).toBe("hit 0");
    } finally {
      slowPost.destroy();
    }
  });

  it("serves cached pages without a round trip, and a change committed elsewhere once notified", async () => {
    await onFastPath();
    // Another answer of the same stored page is identical but for the nonce: the header says it too.
    expect((await tarifs()).queries).toBe(0);

    await renamePriceCard("Séance Famille notifiée");
    await expect
      .poll(async () => shows((await tarifs()).html, title), { timeout: 10_000, interval: 5 })
      .toBe(true);
    // How soon is the benchmark's (« ceiling »: a few milliseconds); this only says it shows.
    await expect.poll(howServed, { timeout: 10_000, interval: 20 }).toBe("hit 0");
  });

  it("reads the version on every request while the listening connection is lost, then listens again", async () => {
    await onFastPath();
    const killed = await database.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = $1 and datname = current_database()`,
      [LISTENER_APPLICATION_NAME],
    );
    expect(killed.rowCount).toBe(1);
    // The server learns of the loss (PostgreSQL says goodbye): cached answers now cost a version read.
    await expect.poll(howServed, { timeout: 5_000, interval: 5 }).toBe("hit 1");

    // A change while nobody listens: the very next request shows it.
    await renamePriceCard("Séance Famille sans écoute");
    const next = await tarifs();
    expect(shows(next.html, title)).toBe(true);
    expect(next.queries).toBeGreaterThanOrEqual(1);

    // Back within seconds: no round trip again, and changes arrive by notification again.
    await onFastPath();
    const listeners = await database.query(
      `select count(*)::int as count from pg_stat_activity
        where application_name = $1 and datname = current_database()`,
      [LISTENER_APPLICATION_NAME],
    );
    expect(listeners.rows[0]?.count).toBe(1);
    await renamePriceCard("Séance Famille réécoutée");
    await expect
      .poll(async () => shows((await tarifs()).html, title), { timeout: 10_000, interval: 5 })
      .toBe(true);
  });

  it("stops trusting a listening connection that goes silent (its heartbeat is late)", async () => {
    await onFastPath();
    // The listener's server process frozen: its socket stays open but nothing answers, as with a
    // connection cut somewhere on the way (half-open TCP). The test's cluster runs on this machine.
    const listener = await database.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = $1 and datname = current_database()`,
      [LISTENER_APPLICATION_NAME],
    );
    const pid = listener.rows[0]?.pid;
    expect(pid).toBeTypeOf("number");
    process.kill(pid ?? 0, "SIGSTOP");
    try {
      await renamePriceCard("Séance Famille sans nouvelles");
      // No notification can arrive; within heartbeat period + time-out (2 s) the server reads the
      // version itself and shows the change.
      await expect
        .poll(async () => shows((await tarifs()).html, title), { timeout: 10_000, interval: 20 })
        .toBe(true);
      expect((await tarifs()).queries).toBeGreaterThanOrEqual(1);
    } finally {
      process.kill(pid ?? 0, "SIGCONT");
    }
    // A new connection replaces the silent one.
    await onFastPath();
  });
});
