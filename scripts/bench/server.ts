// The production server under measurement: a child process on loopback with a throwaway data directory and
// its embedded PostgreSQL (or a given DATABASE_URL), plus what the benchmark reads about its processes.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { root } from "../lib/build.ts";
export { ensureBuilt } from "../lib/build.ts";
// A module without app imports, so Node can load it here directly.
import { freePort } from "../../app/server/free-port.server.ts";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Asks `url` until it answers 2xx (true), the time is over or `stopped()` says the process behind it is gone
 * (false). Every attempt reads the whole body, so that no socket is left half read.
 */
export async function waitForAnswer(
  url: string,
  {
    timeoutMs,
    intervalMs = 25,
    stopped = () => false,
  }: { timeoutMs: number; intervalMs?: number; stopped?: () => boolean },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopped()) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  return false;
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(50);
  }
  return !isAlive(pid);
}

/**
 * Builds the site unless it is current, one process at a time: test files running in parallel would
 * otherwise build into the same directory at once, one emptying it under the other's server.
 */
export async function makeDataDir(label: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `studio-bench-${label}-`));
}

export async function removeDataDir(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
}

/** The embedded cluster's directory inside DATA_DIR (see app/server/db/embedded.server.ts). */
export const clusterDirectory = (dataDir: string) => path.join(dataDir, "postgres", "cluster");

/** PID of the embedded postmaster from its lock file, when there is one. */
export function postmasterPid(dataDir: string): number | undefined {
  const lockFile = path.join(clusterDirectory(dataDir), "postmaster.pid");
  if (!existsSync(lockFile)) return undefined;
  const pid = Number(readFileSync(lockFile, "utf8").split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Every process working in this cluster's directory: PostgreSQL chdirs into its data directory, and its
 * backends rename themselves ("postgres: …"), so the working directory is what identifies them all.
 */
export function clusterProcesses(dataDir: string): number[] {
  const cluster = path.resolve(clusterDirectory(dataDir));
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === cluster) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

function statusField(pid: number, field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory of one process, in bytes. */
export const residentBytes = (pid: number) => statusField(pid, "VmRSS");

/** Peak resident memory of one process since it started (VmHWM), in bytes. */
export const peakBytes = (pid: number) => statusField(pid, "VmHWM");

/** Bytes in MiB with one decimal, for the reports (null when not measured). */
export const mib = (bytes: number | undefined) =>
  bytes === undefined ? null : Math.round((bytes / 2 ** 20) * 10) / 10;

/** Proportional set size (shared pages divided among the processes sharing them), in bytes. */
function proportionalBytes(pid: number): number | undefined {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Memory of the whole PostgreSQL cluster: the sum of its processes' RSS (counts shared buffers once per
 * process, an upper bound) and of their PSS (shared pages split between them: what the cluster really costs).
 */
export function clusterMemory(dataDir: string): { rss: number; pss: number; processes: number } {
  let rss = 0;
  let pss = 0;
  const pids = clusterProcesses(dataDir);
  for (const pid of pids) {
    rss += residentBytes(pid) ?? 0;
    pss += proportionalBytes(pid) ?? residentBytes(pid) ?? 0;
  }
  return { rss, pss, processes: pids.length };
}

/** The site's Node process (RSS) and its PostgreSQL cluster (PSS, RSS, processes), in MiB. */
export function processMemory(server: BenchServer) {
  const database = clusterMemory(server.dataDir);
  return {
    nodeRss: mib(residentBytes(server.pid)),
    postgresPss: mib(database.pss),
    postgresRss: mib(database.rss),
    postgresProcesses: database.processes,
  };
}

export type StartOptions = {
  dataDir: string;
  /** `server` runs `node server.ts` (as the tests do); `start` runs `node scripts/start.ts` (npm start). */
  entry?: "server" | "start";
  /** External database: no embedded cluster. */
  databaseUrl?: string;
  port?: number;
  /** Port of the embedded PostgreSQL; a free one is chosen when absent. */
  postgresPort?: number;
  env?: Record<string, string>;
  /** Extra Node flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  healthTimeoutMs?: number;
};

export type BenchServer = {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  pid: number;
  dataDir: string;
  /** URL of the server's database (embedded: user postgres, database studio). */
  databaseUrl: string;
  postgresPort: number | undefined;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  startupMs: number;
  output: () => string;
  exited: Promise<number | null>;
  /** SIGTERM and wait (SIGKILL after the timeout). Resolves with the exit code. */
  stop: (timeoutMs?: number) => Promise<number | null>;
};

/** Starts the production server (the build must exist) and waits until /healthz answers 200. */
export async function startServer(options: StartOptions): Promise<BenchServer> {
  const port = options.port ?? (await freePort());
  const postgresPort = options.databaseUrl
    ? undefined
    : (options.postgresPort ?? (await freePort()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const script = options.entry === "start" ? "scripts/start.ts" : "server.ts";
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), script], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? "",
      EMBEDDED_PG_PORT: postgresPort ? String(postgresPort) : "",
      HOST: "127.0.0.1",
      PORT: String(port),
      SITE_URL: baseUrl,
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      // Lets load tests present distinct client addresses (X-Forwarded-For) to the per-client rate limits.
      TRUST_PROXY: "loopback",
      SMTP_URL: "",
      ADMIN_EMAIL: "",
      ADMIN_PASSWORD: "",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );

  // scripts/start.ts builds first when the sources changed since the last build: give it time.
  const exitedEarly = () => child.exitCode !== null || child.signalCode !== null;
  const healthy = await waitForAnswer(`${baseUrl}/healthz`, {
    timeoutMs: options.healthTimeoutMs ?? (options.entry === "start" ? 300_000 : 120_000),
    stopped: exitedEarly,
  });
  const startupMs = performance.now() - started;
  if (!healthy) {
    if (exitedEarly()) throw new Error(`Le serveur s'est arrêté au démarrage :\n${output}`);
    child.kill("SIGKILL");
    throw new Error(`Le serveur n'a pas répondu à /healthz :\n${output}`);
  }

  let databaseUrl = options.databaseUrl ?? "";
  if (!databaseUrl) {
    const password = readFileSync(
      path.join(options.dataDir, "postgres", "password"),
      "utf8",
    ).trim();
    databaseUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${postgresPort}/studio`;
  }

  return {
    baseUrl,
    port,
    child,
    pid: child.pid ?? 0,
    dataDir: options.dataDir,
    databaseUrl,
    postgresPort,
    startupMs,
    output: () => output,
    exited,
    async stop(timeoutMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A pg client on the server's database; the caller ends it. */
export async function connect(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return client;
}

/**
 * Stops whatever PostgreSQL is still running on this data directory (after a benchmark that killed things),
 * then reports the processes that remained: an empty list means nothing was orphaned.
 */
export async function cleanUpCluster(dataDir: string): Promise<number[]> {
  const pid = postmasterPid(dataDir);
  if (pid && isAlive(pid)) {
    process.kill(pid, "SIGINT");
    await waitForExit(pid, 20_000);
  }
  const left = clusterProcesses(dataDir);
  for (const orphan of left) {
    try {
      process.kill(orphan, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return left;
}
