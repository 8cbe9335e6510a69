import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../app/server/db/embedded.server";
import { freePort } from "../../app/server/free-port.server";
import { root } from "../../scripts/lib/build";
import { PROCESS_TEST_TIMEOUT } from "../support/server-process";

// The operating contract: `npm start` runs the production server with its own embedded PostgreSQL, survives
// a crash without manual repair, and leaves no database process behind when stopped. Each step waits on what
// the server prints (« server_started », « embedded_postgres_restarted ») or on its exit, under
// PROCESS_TEST_TIMEOUT: a fresh cluster's initdb and two starts once took over a minute beside other heavy
// work.

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

type Server = ReturnType<typeof spawnServer>;

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
      // Info: the embedded database's restart is the line the first test waits for.
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    child.emit("output");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  return { child, output: () => output };
}

/**
 * Resolves when the server has printed the JSON line of `message` after the first `from` characters of its
 * output; fails at once if it exits first.
 */
function printed({ child, output }: Server, message: string, from = 0) {
  const seen = () => output().slice(from).includes(`"msg":"${message}"`);
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (seen()) {
        child.off("output", check).off("exit", exited);
        resolve();
      }
    };
    const exited = () => {
      child.off("output", check);
      // What it printed before dying is already collected: the line may be there.
      if (seen()) resolve();
      else reject(new Error(`the server exited before « ${message} »:\n${output()}`));
    };
    child.on("output", check).once("exit", exited);
    check();
  });
}

/** Starts the server and resolves once it says it listens (« server_started ») and /healthz answers. */
async function startServer(port: number, databaseUrl = "") {
  const server = spawnServer(port, databaseUrl);
  await printed(server, "server_started");
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  if (!health.ok) {
    throw new Error(`/healthz ${health.status} after server_started:\n${server.output()}`);
  }
  return server;
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );

describe("server lifecycle with the embedded database", { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it("starts, recovers from a killed server, its orphaned database and a killed database, and stops cleanly", async () => {
    const port = await freePort();
    const first = await startServer(port);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const firstDatabase = postmasterPid();
    expect(firstDatabase && alive(firstDatabase)).toBe(true);

    // A crash: the Node process dies at once and its PostgreSQL is left running.
    first.child.kill("SIGKILL");
    await exitOf(first.child);
    expect(alive(firstDatabase ?? 0)).toBe(true);

    const second = await startServer(port);
    expect(alive(firstDatabase ?? 0)).toBe(false);
    const secondDatabase = postmasterPid();
    expect(secondDatabase).not.toBe(firstDatabase);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    // The database dying under a running site: it is started again and the site recovers by itself.
    const beforeKill = second.output().length;
    process.kill(secondDatabase ?? 0, "SIGKILL");
    await printed(second, "embedded_postgres_restarted", beforeKill);
    expect(postmasterPid()).not.toBe(secondDatabase);
    expect(alive(postmasterPid() ?? 0)).toBe(true);
    // The pool's connections to the dead database are dropped as they fail: polled until one answers.
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status, {
        timeout: PROCESS_TEST_TIMEOUT,
      })
      .toBe(200);

    second.child.kill("SIGTERM");
    expect(await exitOf(second.child)).toBe(0);
  });

  it("refuses a second start on the data folder of a live server and leaves that server serving", async () => {
    const port = await freePort();
    const { child: running } = await startServer(port);
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
    const { child: server } = await startServer(port);
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
    const { child: server } = await startServer(port, external.url);
    try {
      await external.stop();
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status, {
          timeout: PROCESS_TEST_TIMEOUT,
        })
        .toBe(503);
      external = await startEmbeddedPostgres({ directory, port: clusterPort });
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status, {
          timeout: PROCESS_TEST_TIMEOUT,
        })
        .toBe(200);
    } finally {
      server.kill("SIGTERM");
      await exitOf(server);
      await external.stop();
      await rm(directory, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  });
});
