import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, readdir, realpath, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildDirectory as suiteBuild, root } from "../../scripts/lib/build";
import {
  PROCESS_TEST_TIMEOUT,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";

// `npm run build` (and `npm start` after a change) beside a running server: the server keeps serving the
// build it started with, every request answered, until it is restarted (decision 0108).

const folders: string[] = [];
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** `npm run build` into BUILD_DIR=`buildDirectory`; resolves with its exit code. */
function runBuild(buildDirectory: string): Promise<number | null> {
  const child = spawn(process.execPath, ["scripts/build.ts"], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: buildDirectory },
    stdio: "ignore",
  });
  return new Promise((resolve) => child.once("close", (code) => resolve(code)));
}

/** Every file below `folder` with its size and modification time. */
async function snapshot(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { size, mtimeMs } = await stat(file);
    files.set(path.relative(folder, file), `${size} ${mtimeMs}`);
  }
  return files;
}

describe("a build made while the server runs", () => {
  // A production build is the work under test: about 20 s on a quiet machine, three times that when the
  // two cores are shared with the rest of the suite, and over three minutes beside other heavy work.
  it(
    "is switched in whole; the running server keeps its own build and answers every request",
    {
      timeout: PROCESS_TEST_TIMEOUT,
    },
    async () => {
      // Inside the project (its modules resolve from node_modules), ignored by git like `build`.
      const buildDirectory = path.join(root, `build-switch-test-${randomBytes(4).toString("hex")}`);
      folders.push(buildDirectory, `${buildDirectory}.versions`);
      // The build it starts with: a copy of the suite's own (one build fewer to wait for), made current as
      // a build is, by a link.
      const first = path.join(`${buildDirectory}.versions`, "first");
      await cp(await realpath(suiteBuild), first, { recursive: true });
      await symlink(path.relative(path.dirname(buildDirectory), first), buildDirectory);
      server = await startServerProcess(inject("adminDatabaseUrl"), { BUILD_DIR: buildDirectory });
      const loaded = await realpath(buildDirectory);
      const before = await snapshot(loaded);

      // Pages whose modules load on first use (sign-in, the password form, the blog), asked during the build.
      const paths = ["/admin/login", "/admin/mot-de-passe-oublie", "/blog", "/tarifs", "/"];
      const statuses: number[] = [];
      let building = true;
      const rebuilt = runBuild(buildDirectory).finally(() => (building = false));
      for (let round = 0; building && round < 600; round++) {
        const path = paths[round % paths.length] ?? "/";
        const response = await fetch(`${server.baseUrl}${path}`, { redirect: "manual" });
        await response.arrayBuffer();
        statuses.push(response.status);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await rebuilt).toBe(0);

      expect(statuses.length).toBeGreaterThan(paths.length);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      const current = await realpath(buildDirectory);
      expect(current).not.toBe(loaded);
      // The running server's build is untouched: not one file rewritten or removed.
      expect(await snapshot(loaded)).toEqual(before);
      for (const path of ["/admin/login", "/galerie"]) {
        expect((await fetch(`${server.baseUrl}${path}`)).status).toBe(200);
      }
      // Restarted, it serves again (from the new build, the link now names it).
      await server.kill("SIGTERM");
      await server.restart();
      expect((await fetch(`${server.baseUrl}/tarifs`)).status).toBe(200);
    },
  );
});
