import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded.server";

const directories: string[] = [];
const clusters: EmbeddedPostgres[] = [];

async function tempDirectory() {
  const directory = await mkdtemp(path.join(os.tmpdir(), "studio-embedded-"));
  directories.push(directory);
  return directory;
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the embedded PostgreSQL of `directory` in a Node process of its own (tsx, for this TypeScript
 * module), waits until it reports the server started, then kills that process with SIGKILL.
 */
async function startInProcessThenKill(directory: string): Promise<void> {
  const module = pathToFileURL(path.join(import.meta.dirname, "embedded.server.ts")).href;
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { startEmbeddedPostgres } = await import(${JSON.stringify(module)});
       await startEmbeddedPostgres({ directory: ${JSON.stringify(directory)} });
       process.stdout.write("started\\n");
       setInterval(() => {}, 60_000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, LOG_LEVEL: "warn" } },
  );
  const exited = once(child, "exit");
  let output = "";
  for await (const chunk of child.stdout) {
    output += String(chunk);
    if (output.includes("started\n")) break;
  }
  if (!output.includes("started\n")) throw new Error(`the child did not start: ${output}`);
  child.kill("SIGKILL");
  await exited;
}

afterAll(async () => {
  for (const cluster of clusters) await cluster.stop();
  // A stopped server's last processes may still write a file as they exit: removal retries.
  for (const directory of directories)
    await rm(directory, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

describe("embedded PostgreSQL", () => {
  it("initialises a cluster on loopback, keeps its data across restarts and stops cleanly", async () => {
    const directory = await tempDirectory();
    const first = await startEmbeddedPostgres({ directory });
    expect(new URL(first.url).hostname).toBe("127.0.0.1");
    await query(first.url, "create table kept (value text); insert into kept values ('bonjour')");
    const [settings] = await query(first.url, "show listen_addresses");
    expect(settings?.listen_addresses).toBe("127.0.0.1");
    await first.stop();
    expect(existsSync(path.join(directory, "cluster", "postmaster.pid"))).toBe(false);

    const second = await startEmbeddedPostgres({ directory });
    clusters.push(second);
    expect(await query(second.url, "select value from kept")).toEqual([{ value: "bonjour" }]);
    // French collation: accented names sort with their letter, not after z.
    const sorted = await query(
      second.url,
      "select name from (values ('Zoé'), ('Été'), ('Enfant')) as t(name) order by name",
    );
    expect(sorted.map((row) => row.name)).toEqual(["Enfant", "Été", "Zoé"]);
  });

  it("stops a server left running by a killed process instead of starting a second one", async () => {
    const directory = await tempDirectory();
    // Started by a process of its own, killed (-9) once the server answers: the server is left running.
    // Started in this process instead, its watcher would live on and fight the takeover below (five
    // restarts refused, then the test worker's exit, seen in a run).
    await startInProcessThenKill(directory);
    const lockFile = path.join(directory, "cluster", "postmaster.pid");
    const orphanPid = Number((await readFile(lockFile, "utf8")).split("\n")[0]);
    expect(alive(orphanPid)).toBe(true);

    // The process that owned it died without stopping it: start again on the same data.
    const restarted = await startEmbeddedPostgres({ directory });
    clusters.push(restarted);
    expect(alive(orphanPid)).toBe(false);
    const newPid = Number((await readFile(lockFile, "utf8")).split("\n")[0]);
    expect(newPid).not.toBe(orphanPid);
    expect(await query(restarted.url, "select 1 as ok")).toEqual([{ ok: 1 }]);
  });
});
