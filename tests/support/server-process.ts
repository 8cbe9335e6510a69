import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../app/server/free-port.server";
import { root } from "../../scripts/lib/build";

/**
 * The outer bound of a test that starts, kills or restarts production processes (decision 0146). Such a
 * test waits on events (a line printed, an exit, a lock seen waiting, every e-mail arrived); this bound
 * only ends one that never comes. Beside other heavy work a build, 2,000 e-mails or a new cluster's
 * start took several times their quiet duration: generous, so that a busy machine is slower, not red.
 */
export const PROCESS_TEST_TIMEOUT = 600_000;

export type ServerProcess = {
  /** Address of the production server. */
  baseUrl: string;
  /** Its database (new, migrated and seeded by the server at boot). */
  databaseUrl: string;
  /** Its DATA_DIR (uploads under `uploads/` when its storage is the local disk). */
  dataDir: string;
  /** Its AUTH_SECRET: tests sign a session cookie or an e-mailed link's token with it. */
  authSecret: string;
  /** Stops the server, drops its database and removes its data folder. */
  stop: () => Promise<void>;
  /**
   * Signals the running server (SIGKILL by default: a crash, nothing flushed) and waits for its exit;
   * resolves with its exit code (null when a signal ended it).
   */
  kill: (signal?: NodeJS.Signals) => Promise<number | null>;
  /**
   * Starts the server again on the same port, database and data folder (after `kill`), and resolves when
   * /healthz answers, with the milliseconds from spawn to healthy.
   */
  restart: () => Promise<number>;
  /** The last lines the server printed (its current run and the ones before). */
  output: () => string;
};

/**
 * Waits until this child is the server answering `url`: its own « server_started » line (it bound the port)
 * and a healthy /healthz. /healthz alone could be another test file's server that took the port between
 * freePort() and this child's bind (it then dies with EADDRINUSE): the caller tries another port.
 */
async function waitForHealth(
  url: string,
  child: ChildProcess,
  output: () => string,
  started: () => boolean,
) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw output().includes("EADDRINUSE")
        ? new PortTakenError(`Port pris par un autre serveur :\n${output()}`)
        : new Error(`Le serveur s'est arrêté :\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok && started()) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Le serveur n'a pas répondu à /healthz :\n${output()}`);
}

class PortTakenError extends Error {}

/**
 * Runs the production server (built by tests/setup/build.ts) on a free loopback port, with a database of
 * its own created on the cluster of `adminUrl`: the e2e suite's shared server, or a server of one test
 * file whose changes (a studio added, then retired) must not show on the pages other files check. With
 * `sharedDatabaseUrl`, it runs on that database instead (another app server of the same site), which
 * `stop` leaves to its owner.
 */
export async function startServerProcess(
  adminUrl: string,
  env: Record<string, string> = {},
  {
    sharedDatabaseUrl,
    prepare,
    embedded = false,
    template,
  }: {
    /** A database another test server already uses (several app servers on one database). */
    sharedDatabaseUrl?: string;
    /**
     * No DATABASE_URL: the server starts its own embedded PostgreSQL in its data folder, as `npm start` on
     * a fresh clone does (and seeds the demo unless SEED_DEMO=0). `databaseUrl` is then unknown ("").
     */
    embedded?: boolean;
    /** Fills the new database and data folder before the server first starts (e.g. an older release's data). */
    prepare?: (target: { databaseUrl: string; dataDir: string }) => Promise<void>;
    /**
     * A database already migrated and seeded (tests/support/database-templates.ts) that the new one copies:
     * the server's start then finds its migrations and seeds in place, as on any start after the first.
     */
    template?: string;
  } = {},
): Promise<ServerProcess> {
  const name = `e2e_${randomBytes(6).toString("hex")}`;
  const ownDatabase = !sharedDatabaseUrl && !embedded;
  if (ownDatabase) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    await admin.end();
  }
  const databaseUrl = new URL(sharedDatabaseUrl ?? adminUrl);
  if (!sharedDatabaseUrl) databaseUrl.pathname = `/${name}`;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "studio-e2e-"));
  try {
    await prepare?.({ databaseUrl: databaseUrl.toString(), dataDir });
  } catch (error) {
    if (ownDatabase) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    }
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const authSecret = env.AUTH_SECRET ?? randomBytes(32).toString("base64url");
  let port = await freePort();
  let baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  // This run's own output: whether it printed « server_started » (it holds the port).
  let runOutput = "";
  const started = () => runOutput.includes('"msg":"server_started"');
  // Set by kill() and stop(): any other exit of a server that was answering is a crash, and its last lines
  // go to the test's output (a failed start already throws with them).
  let exitRequested = false;
  let answered = false;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (!started()) runOutput = (runOutput + chunk.toString()).slice(-20_000);
  };

  const spawnServer = () => {
    runOutput = "";
    const child = spawn(process.execPath, ["server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: embedded ? "" : databaseUrl.toString(),
        SITE_URL: baseUrl,
        LOG_LEVEL: "warn",
        ...env,
        AUTH_SECRET: authSecret,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const exited = new Promise<number | null>((resolve) =>
      child.once("close", (code, signal) => {
        if (answered && !exitRequested) {
          process.stderr.write(
            `Le serveur de test ${baseUrl} s'est arrêté de lui-même (code ${code}, signal ${signal}) ; ses dernières lignes :\n${output}\n`,
          );
        }
        resolve(code);
      }),
    );
    return { child, exited };
  };
  let current = spawnServer();
  const running = () => current.child.exitCode === null && current.child.signalCode === null;

  const kill = (signal: NodeJS.Signals = "SIGKILL") => {
    exitRequested = true;
    if (running()) current.child.kill(signal);
    return current.exited;
  };
  const stop = async () => {
    await kill("SIGTERM");
    if (ownDatabase) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    }
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  const restart = async () => {
    if (running()) throw new Error("Le serveur tourne encore : kill() d'abord.");
    const startedAt = performance.now();
    exitRequested = false;
    current = spawnServer();
    await waitForHealth(baseUrl, current.child, () => output, started);
    return performance.now() - startedAt;
  };
  // A port another server took meanwhile: another one, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      await waitForHealth(baseUrl, current.child, () => output, started);
      answered = true;
      break;
    } catch (error) {
      if (error instanceof PortTakenError && attempt < 5) {
        port = await freePort();
        baseUrl = `http://127.0.0.1:${port}`;
        current = spawnServer();
        continue;
      }
      await stop();
      throw error;
    }
  }
  return {
    baseUrl,
    databaseUrl: embedded ? "" : databaseUrl.toString(),
    dataDir,
    authSecret,
    stop,
    kill,
    restart,
    output: () => output,
  };
}
