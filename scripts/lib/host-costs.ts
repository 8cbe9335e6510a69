// What this machine's kernel charges for the three things the tests and the bench do most besides
// computing: a system call, a file's metadata, and a page of memory touched for the first time. Two
// machines of the same CPU and speed can differ here by ten times or more (the suite's time and the
// bench's blocking time with them): printed at the start of `npm test` and kept with every bench section,
// so that a duration can be compared with another measured on the same kind of host (decision 0193).
import { statSync } from "node:fs";
import os from "node:os";

export type HostCosts = {
  /** One `getppid()` (`process.ppid` asks the kernel each time), in microseconds. */
  systemCallMicros: number;
  /** One `stat()` of the temporary folder, in microseconds. */
  statMicros: number;
  /** One 4 KiB page of a new buffer written for the first time, in microseconds. */
  pageFaultMicros: number;
};

const PAGE = 4096;

/** The median of `rounds` timings of `run`, each divided by `count`, in microseconds. */
function medianMicros(rounds: number, count: number, run: () => void): number {
  const timings: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    run();
    timings.push(Number(process.hrtime.bigint() - started) / count / 1000);
  }
  timings.sort((a, b) => a - b);
  return timings[Math.floor(timings.length / 2)] ?? Number.NaN;
}

/**
 * Measures the three costs, in about a tenth of a second on a quick host and one second on a slow one:
 * 5 × 2,000 system calls, 5 × 1,000 stats, 5 × 16 MiB of new pages (each buffer its own mapping, released
 * before the next).
 */
export function measureHostCosts(): HostCosts {
  const directory = os.tmpdir();
  let sink = 0;
  const systemCallMicros = medianMicros(5, 2000, () => {
    for (let i = 0; i < 2000; i++) sink += process.ppid;
  });
  const statMicros = medianMicros(5, 1000, () => {
    for (let i = 0; i < 1000; i++) sink += statSync(directory).nlink;
  });
  const bytes = 16 * 2 ** 20;
  const pageFaultMicros = medianMicros(5, bytes / PAGE, () => {
    // Not from Node's pool, not zero-filled: the first write to each page is what faults it in.
    const buffer = Buffer.allocUnsafeSlow(bytes);
    for (let offset = 0; offset < bytes; offset += PAGE) buffer[offset] = 1;
    sink += buffer[0] ?? 0;
  });
  if (sink < 0) throw new Error("unreachable");
  return { systemCallMicros, statMicros, pageFaultMicros };
}

const micros = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} µs`;

/** « a system call 1.5 µs, a stat 7.8 µs, a new page 14 µs ». */
export function describeHostCosts(costs: HostCosts): string {
  return `a system call ${micros(costs.systemCallMicros)}, a stat ${micros(costs.statMicros)}, a new page ${micros(costs.pageFaultMicros)}`;
}
