// Gallery photo processing (decision 0102): photos per minute and the server's memory while a
// batch of 24-megapixel camera JPEGs goes through the `photos` queue of the production server, as
// `npm start` runs it (PHOTO_WORKERS=1 unless given). Not a test: figures to read.
//
//   node scripts/bench/photo-processing.ts [--photos 8] [--workers 1] [--watermark] [--heic]
// (--heic: the small HEIC fixture instead, to check the production build decodes it.)
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { PgBoss } from "pg-boss";
import { makeTestJpeg } from "../../tests/support/photos.ts";
import {
  connect,
  ensureBuilt,
  makeDataDir,
  mib,
  peakBytes,
  removeDataDir,
  residentBytes,
  sleep,
  startServer,
} from "./server.ts";

const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "8" },
    workers: { type: "string", default: "1" },
    watermark: { type: "boolean", default: false },
    distinct: { type: "string", default: "3" },
    heic: { type: "boolean", default: false },
  },
});
const count = Number(values.photos);
const distinct = Math.min(count, Number(values.distinct));

await ensureBuilt();
if (!values.heic) console.log(`Making ${distinct} distinct 6000×4000 camera JPEGs (noise, q92)…`);
const sources = [];
for (let index = 1; index <= distinct; index++) {
  if (values.heic) {
    sources.push(await readFile(path.join(import.meta.dirname, "../../tests/fixtures/photo.heic")));
    continue;
  }
  sources.push(await makeTestJpeg({ index, width: 6000, height: 4000, noise: true, quality: 92 }));
}
console.log(
  `sizes: ${sources.map((file) => `${(file.length / 2 ** 20).toFixed(1)} MiB`).join(", ")}`,
);

const extension = values.heic ? "heic" : "jpg";
const dataDir = await makeDataDir("photo-processing");
const server = await startServer({ dataDir, env: { PHOTO_WORKERS: values.workers } });
const rss = () => mib(residentBytes(server.pid)) ?? 0;
const client = await connect(server.databaseUrl);
const boss = new PgBoss({
  connectionString: server.databaseUrl,
  max: 1,
  supervise: false,
  schedule: false,
});
try {
  await sleep(2_000);
  const idle = { rss: rss(), peak: mib(peakBytes(server.pid)) };
  console.log(`server idle: RSS ${idle.rss} MiB, peak so far ${idle.peak} MiB`);

  const gallery = await client.query<{ id: string }>(
    `insert into galleries (title, client_name, client_email, expires_at, purge_at, access_code, watermark)
     values ('Banc', 'Banc', 'banc@example.test', now() + interval '30 days', now() + interval '60 days', 'BANC2345', $1)
     returning id`,
    [values.watermark],
  );
  const galleryId = gallery.rows[0]?.id ?? "";
  const photoIds: string[] = [];
  for (let position = 1; position <= count; position++) {
    const row = await client.query<{ id: string }>(
      `insert into gallery_photos (gallery_id, position, original_name, source_extension)
       values ($1, $2, $3, $4) returning id`,
      [galleryId, position, `IMG_${position}.${extension}`, extension],
    );
    const photoId = row.rows[0]?.id ?? "";
    const file = path.join(
      dataDir,
      "uploads",
      "galleries",
      galleryId,
      photoId,
      `upload.${extension}`,
    );
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, sources[(position - 1) % distinct] ?? Buffer.alloc(0));
    photoIds.push(photoId);
  }

  await boss.start();
  let maxRss = rss();
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, rss())), 100);
  const started = performance.now();
  for (const photoId of photoIds) await boss.send("photos", { photoId });
  let done = 0;
  let failed = 0;
  const deadline = Date.now() + count * 120_000;
  while (Date.now() < deadline) {
    const statuses = await client.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from gallery_photos where gallery_id = $1 group by status`,
      [galleryId],
    );
    const of = (status: string) => statuses.rows.find((row) => row.status === status)?.n ?? 0;
    done = of("ready");
    failed = of("failed");
    if (done + failed === count) break;
    await sleep(250);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = { rss: rss(), peak: mib(peakBytes(server.pid)) };
  console.log(
    `${done} ready, ${failed} failed of ${count} in ${seconds.toFixed(1)} s: ` +
      `${((done / seconds) * 60).toFixed(1)} photos/min (${(seconds / count).toFixed(2)} s each)`,
  );
  console.log(
    `server while processing: RSS max sampled ${maxRss} MiB, peak (VmHWM) ${after.peak} MiB`,
  );
  console.log(`server right after: RSS ${after.rss} MiB`);
  const sizes = await client.query<{ bytes: string }>(
    `select sum(original_bytes)::text as bytes from gallery_photos where gallery_id = $1`,
    [galleryId],
  );
  console.log(`originals: ${(Number(sizes.rows[0]?.bytes) / 2 ** 20).toFixed(1)} MiB in all`);
  // The pool's thread goes away after a minute without work.
  if (!values.heic) {
    await sleep(65_000);
    console.log(`server 65 s later (idle thread gone): RSS ${rss()} MiB`);
  }
} finally {
  await boss.stop({ graceful: false }).catch(() => {});
  await client.end();
  await server.stop();
  await removeDataDir(dataDir);
}
