import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type Piscina from "piscina";
import type { PhotoTask, PhotoTaskResult } from "./photo-task";

/*
 * The worker threads that prepare gallery photos (decision 0102). piscina is imported by the first task, so
 * a process that never receives a photo never loads it; the threads are made on demand and go away after a
 * minute without work (their V8 isolate and sharp's buffers with them). sharp itself is only ever loaded in
 * these threads (decision 0092's lazy rule).
 */

/** A photo that takes longer than this is abandoned (its thread is stopped) and the job retried. */
const TASK_TIMEOUT_MS = 5 * 60_000;
const IDLE_TIMEOUT_MS = 60_000;

/**
 * The worker's file: `photo-worker.js` beside the built server (a second entry of the SSR build,
 * vite.config.ts), else `worker.ts` next to this file, which Node 24 runs as it is (development, tests).
 */
function workerFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.join(here, "photo-worker.js"),
    path.join(here, "..", "photo-worker.js"),
    path.join(here, "worker.ts"),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`The photo worker is missing (looked for ${candidates.join(", ")})`);
  return pathToFileURL(found).href;
}

let pool: Promise<Piscina<PhotoTask, PhotoTaskResult>> | undefined;
let poolThreads = 0;

async function photoPool(threads: number): Promise<Piscina<PhotoTask, PhotoTaskResult>> {
  if (pool && poolThreads !== threads) await closePhotoPool();
  poolThreads = threads;
  pool ??= import("piscina").then(
    ({ Piscina }) =>
      new Piscina<PhotoTask, PhotoTaskResult>({
        filename: workerFile(),
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: IDLE_TIMEOUT_MS,
        // The thread's JavaScript holds little (libvips' pixels are outside V8's heap): a bound on it.
        resourceLimits: { maxOldGenerationSizeMb: 96 },
      }),
  );
  return pool;
}

/**
 * Runs one photo's task in a worker thread of this process (at most `threads` at once; more wait their
 * turn). `signal` stops the thread working on it (the job's signal, the process stopping).
 */
export async function runPhotoTask(
  task: PhotoTask,
  { signal, threads }: { signal: AbortSignal; threads: number },
): Promise<PhotoTaskResult> {
  const piscina = await photoPool(Math.max(1, threads));
  return piscina.run(task, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(TASK_TIMEOUT_MS)]),
  });
}

/** Stops the threads (tests, the bench): running tasks are abandoned. */
export async function closePhotoPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await (await closing)?.destroy();
}
