// How the machine's CPU was shared during a run of `npm test`: the kernel's threads, the processes that
// were already running when it began (a virtual machine's agent, an editor, another test run), and the
// rest, the processes started since: the run's own, on a machine where nothing else starts meanwhile (a
// process that leaves its parent, as a database server may, is counted wherever it ends up; only its
// start tells). A duration is only compared with another whose run had the machine as much to itself
// (decision 0193).
import { readdirSync, readFileSync } from "node:fs";

/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) in /proc, whatever the kernel's HZ. */
const TICKS_PER_SECOND = 100;

type Seconds = { name: string; seconds: number };

export type CpuSnapshot = {
  /** The machine's busy time, every core (user, nice, system, irq, softirq; idle, iowait and steal not). */
  machineBusy: number;
  /** Each kernel thread's name and CPU, by pid (a worker's name changes with the queue it serves). */
  kernelThreads: Record<string, Seconds>;
  /** Every other process's own CPU, by « pid:start » (a pid is reused; its start time is not). */
  processes: Record<string, Seconds>;
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
  /** Its own user and system time, in seconds (its reaped children's not). */
  own: number;
  /** When it started, in clock ticks since the machine booted. */
  start: number;
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
    start: field(19),
  };
}

function readStat(pid: string): ProcessTimes | null {
  try {
    return processTimes(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null; // ended between the listing and the read
  }
}

/** The machine's CPU now, by kernel thread and by process. Null without /proc (not Linux). */
export function takeSnapshot(): CpuSnapshot | null {
  let procStat: string;
  try {
    procStat = readFileSync("/proc/stat", "utf8");
  } catch {
    return null;
  }
  const kernelThreads: CpuSnapshot["kernelThreads"] = {};
  const processes: CpuSnapshot["processes"] = {};
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const times = readStat(entry);
    if (!times) continue;
    // kthreadd (pid 2) and its children are the kernel's own threads.
    if (entry === "2" || times.parent === 2) {
      kernelThreads[entry] = { name: times.name, seconds: times.own };
    } else {
      processes[`${entry}:${times.start}`] = { name: times.name, seconds: times.own };
    }
  }
  return { machineBusy: machineBusySeconds(procStat), kernelThreads, processes };
}

export type CpuShare = {
  machineBusy: number;
  /** The processes started since the first snapshot: the run's own. */
  run: number;
  kernelThreads: number;
  /** The kernel threads that took most, by name, with their seconds. */
  busiestKernelThreads: Array<[name: string, seconds: number]>;
  /** The processes already running at the first snapshot, still running at the second. */
  earlierProcesses: number;
  busiestEarlierProcesses: Array<[name: string, seconds: number]>;
};

/** What each took between two snapshots, by the same key in both, the earlier value 0 when new. */
function deltas(
  before: Record<string, Seconds>,
  after: Record<string, Seconds>,
  onlyIn: "both" | "after",
): Array<[name: string, seconds: number]> {
  return Object.entries(after)
    .filter(([key]) => onlyIn === "after" || key in before)
    .map(([key, { name, seconds }]) => [name, seconds - (before[key]?.seconds ?? 0)]);
}

const busiest = (entries: Array<[string, number]>) =>
  entries
    .filter(([, seconds]) => seconds >= 1)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);

const total = (entries: Array<[string, number]>) =>
  entries.reduce((sum, [, seconds]) => sum + seconds, 0);

/** How the machine's busy time between two snapshots was shared. */
export function cpuShare(before: CpuSnapshot, after: CpuSnapshot): CpuShare {
  const machineBusy = after.machineBusy - before.machineBusy;
  const threads = deltas(before.kernelThreads, after.kernelThreads, "after");
  const earlier = deltas(before.processes, after.processes, "both");
  const kernelThreads = total(threads);
  const earlierProcesses = total(earlier);
  return {
    machineBusy,
    run: Math.max(0, machineBusy - kernelThreads - earlierProcesses),
    kernelThreads,
    busiestKernelThreads: busiest(threads),
    earlierProcesses,
    busiestEarlierProcesses: busiest(earlier),
  };
}

const seconds = (value: number) => Math.round(value).toLocaleString("en-GB");
const named = (entries: Array<[string, number]>) =>
  entries.length > 0
    ? ` (${entries.map(([name, value]) => `${name} ${seconds(value)}`).join(", ")})`
    : "";

/** One paragraph for the end of the run's log. */
export function describeCpuShare(share: CpuShare, wallSeconds: number): string {
  const percent = (value: number) =>
    share.machineBusy > 0 ? Math.round((100 * value) / share.machineBusy) : 0;
  return (
    `CPU during this run (${seconds(wallSeconds)} s): the machine was busy ${seconds(share.machineBusy)} CPU-seconds: ` +
    `the processes started since it began ${seconds(share.run)} (${percent(share.run)} %), ` +
    `the kernel's threads ${seconds(share.kernelThreads)}${named(share.busiestKernelThreads)}, ` +
    `processes already running before it ${seconds(share.earlierProcesses)}${named(share.busiestEarlierProcesses)}.`
  );
}
