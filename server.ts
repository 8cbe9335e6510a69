// Entry point of the site. `node server.ts` serves the production build (see scripts/start.ts, which builds
// it when needed); `node server.ts --dev` serves the sources through Vite with hot reload.
import path from "node:path";
import { pathToFileURL } from "node:url";

type ServerModule = { startServer: (options?: { viteDevServer?: unknown }) => Promise<unknown> };

/**
 * V8's heap for a small server (decision record 0092). V8 sizes its young generation from the machine's
 * memory (up to about 120 MB on a 24 GB machine, a few MB on a 1 GB one): 8 MB semi-spaces bound it on every
 * machine. After a full collection V8 lets the old generation grow up to 4 times what was alive before the
 * next one: under a burst of rendered pages the heap reached 180 MB for 50 MB of live objects; 1.5 times
 * keeps it under 80 MB. An operator's own value of a flag (on the command line) wins.
 */
const PRODUCTION_NODE_FLAGS = ["--max-semi-space-size=8", "--heap-growing-percent=100"];

/**
 * glibc gives each thread that allocates (libuv's pool, V8's compiler and GC threads) a malloc arena of its
 * own, whose freed pages mostly stay resident: after a load, tens of MB. Two arenas are enough for one event
 * loop (decision record 0092). Elsewhere than glibc the variable means nothing; an operator's own value wins.
 */
const PRODUCTION_ENVIRONMENT = {
  MALLOC_ARENA_MAX: "2",
  // Gallery photos (decision 0102): libvips allocates and frees buffers of megabytes. glibc raises its mmap
  // threshold after each one freed, so the next ones come from the arenas and stay resident (the process
  // kept 280 MiB after a batch of 24-megapixel photos). A fixed 128 KiB threshold gives them back.
  MALLOC_MMAP_THRESHOLD_: "131072",
};

if (process.argv.includes("--dev")) {
  process.env.NODE_ENV ??= "development";
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const module = (await viteDevServer.ssrLoadModule(
    "./app/server/http/app.server.ts",
  )) as ServerModule;
  await module.startServer({ viteDevServer });
} else {
  process.env.NODE_ENV ??= "production";
  const launcher = path.join(import.meta.dirname, "scripts/serve-build.mjs");
  // The serving process becomes `node <PRODUCTION_NODE_FLAGS> scripts/serve-build.mjs` with
  // PRODUCTION_ENVIRONMENT, in place (same process id, output and signals); where Node cannot do that
  // (Windows), this process serves as it is.
  if (typeof process.execve === "function") {
    const given = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
    const flags = PRODUCTION_NODE_FLAGS.filter((flag) => !given.includes(flag.replace(/=.*/, "")));
    const args = [...flags, ...process.execArgv, launcher, ...process.argv.slice(2)];
    process.execve(process.execPath, [process.execPath, ...args], {
      ...PRODUCTION_ENVIRONMENT,
      ...process.env,
    });
  }
  await import(pathToFileURL(launcher).href);
}
