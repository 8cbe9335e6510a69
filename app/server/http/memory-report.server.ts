import { log } from "../logger.server";

/*
 * What holds this process's memory, on demand: `kill -USR2 <pid>` writes one `memory_report` line to the log
 * (whatever LOG_LEVEL says) with Node's figures, the page cache's size and the database pool's connections.
 * The benchmark's memory section reads it (decision record 0092).
 */

type Sizes = { entries: number; bytes: number };
type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number };

const sources: { pageCache?: () => Sizes; pool?: () => PoolCounts | undefined } = {};

/** The page cache whose size the report gives (the app's, set when the app is made). */
export function reportPageCache(size: () => Sizes): void {
  sources.pageCache = size;
}

/** The pool whose connections the report counts. */
export function reportPool(pool: () => PoolCounts | undefined): void {
  sources.pool = pool;
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export function memoryReport() {
  const usage = process.memoryUsage();
  const pool = sources.pool?.();
  const cache = sources.pageCache?.();
  return {
    rssMiB: mib(usage.rss),
    heapTotalMiB: mib(usage.heapTotal),
    heapUsedMiB: mib(usage.heapUsed),
    externalMiB: mib(usage.external),
    arrayBuffersMiB: mib(usage.arrayBuffers),
    pageCache: cache ? { entries: cache.entries, MiB: mib(cache.bytes) } : null,
    databasePool: pool
      ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
      : null,
  };
}

const writeReport = () => log.report("memory_report", memoryReport());

/** Answers SIGUSR2 with a report until the returned function is called (at shutdown). */
export function reportMemoryOnSignal(): () => void {
  process.on("SIGUSR2", writeReport);
  return () => void process.off("SIGUSR2", writeReport);
}
