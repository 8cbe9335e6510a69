// Section « sauvegardes » (decision 0117): a backup of 10,000 articles, 50,000 subscribers and 5 GB of photos
// taken by the production server's own job (« Sauvegarder maintenant »), with `/` and `/tarifs` under load
// meanwhile and the server's RSS sampled every 100 ms; then that archive restored by `npm run restore` on a
// new data folder, its peak RSS held to a budget, and the restored site counted. See
// docs/decisions/0117-backup-archive.md and 0135-command-line-from-the-build.md.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, stat, statfs } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { crc32 } from "node:zlib";
import type pg from "pg";
import { root } from "../lib/build.ts";
import type { Context } from "./context.ts";
import { createAdmin, insertGallery, sampleMemory } from "./gallery.ts";
import { request } from "./http.ts";
import { loadTest, type LoadResult } from "./load.ts";
import { check, median, metric, type Cell, type SectionResult } from "./report.ts";
import { seedArticles } from "./seed.ts";
import {
  type BenchServer,
  connect,
  makeDataDir,
  mib,
  removeDataDir,
  peakBytes,
  residentBytes,
  sleep,
  startServer,
} from "./server.ts";
import { freePort } from "../../app/server/free-port.server.ts";

/** The public pages stay fast while the nightly backup runs (decision 0117). */
const BUDGET_P99_MS = 50;
/** The archive is streamed, never held in memory (decision 0117). */
const BUDGET_RSS_GROWTH_MIB = 64;
/** The restore's process at its peak (decision 0135: the app's modules from the build, no Vite). */
const BUDGET_RESTORE_PEAK_MIB = 150;
const ARTICLES = 10_000;
const SUBSCRIBERS = 50_000;
/** Camera-sized originals: 2 to 3 MB of random bytes (as incompressible as a JPEG), 2.5 MB on average. */
const PHOTO_BYTES = { min: 2_000_000, spread: 1_000_000 };
const PHOTOS_PER_GALLERY = 100;
const PAGES = ["/", "/tarifs"] as const;
/** Longest wait for the backup, then for the restore. */
const TIMEOUT_MS = 30 * 60_000;

type Run = {
  status: string;
  /** The step its progress says (tables, files), written at most once a second. */
  step: string | null;
  file: string | null;
  bytes: number | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
};

/** The photos, then the archive, then the restored copy: three times the photos, plus room to spare. */
async function assertFreeSpace(photoBytes: number) {
  const stats = await statfs(os.tmpdir());
  const free = stats.bavail * stats.bsize;
  const needed = 3 * photoBytes + 3e9;
  if (free < needed) {
    throw new Error(
      `Espace disque insuffisant pour le banc sauvegardes : ${(free / 1e9).toFixed(1)} Go libres, ${(needed / 1e9).toFixed(0)} Go nécessaires.`,
    );
  }
  return free;
}

/** A file of `size` random bytes written as a stream; returns its CRC-32 (the ZIP's need, in its row). */
async function writeRandomFile(file: string, size: number): Promise<number> {
  let checksum = 0;
  await pipeline(async function* () {
    for (let written = 0; written < size;) {
      const chunk = randomBytes(Math.min(1 << 20, size - written));
      checksum = crc32(chunk, checksum);
      written += chunk.length;
      yield chunk;
    }
  }, createWriteStream(file));
  return checksum;
}

/** 50,000 confirmed subscribers with their consent, as the newsletter's form stores them. */
export async function seedSubscribers(client: pg.Client, count: number) {
  await client.query(
    `insert into blog_newsletter_subscribers (email, status, consent_source, consent_page, consent_text,
       confirmed_at, subscribed_at, last_activity_at)
     select 'abonne-banc-' || i || '@example.com', 'active', 'blog', '/blog',
       'J''accepte de recevoir la newsletter du studio.', now() - make_interval(mins => i),
       now() - make_interval(mins => i), now() - make_interval(mins => i)
     from generate_series(1, $1::int) as i`,
    [count],
  );
}

/**
 * Gallery originals in the server's local store (DATA_DIR/uploads/galleries/{gallery}/{photo}/original.jpg)
 * with their `gallery_photos` rows, until `targetBytes`: 100 photos a gallery.
 */
async function seedPhotos(
  client: pg.Client,
  dataDir: string,
  targetBytes: number,
  context: Context,
): Promise<{ photos: number; bytes: number; galleries: number }> {
  let photos = 0;
  let bytes = 0;
  let galleries = 0;
  while (bytes < targetBytes) {
    const galleryId = await insertGallery(client, `Mariage du banc ${galleries + 1}`);
    galleries += 1;
    const rows: { id: string; position: number; size: number; checksum: number }[] = [];
    for (let position = 1; position <= PHOTOS_PER_GALLERY && bytes < targetBytes; position++) {
      const id = randomUUID();
      const size = PHOTO_BYTES.min + Math.floor(Math.random() * PHOTO_BYTES.spread);
      const folder = path.join(dataDir, "uploads", "galleries", galleryId, id);
      await mkdir(folder, { recursive: true });
      const checksum = await writeRandomFile(path.join(folder, "original.jpg"), size);
      rows.push({ id, position, size, checksum });
      photos += 1;
      bytes += size;
    }
    await client.query(
      `insert into gallery_photos (id, gallery_id, position, original_name, status, source_extension,
         width, height, original_bytes, original_crc32, original_extension)
       select p.id, $1, p.position, 'IMG_' || lpad(p.position::text, 4, '0') || '.jpg', 'ready', 'jpg',
         6000, 4000, p.size, p.checksum, 'jpg'
       from unnest($2::uuid[], $3::int[], $4::bigint[], $5::bigint[]) as p(id, position, size, checksum)`,
      [
        galleryId,
        rows.map((row) => row.id),
        rows.map((row) => row.position),
        rows.map((row) => row.size),
        rows.map((row) => row.checksum),
      ],
    );
    if (galleries % 5 === 0) {
      context.log(`sauvegardes: ${photos} photos, ${(bytes / 1e9).toFixed(2)} Go`);
    }
  }
  return { photos, bytes, galleries };
}

/** What a restore must give back: the rows of the seeded tables, and the stored files. */
async function siteCounts(client: pg.Client, dataDir: string) {
  const { rows } = await client.query<{
    articles: number;
    subscribers: number;
    galleries: number;
    photos: number;
  }>(
    `select (select count(*) from blog_articles)::int as articles,
            (select count(*) from blog_newsletter_subscribers)::int as subscribers,
            (select count(*) from galleries)::int as galleries,
            (select count(*) from gallery_photos)::int as photos`,
  );
  const counts = rows[0] ?? { articles: 0, subscribers: 0, galleries: 0, photos: 0 };
  let files = 0;
  let fileBytes = 0;
  const uploads = path.join(dataDir, "uploads");
  for (const entry of await readdir(uploads, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    fileBytes += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return { ...counts, files, fileBytes };
}

/** `/` and `/tarifs` loaded at the same time for `seconds`, 16 connections each (32 in all). */
async function loadWindow(server: BenchServer, seconds: number) {
  const startedAt = Date.now();
  const results = await Promise.all(
    PAGES.map((page) =>
      loadTest(`${server.baseUrl}${page}`, {
        connections: 16,
        durationSeconds: seconds,
        maxRequests: 1_000_000,
      }),
    ),
  );
  return { startedAt, endedAt: Date.now(), results };
}

type Window = Awaited<ReturnType<typeof loadWindow>>;

/** One page over several windows: the worst window's p50 and p99 (a figure that holds throughout). */
function summarise(windows: Window[], index: number) {
  const results = windows.flatMap((window) => window.results[index] ?? []);
  const seconds = windows.reduce((sum, window) => sum + (window.endedAt - window.startedAt), 0);
  const total = results.reduce((sum, result) => sum + result.total, 0);
  return {
    p50: Math.max(...results.map((result) => result.p50)),
    p99: Math.max(...results.map((result) => result.p99)),
    max: Math.max(...results.map((result) => result.max)),
    requestsPerSecond: total / (seconds / 1000),
    failures: results.reduce(
      (sum: number, result: LoadResult) => sum + result.errors + result.non2xx + result.timeouts,
      0,
    ),
  };
}

async function latestBackupRun(client: pg.Client): Promise<Run | null> {
  const { rows } = await client.query<Run>(
    `select status, progress->>'step' as step, file, bytes::float8 as bytes, error,
            started_at as "startedAt", finished_at as "finishedAt"
       from backup_runs where kind = 'backup' order by started_at desc limit 1`,
  );
  return rows[0] ?? null;
}

/**
 * Polls the backup's run every 200 ms until it is done or failed; also when its files began (its progress
 * is written at most once a second: the tables' time is known to about a second).
 */
async function backupFinished(client: pg.Client): Promise<{ run: Run; filesFrom: number | null }> {
  const deadline = Date.now() + TIMEOUT_MS;
  let filesFrom: number | null = null;
  while (Date.now() < deadline) {
    const run = await latestBackupRun(client);
    if (run?.step === "files") filesFrom ??= Date.now();
    if (run && (run.status === "done" || run.status === "failed")) return { run, filesFrom };
    await sleep(200);
  }
  throw new Error("La sauvegarde n'a pas fini à temps");
}

/**
 * « Sauvegarder maintenant » posted as the owner does, run by the server's `backup` queue; its RSS sampled
 * every 100 ms from 2 s at rest before it, and `/` and `/tarifs` loaded in windows until it ends when `load`.
 */
async function measuredBackup(
  server: BenchServer,
  client: pg.Client,
  cookie: string,
  { load, windowSeconds }: { load: boolean; windowSeconds: number },
) {
  const sampler = sampleMemory(server.pid, 100);
  await sleep(2_000);
  const rssBefore = median(sampler.samples.map((sample) => sample.rss)) ?? 0;
  const asked = await request(`${server.baseUrl}/admin/sauvegardes`, {
    method: "POST",
    headers: {
      cookie,
      origin: server.baseUrl,
      "content-type": "application/x-www-form-urlencoded",
      accept: "text/html",
    },
    body: new URLSearchParams({ intent: "backup" }).toString(),
  });
  const askedAt = Date.now();
  if (asked.status !== 302 && asked.status !== 303) {
    throw new Error(
      `Sauvegarde refusée par la page (${asked.status}) : ${asked.body.slice(0, 300)}`,
    );
  }
  let waiting = await latestBackupRun(client);
  while (waiting?.status === "queued" && Date.now() - askedAt < 60_000) {
    await sleep(100);
    waiting = await latestBackupRun(client);
  }
  let ended = false;
  const watching = backupFinished(client).finally(() => (ended = true));
  const windows: Window[] = [];
  if (load) {
    do windows.push(await loadWindow(server, windowSeconds));
    while (!ended);
  }
  const { run, filesFrom } = await watching;
  await sleep(2_000);
  const rssAfter = residentBytes(server.pid) ?? 0;
  const samples = sampler.stop();
  if (run.status !== "done" || !run.file || !run.finishedAt) {
    throw new Error(`La sauvegarde a échoué : ${run.error ?? "raison inconnue"}`);
  }
  const start = run.startedAt.getTime();
  const end = run.finishedAt.getTime();
  const archive = path.join(server.dataDir, "backups", run.file);
  const rssMax = Math.max(
    ...samples.filter((s) => s.at >= start && s.at <= end).map((sample) => sample.rss),
  );
  const loadedMs = windows.reduce(
    (sum, window) =>
      sum + Math.max(0, Math.min(window.endedAt, end) - Math.max(window.startedAt, start)),
    0,
  );
  return {
    archive,
    archiveBytes: (await stat(archive)).size,
    seconds: (end - start) / 1000,
    tablesSeconds: filesFrom === null ? null : (filesFrom - start) / 1000,
    waitedSeconds: (start - askedAt) / 1000,
    rssBefore,
    rssMax,
    rssAfter,
    samples: samples.length,
    windows,
    loadedSeconds: loadedMs / 1000,
  };
}

/** One backup's row of the report: its time, its archive, and the server's memory around it. */
function backupRow(label: string, backup: Awaited<ReturnType<typeof measuredBackup>>): Cell[] {
  return [
    label,
    metric(backup.seconds, "s", undefined, 1),
    metric(backup.tablesSeconds, "s", undefined, 0),
    metric(backup.archiveBytes / 1e9, "Go", undefined, 2),
    metric(backup.archiveBytes / 1e6 / backup.seconds, "Mo/s", undefined, 0),
    mib(backup.rssBefore),
    metric(mib(backup.rssMax), "MiB"),
    metric(mib(backup.rssMax - backup.rssBefore), "MiB", { max: BUDGET_RSS_GROWTH_MIB }, 1),
    mib(backup.rssAfter),
  ];
}

/**
 * `npm run restore -- <archive> --sans-sauvegarde` on a new data folder, its peak RSS (VmHWM) read every
 * 100 ms: the script starts over in place with its small-process flags (scripts/lib/app-loader.ts), which
 * resets VmHWM, so the peak is the highest of the readings.
 */
async function restoreOnNewFolder(archive: string, dataDir: string) {
  const started = performance.now();
  const child = spawn(process.execPath, ["scripts/restore.ts", archive, "--sans-sauvegarde"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: "warn",
      BACKUP_KEY: "",
      BACKUP_S3_BUCKET: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const pid = child.pid ?? 0;
  const sampler = sampleMemory(pid, 100);
  let peak = 0;
  const peaks = setInterval(() => (peak = Math.max(peak, peakBytes(pid) ?? 0)), 100);
  const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  clearInterval(peaks);
  const seconds = (performance.now() - started) / 1000;
  const rssMax = Math.max(...sampler.stop().map((sample) => sample.rss));
  if (code !== 0) throw new Error(`La restauration a échoué (${code}) :\n${output.slice(-3000)}`);
  return { seconds, rssMax, peak, output: output.trim() };
}

export async function backupsSection(context: Context): Promise<Partial<SectionResult>> {
  const targetBytes = context.quick ? 200e6 : 5e9;
  const free = await assertFreeSpace(targetBytes);
  context.log(`sauvegardes: ${(free / 1e9).toFixed(0)} Go libres`);
  const windowSeconds = context.quick ? 2 : 5;
  const tables: SectionResult["tables"] = [];
  const data: Record<string, unknown> = {};
  const notes: string[] = [];
  const sourceDir = await makeDataDir("sauvegardes");
  const restoredDir = await makeDataDir("sauvegardes-restauration");
  let server: BenchServer | undefined;
  let restored: BenchServer | undefined;
  try {
    server = await startServer({ dataDir: sourceDir, env: { PHOTO_WORKERS: "0" } });
    const client = await connect(server.databaseUrl);
    let source: Awaited<ReturnType<typeof siteCounts>>;
    let archive: string;
    try {
      // Signed in before the seed: the dashboard that signIn opens lists every article, 10,000 rows that
      // would weigh on the server's memory before the backup is asked.
      const cookie = await createAdmin(server, "banc-sauvegardes@example.com");
      context.log(`sauvegardes: ${ARTICLES} articles, ${SUBSCRIBERS} abonnés`);
      await seedArticles(client, { to: ARTICLES });
      await seedSubscribers(client, SUBSCRIBERS);
      context.log(`sauvegardes: ${targetBytes / 1e9} Go de photos dans le stockage local`);
      const seeded = await seedPhotos(client, sourceDir, targetBytes, context);
      data.seeded = seeded;
      await client.query("analyze");
      source = await siteCounts(client, sourceDir);
      data.source = source;

      for (const page of PAGES) {
        await request(`${server.baseUrl}${page}`, {
          headers: { accept: "text/html", "accept-encoding": "gzip, br" },
        });
      }
      context.log("sauvegardes: « Sauvegarder maintenant », sans visiteurs");
      const atRest = await measuredBackup(server, client, cookie, { load: false, windowSeconds });
      context.log("sauvegardes: pages sans sauvegarde");
      const idleSampler = sampleMemory(server.pid, 100);
      const idle = [
        await loadWindow(server, windowSeconds),
        await loadWindow(server, windowSeconds),
      ];
      const rssIdleLoadMax = Math.max(...idleSampler.stop().map((sample) => sample.rss));
      await sleep(1_000);
      context.log("sauvegardes: « Sauvegarder maintenant », pages chargées pendant");
      const loaded = await measuredBackup(server, client, cookie, { load: true, windowSeconds });
      archive = loaded.archive;
      const busy = loaded.windows;
      const { windows: _, ...loadedFigures } = loaded;
      data.backup = {
        atRest,
        loaded: loadedFigures,
        rssIdleLoadMaxMiB: mib(rssIdleLoadMax),
      };
      data.pages = PAGES.map((page, index) => ({
        page,
        idle: summarise(idle, index),
        busy: summarise(busy, index),
      }));

      const photoGigabytes = (source.fileBytes / 1e9).toFixed(2);
      tables.push({
        caption: `Sauvegarde par le serveur (« Sauvegarder maintenant ») : ${source.articles} articles, ${source.subscribers} abonnés, ${source.files} photos (${photoGigabytes} Go)`,
        columns: [
          "pendant",
          "durée",
          "dont tables",
          "archive",
          "débit",
          "RSS avant (MiB)",
          "RSS max",
          "croissance",
          "RSS après (MiB)",
        ],
        rows: [backupRow("aucune visite", atRest), backupRow("`/` et `/tarifs` chargées", loaded)],
      });
      tables.push({
        caption: `Pages publiques (16 connexions chacune, en même temps) sans sauvegarde, puis pendant la sauvegarde (${busy.length} × ${windowSeconds} s, ${loaded.loadedSeconds.toFixed(0)} s de charge pendant ses ${loaded.seconds.toFixed(0)} s)`,
        columns: [
          "page",
          "p50 sans (ms)",
          "p99 sans (ms)",
          "p50 pendant (ms)",
          "p99 pendant",
          "max pendant (ms)",
          "req/s pendant",
          "erreurs / non-2xx",
        ],
        rows: PAGES.map((page, index): Cell[] => {
          const without = summarise(idle, index);
          const during = summarise(busy, index);
          return [
            page,
            without.p50,
            without.p99,
            during.p50,
            metric(during.p99, "ms", { max: BUDGET_P99_MS }),
            during.max,
            Math.round(during.requestsPerSecond),
            metric(during.failures, "", { equals: 0 }),
          ];
        }),
      });
    } finally {
      await client.end();
    }
    // The source site stops: the restore is a new machine's.
    await server.stop();
    server = undefined;

    context.log("sauvegardes: restauration sur un dossier de données neuf");
    const restore = await restoreOnNewFolder(archive, restoredDir);
    restored = await startServer({ dataDir: restoredDir, env: { PHOTO_WORKERS: "0" } });
    const restoredClient = await connect(restored.databaseUrl);
    let after: Awaited<ReturnType<typeof siteCounts>>;
    try {
      after = await siteCounts(restoredClient, restoredDir);
    } finally {
      await restoredClient.end();
    }
    const home = await request(`${restored.baseUrl}/`, { headers: { accept: "text/html" } });
    const same =
      after.articles === source.articles &&
      after.subscribers === source.subscribers &&
      after.galleries === source.galleries &&
      after.photos === source.photos &&
      after.files === source.files &&
      after.fileBytes === source.fileBytes &&
      home.status === 200;
    data.restore = {
      seconds: restore.seconds,
      rssMaxMiB: mib(restore.rssMax),
      peakMiB: mib(restore.peak),
      after,
      homeStatus: home.status,
      output: restore.output.slice(-500),
    };
    tables.push({
      caption:
        "Restauration de cette archive : `npm run restore -- <archive> --sans-sauvegarde` sur un dossier de données neuf",
      columns: [
        "durée",
        "débit",
        "RSS max relevé (MiB)",
        "pic de RSS du processus",
        "restauré à l'identique",
      ],
      rows: [
        [
          metric(restore.seconds, "s", undefined, 1),
          metric((await stat(archive)).size / 1e6 / restore.seconds, "Mo/s", undefined, 0),
          mib(restore.rssMax),
          metric(mib(restore.peak), "MiB", { max: BUDGET_RESTORE_PEAK_MIB }),
          check(
            same,
            same
              ? `oui (${after.articles} articles, ${after.subscribers} abonnés, ${after.photos} photos, ${after.files} fichiers, / en 200)`
              : `non : ${JSON.stringify(after)}, / en ${home.status}`,
          ),
        ],
      ],
    });
    notes.push(
      "Seed in SQL (`generate_series`) for articles and subscribers; photos are files of 2 to 3 MB of random " +
        "bytes (incompressible, as JPEGs are) written as streams into `DATA_DIR/uploads/galleries/…` with " +
        "their `gallery_photos` rows, 100 a gallery.",
      "Each backup is the server's own job, asked as the owner asks it (POST `/admin/sauvegardes`, intent " +
        "`backup`) and taken by the `backup` queue in the server process (the one that runs the nightly " +
        "backup); its duration is its run's `started_at` → `finished_at`, « dont tables » until its progress " +
        "says files (written once a second). Two backups: one with no visitor (the night's case), then one " +
        "with the pages loaded; the retention then keeps the second, which is restored. RSS: the server's " +
        "VmRSS every 100 ms; « avant » is the median of the 2 s at rest before the backup was asked.",
      "During the backup, `/` and `/tarifs` are loaded together (autocannon, 16 connections each) in windows " +
        "until it ends; the p99 shown is the worst window's.",
      "The restore's duration is the whole command on a new data folder (PostgreSQL's initdb and the " +
        "migrations included), as on a new machine; the restored site is then started and counted. Its " +
        "memory: the Node process's VmRSS every 100 ms (« relevé ») and its peak, VmHWM, read every 100 ms " +
        "(the embedded PostgreSQL's processes apart); the app's modules come from the build (decision 0135).",
    );
  } finally {
    await server?.stop();
    await restored?.stop();
    await removeDataDir(sourceDir);
    await removeDataDir(restoredDir);
  }
  return {
    title: "Sauvegardes : durée, archive, pages et mémoire pendant, restauration",
    tables,
    notes,
    data,
  };
}
