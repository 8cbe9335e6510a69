import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../app/server/free-port.server";
import { request } from "../../scripts/bench/http";
import {
  freeSlotPaths,
  offerBooking,
  raceForOneSlot,
  SLOT_TAKEN_MESSAGE,
} from "../../scripts/bench/reservations";
import { root } from "../../scripts/lib/build";
import { createAccount } from "../support/accounts";
import {
  fieldsetNamed,
  formOf,
  intentButton,
  labelled,
  plainSpaces,
  typeInto,
} from "../support/admin-content";
import { postLogin, pressButton } from "../support/admin-forms";
import { cookieAfter } from "../support/auth";
import { requireCaddy, SERVED_BY, startCaddy, type Caddy } from "../support/caddy";
import { insertSessionVoucher, voucherState } from "../support/booking-vouchers";
import { insertTestGallery } from "../support/galleries";
import { fetchPage, textOf } from "../support/html";
import { makeTestJpeg } from "../support/photos";
import { startS3Server, type S3Server } from "../support/s3-server";
import { closeServerDatabase, serverDatabase, targetServer } from "../support/server-under-test";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// Several app servers, proven (decision 0119): two production app processes on one
// PostgreSQL and one S3 bucket, behind Caddy with the repository's own configuration (deploy/Caddyfile),
// asked only through Caddy, which names the server of each answer. Started once for the whole file; the
// last test kills one of them.

let s3: S3Server | undefined;
let first: ServerProcess | undefined;
let second: ServerProcess | undefined;
let caddy: Caddy | undefined;
let database: pg.Client | undefined;
/** When both servers were up: a schedule's occurrence sent after it was sent with both running. */
let bothUpAt: Date;

const ready = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error("used before beforeAll ran");
  return value;
};
const hostOf = (server: ServerProcess | undefined) => new URL(ready(server).baseUrl).host;
const proxy = () => ready(caddy).baseUrl;

beforeAll(async () => {
  // Without Caddy, nothing else is started: the file fails at once, saying how to install it.
  requireCaddy();
  s3 = await startS3Server();
  // The environment of every server of the site: one secret, one bucket, one proxy in front.
  const env = {
    ...s3.env,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    TRUST_PROXY: "1",
  };
  const adminUrl = inject("adminDatabaseUrl");
  first = await startServerProcess(adminUrl, env);
  second = await startServerProcess(adminUrl, env, { sharedDatabaseUrl: first.databaseUrl });
  bothUpAt = new Date();
  caddy = await startCaddy([hostOf(first), hostOf(second)]);
  // The support helpers (pages, forms, accounts) go through Caddy; fixtures go to the shared database.
  await targetServer({ ...first, baseUrl: caddy.baseUrl });
  database = new pg.Client({ connectionString: first.databaseUrl });
  await database.connect();
}, 180_000);

afterAll(async () => {
  await closeServerDatabase();
  await database?.end();
  await caddy?.stop();
  // The second first: the first one's stop drops the database.
  await second?.stop();
  await first?.stop();
  await s3?.stop();
}, 60_000);

/** An answer through Caddy, with the server that gave it. */
async function throughCaddy(pathname: string, init: RequestInit = {}) {
  const response = await fetch(new URL(pathname, proxy()), { redirect: "manual", ...init });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    body,
    text: () => body.toString("utf8"),
    servedBy: response.headers.get(SERVED_BY) ?? "",
  };
}

/** Round-robin: each server answered one of two requests in a row. */
const bothServers = () => [hostOf(first), hostOf(second)].sort();

describe("two app servers behind Caddy", () => {
  it("keeps a visitor signed in on one server signed in on the other", async () => {
    const account = await createAccount();
    const signedIn = await postLogin(account.email, account.password);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");
    const cookie = cookieAfter(signedIn.headers);
    const signedInBy = signedIn.headers.get(SERVED_BY);

    const pages = [];
    for (let index = 0; index < 2; index++) {
      const page = await fetchPage("/admin/dashboard", { cookie });
      pages.push({
        status: page.status,
        title: textOf(page.document.querySelector("h1")),
        servedBy: page.headers.get(SERVED_BY),
      });
    }
    expect(pages.map(({ status, title }) => [status, title])).toEqual([
      [200, "Tableau de bord"],
      [200, "Tableau de bord"],
    ]);
    expect(pages.map((page) => page.servedBy).sort()).toEqual(bothServers());
    expect(pages.map((page) => page.servedBy)).toContain(
      bothServers().find((host) => host !== signedInBy),
    );
  });

  it("serves a price saved through one server on the other within a second", async () => {
    const account = await createAccount();
    const cookie = cookieAfter((await postLogin(account.email, account.password)).headers);
    // Both servers hold /tarifs in their page cache.
    const cached = new Set<string>();
    for (let attempt = 0; attempt < 20 && cached.size < 2; attempt++) {
      const answer = await throughCaddy("/tarifs");
      expect(answer.status).toBe(200);
      if (answer.headers.get("x-page-cache") === "hit") cached.add(answer.servedBy);
    }
    expect([...cached].sort()).toEqual(bothServers());

    const page = await fetchPage("/admin/tarifs", { cookie });
    const form = formOf(page);
    const priceField =
      labelled(fieldsetNamed(form, "Séance Naissance"), "Prix").getAttribute("name") ?? "";
    const saved = await pressButton(
      "/admin/tarifs",
      intentButton(typeInto(form, { [priceField]: "119 €" }), "save"),
      { cookie },
    );
    const savedAt = performance.now();
    expect(saved.status).toBe(302);
    const savedBy = saved.headers.get(SERVED_BY);
    const other = bothServers().find((host) => host !== savedBy);

    // Asked again and again until the other server answers with the new price (bounded: 5 s, 400 asks).
    let shownByOtherAfterMs: number | undefined;
    for (let ask = 0; ask < 400 && performance.now() - savedAt < 5_000; ask++) {
      const answer = await throughCaddy("/tarifs");
      if (answer.servedBy === other && plainSpaces(answer.text()).includes("119 €")) {
        shownByOtherAfterMs = performance.now() - savedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(shownByOtherAfterMs).toBeDefined();
    expect(shownByOtherAfterMs).toBeLessThan(1_000);
  });

  it("takes a photo's pieces through both servers, and serves it from either", async () => {
    const account = await createAccount();
    const cookie = cookieAfter((await postLogin(account.email, account.password)).headers);
    const { id: galleryId } = await insertTestGallery(serverDatabase(), {
      title: "Deux serveurs",
    });
    // A camera's JPEG of 9 MiB (comments after its start marker): two pieces of 8 MiB at most.
    const photo = await makeTestJpeg({ index: 7, width: 1200, height: 800 });
    const comment = Buffer.alloc(65_535 + 2, 0x20);
    comment.set([0xff, 0xfe, 0xff, 0xff], 0);
    const padding = Buffer.concat(Array.from({ length: 144 }, () => comment));
    const file = Buffer.concat([photo.subarray(0, 2), padding, photo.subarray(2)]);
    const headers = { Cookie: cookie, Origin: proxy() };

    const started = await throughCaddy("/admin/envois", {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({
        galleryId,
        name: "deux-serveurs.jpg",
        size: file.length,
        type: "image/jpeg",
        lastModified: 1_700_000_000_000,
      }),
    });
    expect(started.status).toBe(201);
    const upload = JSON.parse(started.text()) as { uploadId: string; chunkSize: number };
    const pieces: { status: number; servedBy: string }[] = [];
    let photoId = "";
    for (let offset = 0; offset < file.length; offset += upload.chunkSize) {
      const piece = await throughCaddy(
        `/admin/envois/${upload.uploadId}?galerie=${galleryId}&offset=${offset}`,
        {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/octet-stream" },
          body: file.subarray(offset, offset + upload.chunkSize),
        },
      );
      pieces.push({ status: piece.status, servedBy: piece.servedBy });
      photoId = (JSON.parse(piece.text()) as { photoId?: string }).photoId ?? photoId;
    }
    expect(pieces.map((piece) => piece.status)).toEqual([200, 201]);
    expect(pieces.map((piece) => piece.servedBy).sort()).toEqual(bothServers());

    // Prepared by whichever server's worker took its job (bounded: 90 s).
    await expect
      .poll(
        async () => {
          const progress = await throughCaddy(`/admin/galeries/${galleryId}/progression`, {
            headers,
          });
          return (JSON.parse(progress.text()) as { ready: number }).ready;
        },
        { timeout: 90_000, interval: 250 },
      )
      .toBe(1);
    const previews = [];
    for (let index = 0; index < 2; index++) {
      previews.push(
        await throughCaddy(`/admin/galeries/${galleryId}/photos/${photoId}/r1-w480.jpg`, {
          headers,
        }),
      );
    }
    expect(previews.map((preview) => preview.status)).toEqual([200, 200]);
    expect(previews.map((preview) => preview.servedBy).sort()).toEqual(bothServers());
    expect(previews[0]?.body.equals(previews[1]?.body ?? Buffer.alloc(0))).toBe(true);
    expect((await sharp(previews[0]?.body).metadata()).width).toBe(480);
  });

  it("counts a visitor's sign-ups on both servers against one limit, and each visitor on its own", async () => {
    // Each visitor is a loopback address of its own: Caddy tells the servers which (X-Forwarded-For).
    const signUp = (localAddress: string, index: number) =>
      request(`${proxy()}/blog`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: proxy(),
          accept: "text/html",
        },
        body: new URLSearchParams({
          email: `limite-${randomBytes(3).toString("hex")}-${index}@example.com`,
          source: "blog",
        }).toString(),
        localAddress,
      });
    const answers = [];
    for (let index = 0; index < 6; index++) answers.push(await signUp("127.0.2.1", index));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(new Set(answers.map((answer) => String(answer.headers[SERVED_BY]))).size).toBe(2);
    // Another visitor, meanwhile, is welcome.
    expect((await signUp("127.0.2.2", 6)).status).toBe(200);
  });

  it(
    "makes one booking of 50 visitors who book the same slot at once, split across both servers",
    { timeout: 240_000 },
    async ({ annotate }) => {
      const race = await raceForOneSlot({
        servers: [{ baseUrl: proxy() }],
        visitors: 50,
        client: ready(database),
        from: (visitor) => `127.0.1.${visitor + 1}`,
      });
      expect(race.unexpected).toEqual([]);
      expect(race.outcomes).toEqual({ booked: 1, taken: 49, other: 0, "5xx": 0, network: 0 });
      expect(race.rows).toBe(1);
      expect(SLOT_TAKEN_MESSAGE).toBe("Ce créneau vient d'être réservé.");
      expect(Object.keys(race.servedBy).sort()).toEqual(bothServers());
      expect(Object.values(race.servedBy)).toEqual([25, 25]);
      const figures = `50 answers in ${Math.round(race.allAnsweredMs)} ms (p50 ${Math.round(race.answerP50Ms)} ms, max ${Math.round(race.answerMaxMs)} ms; the booking ${Math.round(race.winnerMs ?? 0)} ms)`;
      process.stdout.write(`${figures}\n`);
      await annotate(figures);
    },
  );

  it(
    "uses one session voucher once when 50 visitors book 50 times with its code at once, split across both servers",
    { timeout: 240_000 },
    async () => {
      // Decision 0170: the voucher's compare-and-set runs in each booking's transaction, whichever process.
      const { typeId, daysPath } = await offerBooking(ready(database), "limoges");
      const voucher = await insertSessionVoucher(
        { sessionTypeId: typeId, studioId: null },
        serverDatabase(),
      );
      const slots = await freeSlotPaths(proxy(), daysPath, 50);
      const run = randomBytes(3).toString("hex");
      const answers = await Promise.all(
        slots.map((slot, index) =>
          request(`${proxy()}${slot}`, {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              origin: proxy(),
              accept: "text/html",
            },
            body: new URLSearchParams({
              name: "Camille Bon",
              email: `bon-${run}-${index}@example.com`,
              phone: "",
              consent: "on",
              site_web: "",
              voucherCode: voucher.code,
            }).toString(),
            timeoutMs: 60_000,
            // Each visitor from an address of its own: the wrong codes' limit counts per address.
            localAddress: `127.0.3.${index + 1}`,
          }),
        ),
      );
      // Counted by status, so that a failure names every answer that was neither (a 502, a 429…).
      const counts: Record<number, number> = {};
      for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
      expect(counts).toEqual({ 303: 1, 400: 49 });
      for (const answer of answers.filter((each) => each.status === 400)) {
        expect(answer.body.replace(/&#x27;|&#39;/g, "'")).toContain("Ce bon a déjà été utilisé.");
      }
      expect(new Set(answers.map((answer) => String(answer.headers[SERVED_BY]))).size).toBe(2);
      const made = await ready(database).query<{ id: string }>(
        "select id from bookings where session_type_id = $1",
        [typeId],
      );
      expect(made.rows).toHaveLength(1);
      const state = await voucherState(voucher.id, serverDatabase());
      expect(state.status).toBe("used");
      expect(state.uses.map((use) => use.bookingId)).toEqual([made.rows[0]?.id]);
    },
  );

  it("refuses a third server that would keep its files on its own disk, in French", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "two-servers-disk-"));
    try {
      const child = spawn(process.execPath, ["server.ts"], {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: "production",
          HOST: "127.0.0.1",
          PORT: String(await freePort()),
          DATA_DIR: dataDir,
          DATABASE_URL: ready(first).databaseUrl,
          AUTH_SECRET: ready(first).authSecret,
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
        child.once("close", (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(code, output).toBe(1);
      expect(output).toContain(
        "Ce serveur ne démarre pas : un autre serveur de l'application, qui garde ses fichiers dans un autre stockage S3,",
      );
      expect(output).toContain("tous doivent partager le même stockage S3");
      expect(output).not.toContain("server_started");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("runs each scheduled job once, whichever server's clock calls it", async () => {
    // Both servers schedule `publish` every minute: each occurrence is sent once (pg-boss files it under
    // its minute) and makes one job, done by one of them.
    const occurrences = async () =>
      (
        await ready(database).query<{ slot: string; sent: number; done: number; at: Date }>(
          `select data->>'slot' as slot, count(*)::int as sent,
             count(*) filter (where state = 'completed')::int as done, min(created_on) as at
           from pgboss.job where name = '__pgboss__send-it' and data->>'name' = 'publish'
           group by 1 order by 1`,
        )
      ).rows;
    const publishJobs = async () =>
      (
        await ready(database).query<{ made: number; done: number }>(
          `select count(*)::int as made, count(*) filter (where state = 'completed')::int as done
           from pgboss.job where name = 'publish'`,
        )
      ).rows[0] ?? { made: 0, done: 0 };
    // An occurrence sent while both servers were up, and its job done (bounded: the next minute comes
    // within 60 s, a cron pass of one of them sends it within about 6 s: queue.server.ts).
    await expect
      .poll(
        async () =>
          (await occurrences()).some(
            (occurrence) => occurrence.done && occurrence.at >= bothUpAt,
          ) && (await publishJobs()).done > 0,
        { timeout: 100_000, interval: 1_000 },
      )
      .toBe(true);
    const seen = await occurrences();
    expect(
      seen.filter((occurrence) => occurrence.sent !== 1),
      JSON.stringify(seen),
    ).toEqual([]);
    const jobs = await publishJobs();
    expect(jobs.made).toBeGreaterThanOrEqual(seen.filter((occurrence) => occurrence.done).length);
    expect(jobs.made).toBeLessThanOrEqual(seen.length);
  });

  it("purges personal data once a night between them", { timeout: 240_000 }, async () => {
    const client = ready(database);
    // One schedule for the site, whichever server wrote it last: 04:15 each night, Paris time.
    const schedule = async () =>
      (
        await client.query<{ cron: string; timezone: string }>(
          `select cron, timezone from pgboss.schedule where name = 'personal-data-purge'`,
        )
      ).rows;
    expect(await schedule()).toEqual([{ cron: "15 4 * * *", timezone: "Europe/Paris" }]);
    // A message past its 18 months, for the purge to forget.
    const old = await client.query<{ id: string }>(
      `insert into contact_messages (studio, shooting_type, prenom, nom, email, message, created_at)
       values ('ussel', 'naissance', 'Anne', 'Martin', 'ancienne@example.com', 'Bonjour',
         now() - interval '19 months') returning id`,
    );
    // Tonight brought to a minute that is due now, Paris time, on the shared schedule. An occurrence stays
    // due for a minute after it (pg-boss's window), and some server's cron pass comes every 5 s, 6 s when
    // one of them lost the claim (queue.server.ts): the minute under way when it began less than 45 s
    // ago, the next one otherwise.
    const minuteStart = Math.floor(Date.now() / 60_000) * 60_000;
    const night = new Date(Date.now() - minuteStart <= 45_000 ? minuteStart : minuteStart + 60_000);
    const [hour, minute] = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Paris",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .format(night)
      .split(":")
      .map(Number);
    await client.query(`update pgboss.schedule set cron = $1 where name = 'personal-data-purge'`, [
      `${minute} ${hour} * * *`,
    ]);
    try {
      const purges = async () =>
        (
          await client.query<{ made: number; done: number }>(
            `select count(*)::int as made, count(*) filter (where state = 'completed')::int as done
             from pgboss.job where name = 'personal-data-purge'`,
          )
        ).rows[0] ?? { made: 0, done: 0 };
      // Done by one of them (bounded: its minute comes within 15 s, a cron pass sends it within 6 s).
      await expect
        .poll(async () => (await purges()).done, { timeout: 200_000, interval: 1_000 })
        .toBe(1);
      expect(await purges()).toEqual({ made: 1, done: 1 });
      const sent = await client.query<{ sent: number }>(
        `select count(*)::int as sent from pgboss.job
         where name = '__pgboss__send-it' and data->>'name' = 'personal-data-purge'`,
      );
      expect(sent.rows[0]?.sent).toBe(1);
      const left = await client.query(`select 1 from contact_messages where id = $1`, [
        old.rows[0]?.id,
      ]);
      expect(left.rowCount).toBe(0);
    } finally {
      await client.query(
        `update pgboss.schedule set cron = '15 4 * * *' where name = 'personal-data-purge'`,
      );
    }
  });

  it("keeps serving through Caddy when one server is killed in the middle of a request", async () => {
    // Both servers in Caddy's rotation first: one that failed a request or a health check under an
    // earlier test's load is left out for a while (fail_duration, health_interval), and both forms
    // would then go to the server killed below.
    await expect
      .poll(
        async () => {
          const served = new Set<string>();
          for (let index = 0; index < 4; index++) {
            const answer = await request(`${proxy()}/healthz`, { timeoutMs: 10_000 });
            served.add(String(answer.headers[SERVED_BY]));
          }
          return served.size;
          // Longer than Caddy's fail_duration (30 s), the longest a server is left out.
        },
        { timeout: 60_000 },
      )
      .toBe(2);
    // Two forms on their way, one at each server (round-robin), their bodies not sent yet.
    const slowPosts = Array.from({ length: 2 }, () => {
      const post = http.request(new URL("/contact", proxy()), {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": "20",
          origin: proxy(),
        },
      });
      const answered = new Promise<number>((resolve) => {
        post.on("response", (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        post.on("error", () => resolve(0));
        post.setTimeout(30_000, () => post.destroy());
      });
      post.write("prenom=Camille&");
      return { post, answered };
    });
    // Caddy passes the headers on at once; the bodies wait for the rest.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await ready(second).kill("SIGKILL")).toBeNull();
    for (const { post } of slowPosts) post.end("nom=B");
    const statuses = (await Promise.all(slowPosts.map(({ answered }) => answered))).sort();
    // The one at the killed server: Caddy's 502 (a request already sent is never sent twice); the
    // other is answered by its server.
    expect(statuses.filter((status) => status === 502)).toHaveLength(1);
    expect(statuses.filter((status) => status > 0 && status < 500)).toHaveLength(1);

    const after = [];
    for (let index = 0; index < 10; index++) {
      const answer = await throughCaddy(index % 2 ? "/tarifs" : "/");
      after.push({ status: answer.status, servedBy: answer.servedBy });
    }
    expect(after).toEqual(Array(10).fill({ status: 200, servedBy: hostOf(first) }));
  });
});
