// How every command-line script loads the app's modules (admin:create, db:seed, backup, restore,
// storage:migrate, the benchmark's helpers): from the production build, which is made first when the sources
// changed, as `npm start` does; and the Node flags of a small process. Decision 0135.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildDirectory, buildIsCurrent, ensureBuilt } from "./build.ts";

/**
 * Loads an app module by its source path, e.g. `load<typeof SeedModule>("app/server/blog/demo-articles.server.ts")`; the
 * path must be one of scripts/lib/app-modules.ts.
 */
export type AppModuleLoader = <Module>(file: string) => Promise<Module>;

/** The build's entry of the scripts' modules (vite.config.ts). */
export const COMMAND_LINE_ENTRY = "server/command-line.js";

export async function appModuleLoader(): Promise<AppModuleLoader> {
  if (!buildIsCurrent()) {
    console.log("Compilation du site (les sources ont changé depuis la dernière compilation)…");
    await ensureBuilt();
  }
  // The current build by its real folder: a build switched in while the script runs changes nothing under it.
  const entry = path.join(realpathSync(buildDirectory), COMMAND_LINE_ENTRY);
  const { appModules } = (await import(pathToFileURL(entry).href)) as {
    appModules: Record<string, () => Promise<unknown>>;
  };
  return async (file) => {
    const load = appModules[file];
    if (!load) throw new Error(`${file} n'est pas dans scripts/lib/app-modules.ts`);
    return (await load()) as never;
  };
}

/**
 * V8 sizes its young generation from the machine's memory (decision 0092): linking drizzle-orm's modules (an
 * `export *` web, each file resolved against its 180 KB package.json) left about 150 MB of short-lived
 * objects, which a young generation of 1 MB collects as they come; the old generation grows by half of what
 * was alive, not 4 times. The build now bundles drizzle (decision 0190); the flags still bound a restore's
 * buffers. An operator's own value wins.
 */
const COMMAND_LINE_NODE_FLAGS = ["--max-semi-space-size=1", "--heap-growing-percent=50"];

/** The server's malloc settings (server.ts, decision 0092): a restore streams megabytes of buffers. */
const COMMAND_LINE_ENVIRONMENT = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" };

/**
 * Runs this script again in place (same process id, output and signals) with COMMAND_LINE_NODE_FLAGS and
 * COMMAND_LINE_ENVIRONMENT, unless it already has them; where Node cannot (Windows), it goes on as it is.
 * Called by a command before it does anything, since the script starts over.
 */
export function relaunchAsSmallProcess(): void {
  if (typeof process.execve !== "function") return;
  const given = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  const flags = COMMAND_LINE_NODE_FLAGS.filter((flag) => !given.includes(flag.replace(/=.*/, "")));
  if (flags.length === 0) return;
  process.execve(
    process.execPath,
    [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)],
    { ...COMMAND_LINE_ENVIRONMENT, ...process.env },
  );
}
