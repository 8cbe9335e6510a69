// `npm run fixture:previous-release`: makes tests/fixtures/previous-release-<commit>.tar, the frozen database
// and files of the previous release that tests/system/upgrade.test.ts upgrades to today's code, so
// that an upgrade is tested from real data (README, « Mettre à jour »). Refresh it at each release: set RELEASE below to the new release's commit, write its
// filler beside the old one (scripts/previous-release/fill-<commit>.ts: that release's own modules fill
// every table), run this, delete the old fixture and commit the new one.
//
// What it does, without touching the repository's work tree or git metadata:
// 1. exports RELEASE with `git archive` into a temporary folder (its node_modules: a link to ours; check
//    that the release's package.json asks for no dependency ours lacks — it fails loudly otherwise);
// 2. runs the filler there with that release's code, on an embedded PostgreSQL in a temporary DATA_DIR
//    (that release's migrations, start-up seed and demo blog, then content in every table);
// 3. starts that cluster again with today's embedded PostgreSQL (the same binaries), refuses any table
//    left empty, and writes the database (COPY text of every table, at that release's migration level) and
//    its stored files as one archive in today's backup format (decision 0117) — readable without running the
//    old code, a few kilobytes;
// 4. removes the temporary folder.
import { execFileSync, spawnSync } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type * as BackupModule from "../app/server/backup/backup.server.ts";
import type * as EmbeddedModule from "../app/server/db/embedded.server.ts";
import type * as StorageModule from "../app/server/storage/storage.server.ts";
import { appModuleLoader } from "./lib/app-loader.ts";

/** The commit before the first backup commit (c2bf44a, decision 0117): bookings' tables are there (0017). */
export const RELEASE = "43eacdb";
/** Tables that may stay empty on a filled site. None: even the short-lived rows (sessions, rate limits,
 * verifications, previews) are filled, so that the upgrade meets one of each. */
const MAY_BE_EMPTY: string[] = [];

const root = path.resolve(import.meta.dirname, "..");
const fixture = path.join(root, "tests", "fixtures", `previous-release-${RELEASE}.tar`);
const work = await mkdtemp(path.join(os.tmpdir(), `release-${RELEASE}-`));
// As root, the embedded PostgreSQL runs as `postgres`, which must pass through the data folder's parents.
await chmod(work, 0o755);
const tree = path.join(work, "tree");
const dataDir = path.join(work, "data");

try {
  await mkdir(tree);
  execFileSync("sh", ["-c", `git -C "${root}" archive ${RELEASE} | tar -x -C "${tree}"`]);
  const ours = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  const theirs = JSON.parse(await readFile(path.join(tree, "package.json"), "utf8"));
  for (const kind of ["dependencies", "devDependencies"] as const) {
    for (const [name, version] of Object.entries<string>(theirs[kind] ?? {})) {
      if (ours.dependencies?.[name] !== version && ours.devDependencies?.[name] !== version) {
        throw new Error(`${RELEASE} veut ${name}@${version}, absent de nos node_modules.`);
      }
    }
  }
  await symlink(path.join(root, "node_modules"), path.join(tree, "node_modules"));
  const filler = path.join("scripts", "previous-release", `fill-${RELEASE}.ts`);
  await mkdir(path.join(tree, path.dirname(filler)), { recursive: true });
  await copyFile(path.join(root, filler), path.join(tree, filler));
  const filled = spawnSync(process.execPath, [filler], {
    cwd: tree,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" },
    stdio: "inherit",
  });
  if (filled.status !== 0) throw new Error(`Le remplissage de ${RELEASE} a échoué.`);

  // Today's modules, from today's build (the filler above ran the release's own sources).
  const load = await appModuleLoader();
  const { startEmbeddedPostgres } = await load<typeof EmbeddedModule>(
    "app/server/db/embedded.server.ts",
  );
  const { localStorageOf } = await load<typeof StorageModule>(
    "app/server/storage/storage.server.ts",
  );
  const { createBackup, listTables } = await load<typeof BackupModule>(
    "app/server/backup/backup.server.ts",
  );
  const cluster = await startEmbeddedPostgres({ directory: path.join(dataDir, "postgres") });
  const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  try {
    const client = await pool.connect();
    const empty: string[] = [];
    try {
      for (const table of await listTables(client)) {
        const { rows } = await client.query<{ any: boolean }>(
          `select exists (select from ${table.name}) as any`,
        );
        if (!rows[0]?.any && !MAY_BE_EMPTY.includes(table.name)) empty.push(table.name);
      }
    } finally {
      client.release();
    }
    if (empty.length > 0) throw new Error(`Tables vides : ${empty.join(", ")}`);
    const result = await createBackup({
      pool,
      storage: localStorageOf(dataDir),
      directory: path.join(work, "out"),
      now: new Date("2026-11-27T00:00:00Z"),
    });
    await rename(result.file, fixture);
    console.log(
      `✔ ${path.relative(root, fixture)} : ${result.manifest.tables.length} tables, ${result.manifest.tables.reduce((sum, table) => sum + table.rows, 0)} lignes, ${result.manifest.files.length} fichiers, ${result.size} octets, niveau ${result.manifest.migrations.count}.`,
    );
  } finally {
    await pool.end();
    await cluster.stop();
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
