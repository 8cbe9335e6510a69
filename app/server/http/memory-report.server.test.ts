import { afterEach, describe, expect, it, vi } from "vitest";
import {
  memoryReport,
  reportMemoryOnSignal,
  reportPageCache,
  reportPool,
} from "./memory-report.server";

const MIB = 2 ** 20;

describe("the memory report", () => {
  afterEach(() => vi.restoreAllMocks());

  it("gives the process's figures, the page cache's size and the pool's connections in MiB", () => {
    reportPageCache(() => ({ entries: 3, bytes: 1.5 * MIB }));
    reportPool(() => ({ totalCount: 4, idleCount: 3, waitingCount: 0 }));
    const report = memoryReport();
    expect(report.pageCache).toEqual({ entries: 3, MiB: 1.5 });
    expect(report.databasePool).toEqual({ total: 4, idle: 3, waiting: 0 });
    expect(report.rssMiB).toBeGreaterThan(report.heapUsedMiB);
  });

  it("is written to the log on SIGUSR2 until the server stops answering it", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const stop = reportMemoryOnSignal();
    process.emit("SIGUSR2", "SIGUSR2");
    stop();
    process.emit("SIGUSR2", "SIGUSR2");
    const lines = write.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.includes('"msg":"memory_report"'))).toHaveLength(1);
  });
});
