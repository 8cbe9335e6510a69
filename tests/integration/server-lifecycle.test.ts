import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../app/server/db/embedded.server";
import { freePort } from "../../app/server/free-port.server";
import { root } from "../../scripts/lib/build";

// The operating contract: `npm start` runs the production server with its own embedded PostgreSQL, survives
// a crash without manual repair, and leaves no database process behind when stopped.

let dataDir: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "studio-lifecycle-"));
});

afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  const pid = postmasterPid();
  if (pid && alive(pid)) process.kill(pid, "SIGINT");
  await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function postmasterPid(): number | undefined {
  const lockFile = path.join(dataDir, "postgres", "cluster", "postmaster.pid");
  if (!existsSync(lockFile)) return undefined;
  return Number(readFileSync(lockFile, "utf8").split("\n")[0]);
}

function spawnServer(port: number, databaseUrl = "") {
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function startServer(port: number, databaseUrl = "") {
  const { child, output } = spawnServer(port, databaseUrl);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return child;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );

describe("server lifecycle with the embedded database", () => {
  it("starts, recovers from a killed server, its orphaned database and a killed database, and stops cleanly", async () => {
    const port = await freePort();
    const first = await startServer(port);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const firstDatabase = postmasterPid();
    expect(firstDatabase && alive(firstDatabase)).toBe(true);

    // A crash: the Node process dies at once and its PostgreSQL is left running.
    first.kill("SIGKILL");
    await exitOf(first);
    expect(alive(firstDatabase ?? 0)).toBe(true);

    const second = await startServer(port);
    expect(alive(firstDatabase ?? 0)).toBe(false);
    const secondDatabase = postmasterPid();
    expect(secondDatabase).not.toBe(firstDatabase);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    // The database dying under a running site: it is started again and the site recovers by itself.
    process.kill(secondDatabase ?? 0, "SIGKILL");
    await expect
      .poll(() => postmasterPid() !== secondDatabase && alive(postmasterPid() ?? 0), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status, {
        timeout: 30_000,
      })
      .toBe(200);

    second.kill("SIGTERM");
    expect(await exitOf(second)).toBe(0);
  });

  it("refuses a second start on the data folder of a live server and leaves that server serving", async () => {
    const port = await freePort();
    const running = await startServer(port);
    const database = postmasterPid();
    let failures = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (response) => response.status,
          () => 0,
        );
        if (status !== 200) failures++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      // Another port, then the very same one: both refuse in French, before touching anything.
      for (const secondPort of [await freePort(), port]) {
        const second = spawnServer(secondPort);
        expect(await exitOf(second.child)).not.toBe(0);
        expect(second.output()).toContain("est déjà utilisé par un serveur du site en marche");
        expect(second.output()).toContain(`(processus ${running.pid})`);
      }
      // What the second start did not do shows a moment later, if at all: the database stopped under it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      watching = false;
      await watcher;
    }
    expect(failures).toBe(0);
    expect(postmasterPid()).toBe(database);
    expect(running.exitCode).toBeNull();
    running.kill("SIGTERM");
    expect(await exitOf(running)).toBe(0);
  });

  it("shuts down on SIGTERM leaving no database process and no lock file", async () => {
    const port = await freePort();
    const server = await startServer(port);
    const database = postmasterPid();
    expect(database && alive(database)).toBe(true);
    server.kill("SIGTERM");
    expect(await exitOf(server)).toBe(0);
    expect(alive(database ?? 0)).toBe(false);
    expect(postmasterPid()).toBeUndefined();
  });

  it("with DATABASE_URL, says 503 while that database is away and recovers when it is back", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "studio-external-"));
    const clusterPort = await freePort();
    let external = await startEmbeddedPostgres({ directory, port: clusterPort });
    const port = await freePort();
    const server = await startServer(port, external.url);
    try {
      await external.stop();
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status)
        .toBe(503);
      external = await startEmbeddedPostgres({ directory, port: clusterPort });
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status)
        .toBe(200);
    } finally {
      server.kill("SIGTERM");
      await exitOf(server);
      await external.stop();
      await rm(directory, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  });
});
