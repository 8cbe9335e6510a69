// How the machine's CPU was shared during a run of `npm test`: its own processes (every process it
// started, counted when reaped) against the rest, the host's kernel threads first and the other
// processes (a virtual machine's agent, another program running beside it). A duration is only compared
// with another whose run had the machine as much to itself (decision 0193).
import { readdirSync, readFileSync } from "node:fs";

/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) in /proc, whatever the kernel's HZ. */
const TICKS_PER_SECOND = 100;

export type CpuSnapshot = {
  /** The machine's busy time, every core (user, nice, system, irq, softirq; idle, iowait and steal not). */
  machineBusy: number;
  /** The run's processes: the CPU of the shell that runs `npm test`, its own and its reaped children's. */
  run: number;
  /** Each kernel thread's name and CPU, by pid (a worker's name changes with the queue it serves). */
  kernelThreads: Record<string, { name: string; seconds: number }>;
};

/** The seconds of busy time on /proc/stat's first line (« cpu  user nice system idle iowait irq softirq steal … »). */
export function machineBusySeconds(procStat: string): number {
  const [label, ...fields] = (procStat.split("\n")[0] ?? "").trim().split(/\s+/);
  if (label !== "cpu") throw new Error("/proc/stat does not start with the CPU line");
  const ticks = fields.map(Number);
  // user, nice, system, (idle, iowait), irq, softirq
  const busy = [0, 1, 2, 5, 6].reduce((sum, index) => sum + (ticks[index] ?? 0), 0);
  return busy / TICKS_PER_SECOND;
}

export type ProcessTimes = {
  name: string;
  parent: number;
  /** Its own user and system time, in seconds. */
  own: number;
  /** Its reaped children's (and theirs, as each was reaped), in seconds. */
  children: number;
};

/** One /proc/PID/stat line: the name may hold spaces and parentheses, so fields are read after the last « ) ». */
export function processTimes(stat: string): ProcessTimes {
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  const field = (index: number) => fields[index] ?? 0;
  return {
    name,
    parent: field(1),
    own: (field(11) + field(12)) / TICKS_PER_SECOND,
    children: (field(13) + field(14)) / TICKS_PER_SECOND,
  };
}

function readStat(pid: number | string): ProcessTimes | null {
  try {
    return processTimes(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null; // ended between the listing and the read
  }
}

/** The machine's CPU now, and the run's (`runPid`: the shell whose steps are the run). Null without /proc. */
export function takeSnapshot(runPid: number): CpuSnapshot | null {
  let procStat: string;
  try {
    procStat = readFileSync("/proc/stat", "utf8");
  } catch {
    return null;
  }
  const shell = readStat(runPid);
  if (!shell) return null;
  const kernelThreads: CpuSnapshot["kernelThreads"] = {};
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const times = readStat(entry);
    // kthreadd (pid 2) and its children are the kernel's own threads.
    if (times && (entry === "2" || times.parent === 2)) {
      kernelThreads[entry] = { name: times.name, seconds: times.own };
    }
  }
  return {
    machineBusy: machineBusySeconds(procStat),
    run: shell.own + shell.children,
    kernelThreads,
  };
}

export type CpuShare = {
  machineBusy: number;
  run: number;
  kernelThreads: number;
  /** The kernel threads that took most, by name, with their seconds. */
  busiestKernelThreads: Array<[name: string, seconds: number]>;
  /** Every other process that is not the run's: the virtual machine's agent, another program. */
  otherProcesses: number;
};

/** What each took between two snapshots. */
export function cpuShare(before: CpuSnapshot, after: CpuSnapshot): CpuShare {
  const machineBusy = after.machineBusy - before.machineBusy;
  const run = after.run - before.run;
  const threads = Object.entries(after.kernelThreads).map(
    ([pid, { name, seconds }]): [string, number] => [
      name,
      seconds - (before.kernelThreads[pid]?.seconds ?? 0),
    ],
  );
  const kernelThreads = threads.reduce((sum, [, seconds]) => sum + seconds, 0);
  return {
    machineBusy,
    run,
    kernelThreads,
    busiestKernelThreads: threads
      .filter(([, seconds]) => seconds >= 1)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3),
    otherProcesses: Math.max(0, machineBusy - run - kernelThreads),
  };
}

const seconds = (value: number) => Math.round(value).toLocaleString("en-GB");

/** One paragraph for the end of the run's log. */
export function describeCpuShare(share: CpuShare, wallSeconds: number): string {
  const rest = share.machineBusy - share.run;
  const percent = share.machineBusy > 0 ? Math.round((100 * rest) / share.machineBusy) : 0;
  const busiest = share.busiestKernelThreads
    .map(([name, value]) => `${name} ${seconds(value)}`)
    .join(", ");
  return (
    `CPU during this run (${seconds(wallSeconds)} s): the machine was busy ${seconds(share.machineBusy)} CPU-seconds, ` +
    `the run's own processes ${seconds(share.run)}, the rest ${seconds(rest)} (${percent} %): ` +
    `kernel threads ${seconds(share.kernelThreads)}${busiest ? ` (${busiest})` : ""}, ` +
    `other processes ${seconds(share.otherProcesses)}.`
  );
}
