/*
 * The unit and integration files run one after the other in each worker's process (`isolate: false`,
 * decision 0180): imported once, the server's modules would otherwise carry one file's state into the
 * next. Before each file, this gives it what a new process would have: the environment the worker
 * started with, no configuration, store, content, clock, provider or secret read by an earlier file, and
 * real timers. What a file opened (a database, a job queue, a server) it closes in its own `afterAll`.
 */
import { vi } from "vitest";
import { setClockForTests } from "../../app/server/clock.server";
import { forgetSiteContentForTests } from "../../app/server/content/site-content.server";
import { rereadEnvForTests } from "../../app/server/env.server";
import { resetStorageForTests } from "../../app/server/storage/storage.server";

const worker = globalThis as typeof globalThis & { __workerStartEnv?: NodeJS.ProcessEnv };
worker.__workerStartEnv ??= { ...process.env };
const startEnv = worker.__workerStartEnv;

for (const name of Object.keys(process.env)) {
  if (!(name in startEnv)) Reflect.deleteProperty(process.env, name);
}
Object.assign(process.env, startEnv);

// The server's process-wide holders (`globalThis.__studio…`: database, auth, secrets, links' key, mail
// sender, job queue, providers): each is made again from this file's environment and database.
for (const name of Object.keys(globalThis)) {
  if (name.startsWith("__studio")) Reflect.deleteProperty(globalThis, name);
}

rereadEnvForTests();
resetStorageForTests();
forgetSiteContentForTests();
setClockForTests(null);
vi.useRealTimers();
vi.unstubAllEnvs();
vi.unstubAllGlobals();
vi.restoreAllMocks();
