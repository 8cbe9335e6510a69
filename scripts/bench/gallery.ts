// Section gallery (decision 0103): a client gallery's ZIP (throughput, and the server's memory during a 2 GB
// archive, read as fast as loopback allows and by a client throttled to 20 MB/s), photos processed per
// minute, and the public pages' latency while 500 photos are processed. See docs/decisions/0104-zip.md.
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { copyFile, mkdir, readFile, statfs, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { crc32 } from "node:zlib";
import type pg from "pg";
import { makeTestJpeg } from "../../tests/support/photos.ts";
import { root } from "../lib/build.ts";
import type { Context } from "./context.ts";
import { signIn } from "./http.ts";
import { loadTest, type LoadResult } from "./load.ts";
import { check, metric, type Cell, type SectionResult } from "./report.ts";
import {
  type BenchServer,
  connect,
  makeDataDir,
  mib,
  removeDataDir,
  residentBytes,
  sleep,
  startServer,
} from "./server.ts";

/** RSS growth allowed while a ZIP streams (decision 0104): a few buffers, never the archive. */
const BUDGET_ZIP_GROWTH_MIB = 32;
/** The process's ceiling of decision 0092, for serving: a ZIP streams under it. */
const BUDGET_RSS_MIB = 260;
/**
 * While photos are prepared: 0092's ceiling plus the photo thread's allowance of decision 0102 (sharp loaded,
 * a 24 MP photo decoded, its source and its encodes: about 140 MiB), the process's peak on a 1 GB server.
 */
const BUDGET_PROCESSING_RSS_MIB = 400;
/** Decision 0102's target on this 2-core machine with PHOTO_WORKERS=1. */
const BUDGET_PHOTOS_PER_MINUTE = 15;
/** The quick run writes ~0.5 GB; a full one up to ~7 GB at once (500 queued uploads of 12 MB and more). */
const MIN_FREE_BYTES = { quick: 6e9, full: 10e9 };
const THROTTLED_BYTES_PER_SECOND = 20e6;

type Sample = { at: number; rss: number };

/** Samples a process's resident memory every `everyMs` (VmRSS) until stopped. */
export function sampleMemory(pid: number, everyMs = 200) {
  const samples: Sample[] = [];
  const take = () => samples.push({ at: Date.now(), rss: residentBytes(pid) ?? 0 });
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Refuses to start when the disk of the data directories has too little room (6 GB, 10 GB for a full run). */
async function assertFreeSpace(directory: string, quick: boolean) {
  const stats = await statfs(directory);
  const free = stats.bavail * stats.bsize;
  const needed = quick ? MIN_FREE_BYTES.quick : MIN_FREE_BYTES.full;
  if (free < needed) {
    throw new Error(
      `Espace disque insuffisant pour le banc gallery : ${(free / 1e9).toFixed(1)} Go libres, ${needed / 1e9} Go nécessaires.`,
    );
  }
  return free;
}

/** A gallery row of the server's database (no e-mail sent: the admin's pages are not used for it). */
export async function insertGallery(client: pg.Client, title: string): Promise<string> {
  const id = randomUUID();
  await client.query(
    `insert into galleries (id, title, client_name, client_email, session_date, expires_at, purge_at,
       access_code, downloads_allowed)
     values ($1, $2, 'Client du banc', 'banc@example.test', '2026-06-14', now() + interval '30 days',
       now() + interval '60 days', 'BANCBANC', true)`,
    [id, title],
  );
  return id;
}

/**
 * Camera-sized JPEGs (24 MP with grain, ~10–14 MB each): `distinct` files made once, returned with their
 * CRC-32 (the ZIP needs it), reused under other names.
 */
async function cameraFiles(directory: string, distinct: number, context: Context) {
  await mkdir(directory, { recursive: true });
  const files: { path: string; size: number; crc32: number }[] = [];
  for (let index = 1; index <= distinct; index++) {
    context.log(`gallery: photo de ${index}/${distinct} (6000 × 4000)`);
    const bytes = await makeTestJpeg({ index, width: 6000, height: 4000, noise: true });
    const file = path.join(directory, `camera-${index}.jpg`);
    await writeFile(file, bytes);
    files.push({ path: file, size: bytes.length, crc32: crc32(bytes) });
  }
  return files;
}

type Download = { bytes: number; expected: number; seconds: number; status: number };

/** Downloads `url` to nowhere, at full speed or throttled to `bytesPerSecond` (pausing the socket). */
function download(
  url: string,
  cookie: string,
  bytesPerSecond?: number,
  timeoutMs = 900_000,
): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(
      url,
      { headers: { cookie, "accept-encoding": "gzip, br" }, agent: false },
      (response) => {
        let bytes = 0;
        const expected = Number(response.headers["content-length"] ?? -1);
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (!bytesPerSecond) return;
          const due = (bytes / bytesPerSecond) * 1000 - (performance.now() - started);
          if (due > 5) {
            response.pause();
            setTimeout(() => response.resume(), due);
          }
        });
        response.on("end", () =>
          resolve({
            bytes,
            expected,
            seconds: (performance.now() - started) / 1000,
            status: response.statusCode ?? 0,
          }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error("timeout")));
    request.on("error", reject);
  });
}

/** POSTs a body (JSON or a chunk of bytes) with the admin's cookie; returns status and JSON. */
function post(
  url: string,
  cookie: string,
  origin: string,
  body: Buffer,
  type: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: {
          cookie,
          origin,
          "content-type": type,
          "content-length": String(body.length),
          accept: "application/json",
        },
        timeout: 120_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = { text: text.slice(0, 200) };
          }
          resolve({ status: response.statusCode ?? 0, json });
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * One photo through the upload protocol (decision 0101), as the admin's uploader sends it: the start
 * (`POST /admin/envois`), then the pieces in order (`POST /admin/envois/{id}?galerie=…&offset=N`).
 */
async function uploadPhoto(
  server: BenchServer,
  cookie: string,
  galleryId: string,
  name: string,
  bytes: Buffer,
) {
  const start = await post(
    `${server.baseUrl}/admin/envois`,
    cookie,
    server.baseUrl,
    Buffer.from(
      JSON.stringify({
        galleryId,
        name,
        size: bytes.length,
        type: "image/jpeg",
        lastModified: Date.now(),
      }),
    ),
    "application/json",
  );
  if (start.status !== 200 && start.status !== 201) {
    throw new Error(`Début d'envoi refusé (${start.status}) : ${JSON.stringify(start.json)}`);
  }
  const uploadId = String(start.json.uploadId);
  const chunkSize = Number(start.json.chunkSize);
  let offset = Number(start.json.received ?? 0);
  while (offset < bytes.length) {
    const piece = bytes.subarray(offset, offset + chunkSize);
    const answer = await post(
      `${server.baseUrl}/admin/envois/${uploadId}?galerie=${galleryId}&offset=${offset}`,
      cookie,
      server.baseUrl,
      piece,
      "application/octet-stream",
    );
    if (answer.status !== 200 && answer.status !== 201) {
      throw new Error(`Morceau refusé (${answer.status}) : ${JSON.stringify(answer.json)}`);
    }
    offset = Number(answer.json.received);
  }
}

async function countPhotos(client: pg.Client, galleryId: string) {
  const { rows } = await client.query<{ status: string; count: string }>(
    "select status, count(*)::text as count from gallery_photos where gallery_id = $1 group by status",
    [galleryId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)])) as Record<
    string,
    number
  >;
}

/** user + system CPU seconds of a process (/proc/<pid>/stat), all its threads together. */
async function cpuSeconds(pid: number): Promise<{ user: number; system: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = 100; // CLK_TCK on Linux
  return { user: Number(fields[11]) / ticks, system: Number(fields[12]) / ticks };
}

/** An administrator made by `npm run admin:create`, signed in: her session cookie. */
export async function createAdmin(server: BenchServer, email = "banc-galeries@example.com") {
  const admin = { email, password: randomBytes(12).toString("hex") };
  await promisify(execFile)(
    process.execPath,
    ["scripts/admin-create.ts", "--email", admin.email, "--password", admin.password],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, LOG_LEVEL: "warn" },
      timeout: 120_000,
    },
  );
  return signIn(server.baseUrl, admin.email, admin.password);
}

/** (a) A ZIP of ~2 GB (quick: ~200 MB) of camera originals placed straight into the store. */
async function zipRun(
  context: Context,
  tables: SectionResult["tables"],
  data: Record<string, unknown>,
) {
  const dataDir = await makeDataDir("gallery-zip");
  const targetBytes = context.quick ? 200e6 : 2e9;
  let server: BenchServer | undefined;
  try {
    server = await startServer({ dataDir, env: { PHOTO_WORKERS: "0" } });
    const cookie = await createAdmin(server);
    const client = await connect(server.databaseUrl);
    let galleryId: string;
    let totalOriginals = 0;
    let count = 0;
    try {
      galleryId = await insertGallery(client, "Mariage du banc");
      const sources = await cameraFiles(
        path.join(dataDir, "camera"),
        context.quick ? 3 : 10,
        context,
      );
      context.log(`gallery: originaux copiés dans le stockage jusqu'à ${targetBytes / 1e9} Go`);
      while (totalOriginals < targetBytes) {
        const source = sources[count % sources.length];
        if (!source) break;
        const photoId = randomUUID();
        const folder = path.join(dataDir, "uploads", "galleries", galleryId, photoId);
        await mkdir(folder, { recursive: true });
        await copyFile(source.path, path.join(folder, "original.jpg"));
        count += 1;
        await client.query(
          `insert into gallery_photos (id, gallery_id, position, original_name, status, source_extension,
             width, height, original_bytes, original_crc32, original_extension)
           values ($1, $2, $3, $4, 'ready', 'jpg', 6000, 4000, $5, $6, 'jpg')`,
          [
            photoId,
            galleryId,
            count,
            `IMG_${String(count).padStart(4, "0")}.jpg`,
            source.size,
            source.crc32,
          ],
        );
        totalOriginals += source.size;
      }
    } finally {
      await client.end();
    }
    const url = `${server.baseUrl}/galerie-client/${galleryId}/telecharger.zip`;
    // A first small request: the route's modules are loaded before « before » is read.
    await download(`${url}?favoris=1`, cookie);
    await sleep(2_000);

    const runs: Array<{ label: string; rate?: number }> = [
      { label: "débit maximal (loopback)" },
      { label: "client à 20 Mo/s", rate: THROTTLED_BYTES_PER_SECOND },
    ];
    const rows: Cell[][] = [];
    for (const run of runs) {
      context.log(`gallery: ZIP de ${(totalOriginals / 1e9).toFixed(2)} Go, ${run.label}`);
      const sampler = sampleMemory(server.pid);
      const before = sampler.samples[0]?.rss ?? 0;
      const result = await download(url, cookie, run.rate);
      const during = sampler.stop();
      await sleep(2_000);
      const after = residentBytes(server.pid) ?? 0;
      const max = Math.max(...during.map((sample) => sample.rss));
      const complete = result.status === 200 && result.bytes === result.expected;
      rows.push([
        run.label,
        metric(result.bytes / 1e6 / result.seconds, "Mo/s", undefined, 1),
        mib(before),
        metric(mib(max), "MiB", { max: BUDGET_RSS_MIB }),
        metric(mib(max - before), "MiB", { max: BUDGET_ZIP_GROWTH_MIB }, 1),
        mib(after),
        check(complete, complete ? "oui" : `non (${result.status}, ${result.bytes} octets)`),
      ]);
      data[run.rate ? "zipThrottled" : "zipFull"] = {
        ...result,
        beforeMiB: mib(before),
        maxMiB: mib(max),
        afterMiB: mib(after),
        samples: during.length,
      };
    }
    data.zipPhotos = count;
    data.zipOriginalBytes = totalOriginals;
    tables.push({
      caption: `ZIP de ${count} originaux (${(totalOriginals / 1e9).toFixed(2)} Go), RSS du serveur relevée toutes les 200 ms`,
      columns: [
        "lecteur",
        "débit",
        "RSS avant (MiB)",
        "RSS max",
        "croissance",
        "RSS après (MiB)",
        "archive complète",
      ],
      rows,
    });
  } finally {
    await server?.stop();
    await removeDataDir(dataDir);
  }
}

async function pageLoads(server: BenchServer, quick: boolean) {
  const pages: Array<{ path: string; headers: Record<string, string> }> = [
    { path: "/", headers: {} },
    { path: "/tarifs", headers: {} },
    { path: "/contact-studio-brive", headers: { cookie: "banc=1" } },
  ];
  const results: Array<{ path: string; result: LoadResult }> = [];
  for (const page of pages) {
    results.push({
      path: page.path,
      result: await loadTest(`${server.baseUrl}${page.path}`, {
        connections: 32,
        durationSeconds: quick ? 3 : 10,
        maxRequests: 1_000_000,
        headers: page.headers,
      }),
    });
  }
  return results;
}

/**
 * (b) photos processed per minute and (c) public pages' p50/p99 while 500 photos are processed: real
 * uploads through the protocol and the photos worker (PHOTO_WORKERS=1, the default).
 */
async function processingRun(
  context: Context,
  tables: SectionResult["tables"],
  data: Record<string, unknown>,
) {
  const dataDir = await makeDataDir("gallery-photos");
  let server: BenchServer | undefined;
  try {
    server = await startServer({ dataDir, env: { PHOTO_WORKERS: "1" } });
    const cookie = await createAdmin(server);
    const client = await connect(server.databaseUrl);
    try {
      const sources = await cameraFiles(
        path.join(dataDir, "camera"),
        context.quick ? 2 : 10,
        context,
      );
      const buffers = await Promise.all(sources.map((source) => readFile(source.path)));

      // (b) Throughput: 40 photos (quick: 8), from the first upload's completion to the last one ready.
      const measured = context.quick ? 8 : 40;
      const throughputGallery = await insertGallery(client, "Cadence du banc");
      const cpuBefore = await cpuSeconds(server.pid);
      const sampler = sampleMemory(server.pid);
      let firstUploaded = 0;
      for (let index = 0; index < measured; index++) {
        const bytes = buffers[index % buffers.length] ?? Buffer.alloc(0);
        await uploadPhoto(server, cookie, throughputGallery, `IMG_${index + 1}.jpg`, bytes);
        firstUploaded ||= Date.now();
      }
      context.log(`gallery: ${measured} photos envoyées, attente du traitement`);
      const deadline = Date.now() + (context.quick ? 300_000 : 1_200_000);
      let counts: Record<string, number> = {};
      while (Date.now() < deadline) {
        counts = await countPhotos(client, throughputGallery);
        if ((counts.ready ?? 0) + (counts.failed ?? 0) >= measured) break;
        await sleep(500);
      }
      const minutes = (Date.now() - firstUploaded) / 60_000;
      const processingSamples = sampler.stop();
      const cpuAfter = await cpuSeconds(server.pid);
      const perMinute = (counts.ready ?? 0) / minutes;
      const rssMax = Math.max(...processingSamples.map((sample) => sample.rss));
      data.processing = {
        measured,
        counts,
        minutes,
        perMinute,
        rssMaxMiB: mib(rssMax),
        cpuBefore,
        cpuAfter,
      };
      tables.push({
        caption: `Traitement de ${measured} photos de 24 Mpx (PHOTO_WORKERS=1)`,
        columns: [
          "photos prêtes",
          "échecs",
          "minutes",
          "photos par minute",
          "RSS max (MiB)",
          "CPU user / system (s)",
        ],
        rows: [
          [
            counts.ready ?? 0,
            counts.failed ?? 0,
            metric(minutes, "min", undefined, 1),
            metric(perMinute, "/min", { min: BUDGET_PHOTOS_PER_MINUTE }, 1),
            metric(mib(rssMax), "MiB", { max: BUDGET_PROCESSING_RSS_MIB }),
            `${(cpuAfter.user - cpuBefore.user).toFixed(0)} / ${(cpuAfter.system - cpuBefore.system).toFixed(0)}`,
          ],
        ],
      });

      // (c) Public pages without processing, then while 500 photos (quick: 30) wait in the queue.
      context.log("gallery: pages publiques sans traitement");
      const idle = await pageLoads(server, context.quick);
      const queued = context.quick ? 30 : 500;
      const busyGallery = await insertGallery(client, "File du banc");
      context.log(`gallery: ${queued} photos envoyées dans la file`);
      for (let index = 0; index < queued; index++) {
        const bytes = buffers[index % buffers.length] ?? Buffer.alloc(0);
        await uploadPhoto(server, cookie, busyGallery, `FILE_${index + 1}.jpg`, bytes);
      }
      const waiting = await countPhotos(client, busyGallery);
      context.log(`gallery: pages publiques pendant le traitement (${JSON.stringify(waiting)})`);
      const busySampler = sampleMemory(server.pid);
      const busy = await pageLoads(server, context.quick);
      const busyMax = Math.max(...busySampler.stop().map((sample) => sample.rss));
      const stillWaiting = await countPhotos(client, busyGallery);
      data.pages = { idle, busy, waiting, stillWaiting, busyRssMaxMiB: mib(busyMax) };
      tables.push({
        caption: `Pages publiques (32 connexions) sans traitement, puis pendant le traitement de ${queued} photos`,
        columns: [
          "page",
          "p50 sans (ms)",
          "p99 sans (ms)",
          "p50 pendant (ms)",
          "p99 pendant (ms)",
          "req/s pendant",
        ],
        rows: idle.map((page, index) => {
          const during = busy[index]?.result;
          return [
            page.path,
            page.result.p50,
            page.result.p99,
            during?.p50 ?? null,
            during?.p99 ?? null,
            during ? Math.round(during.requestsPerSecond) : null,
          ];
        }),
      });
      tables.push({
        caption: "Mémoire pendant la charge et le traitement",
        columns: ["RSS max (MiB)", "photos prêtes avant / après la charge"],
        rows: [
          [
            metric(mib(busyMax), "MiB", { max: BUDGET_PROCESSING_RSS_MIB }),
            `${waiting.ready ?? 0} / ${stillWaiting.ready ?? 0}`,
          ],
        ],
      });
    } finally {
      await client.end();
    }
  } finally {
    await server?.stop();
    await removeDataDir(dataDir);
  }
}

export async function gallerySection(context: Context): Promise<Partial<SectionResult>> {
  const free = await assertFreeSpace(os.tmpdir(), context.quick);
  context.log(`gallery: ${(free / 1e9).toFixed(0)} Go libres`);
  const tables: SectionResult["tables"] = [];
  const data: Record<string, unknown> = {};
  const notes = [
    "ZIP : originaux écrits directement dans le stockage local (sans traitement), téléchargés par un " +
      "administrateur (la même route que le client, autorisée par allowAdmin) ; RSS de /proc/<pid>/status.",
    "Traitement : envois par le protocole /admin/envois (morceaux), photos de 24 Mpx avec grain, " +
      "un fil de traitement (PHOTO_WORKERS=1) sur cette machine à 2 cœurs.",
  ];
  await zipRun(context, tables, data);
  try {
    await processingRun(context, tables, data);
  } catch (error) {
    // Needs the upload protocol (/admin/envois) and the photos worker: the ZIP's figures stay.
    context.log(`gallery: traitement non mesuré : ${(error as Error).message}`);
    notes.push(`Traitement non mesuré : ${(error as Error).message.slice(0, 300)}`);
    tables.push({
      caption: "Traitement des photos",
      columns: ["mesuré"],
      rows: [[check(false, "non (voir les notes)")]],
    });
  }
  return {
    title: "Galeries clients : ZIP, traitement des photos, pages pendant le traitement",
    tables,
    notes,
    data,
  };
}
