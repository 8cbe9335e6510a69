import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { root } from "../../scripts/lib/build";

/*
 * The command-line scripts run the app's modules of the production build (made by the tests' set-up, as
 * `npm run …` makes it when the sources changed), never Vite, which compiled the sources for them and cost a
 * restore about 300 MiB (decision 0135). Each script runs here with a resolve hook that refuses Vite and
 * React Router's Vite plugin, on a new, empty database: its migrations, too, come from the build.
 */

const run = promisify(execFile);

/** Refuses any import of Vite (or of React Router's build tools, which load it) in the process. */
const WITHOUT_VITE = `data:text/javascript,${encodeURIComponent(
  `import { registerHooks } from "node:module";
   registerHooks({
     resolve(specifier, context, nextResolve) {
       if (/^(vite|@react-router\\/dev)(\\/|$)/.test(specifier)) throw new Error("Vite chargé : " + specifier);
       return nextResolve(specifier, context);
     },
   });`,
)}`;

let databaseName: string;
let databaseUrl: string;
let dataDir: string;

async function onAdminDatabase(statement: string) {
  const admin = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  databaseName = `cli_${randomBytes(6).toString("hex")}`;
  await onAdminDatabase(`create database "${databaseName}"`);
  const url = new URL(inject("adminDatabaseUrl"));
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  dataDir = await mkdtemp(path.join(os.tmpdir(), "command-line-"));
});

afterAll(async () => {
  if (databaseName) await onAdminDatabase(`drop database if exists "${databaseName}" with (force)`);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Runs `node <args>` without Vite on the test's database and data folder. */
async function nodeWithoutVite(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", WITHOUT_VITE, ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        BACKUP_KEY: "",
        BACKUP_S3_BUCKET: "",
        S3_BUCKET: "",
      },
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const script = (file: string, ...args: string[]) => nodeWithoutVite(`scripts/${file}`, ...args);

describe("command-line scripts without Vite", () => {
  it("are checked by a hook that does refuse Vite", async () => {
    const { code, output } = await nodeWithoutVite(
      "--input-type=module",
      "--eval",
      'await import("vite");',
    );
    expect(output).toContain("Vite chargé : vite");
    expect(code).not.toBe(0);
  });

  it("create an administrator, add the demo blog, back up and restore from the build", async () => {
    const created = await script(
      "admin-create.ts",
      "--email",
      "cli@example.fr",
      "--password",
      "secret-cli",
    );
    expect(created.output).toContain("✔ Administrateur créé : cli@example.fr");
    expect(created.code).toBe(0);

    const seeded = await script("db-seed.ts");
    expect(seeded.output).toContain(
      "✔ Contenu de démonstration : 3 catégorie(s) et 12 article(s) ajoutés.",
    );
    expect(seeded.code).toBe(0);

    const backedUp = await script("backup.ts");
    expect(backedUp.output).toMatch(/✔ Sauvegarde sauvegarde-[\d-]+\.tar : \d+ tables/);
    expect(backedUp.code).toBe(0);
    const [archive] = await readdir(path.join(dataDir, "backups"));

    const restored = await script(
      "restore.ts",
      path.join(dataDir, "backups", archive ?? ""),
      "--sans-sauvegarde",
    );
    expect(restored.output).toMatch(/✔ Restauré : \d+ tables \(\d+ lignes\), 0 fichiers\./);
    expect(restored.code).toBe(0);
  });

  it("check the storage settings of storage:migrate from the build", async () => {
    const { code, output } = await script("storage-migrate.ts", "--dry-run");
    expect(output).toContain("✖ Aucun stockage S3 configuré");
    expect(output).not.toContain("Vite chargé");
    expect(code).toBe(1);
  });
});
