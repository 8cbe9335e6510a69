import { describe, expect, it } from "vitest";
import {
  cpuShare,
  describeCpuShare,
  machineBusySeconds,
  processTimes,
  takeSnapshot,
  type CpuSnapshot,
} from "./host-share";

describe("how the machine's CPU was shared during a run", () => {
  it("counts user, nice, system, irq and softirq as busy, not idle, iowait or steal", () => {
    const procStat =
      "cpu  1000 20 300 90000 50 7 13 400 0 0\ncpu0 500 10 150 45000 25 3 6 200 0 0\n";
    expect(machineBusySeconds(procStat)).toBe(13.4);
  });

  it("reads a process's times after its name, which may hold spaces and parentheses", () => {
    const stat =
      "4242 (node (x) y) S 2 4242 4242 0 -1 4194560 100 0 0 0 250 50 1200 300 20 0 1 0 10 0 0";
    expect(processTimes(stat)).toEqual({ name: "node (x) y", parent: 2, own: 3, start: 10 });
  });

  it("gives the run what neither the kernel's threads nor the processes already running took", () => {
    const before: CpuSnapshot = {
      machineBusy: 100,
      kernelThreads: {
        "78": { name: "kdamond.0", seconds: 10 },
        "15": { name: "rcu_preempt", seconds: 2 },
        "32": { name: "kworker/0:2-events", seconds: 5 },
      },
      processes: {
        "1:5": { name: "process_api", seconds: 40 },
        "900:7000": { name: "bash", seconds: 1 },
        // Ended during the run: what it took since is the run's (nothing tells it apart).
        "950:7100": { name: "vim", seconds: 3 },
      },
    };
    const after: CpuSnapshot = {
      machineBusy: 1100,
      kernelThreads: {
        // By pid: a worker's name changes with the queue it serves.
        "78": { name: "kdamond.0", seconds: 160 },
        "15": { name: "rcu_preempt", seconds: 12 },
        "32": { name: "kworker/0:2-events_power_efficient", seconds: 5.5 },
        "99": { name: "kworker/1:0-mm_percpu_wq", seconds: 3 },
      },
      processes: {
        "1:5": { name: "process_api", seconds: 130 },
        "900:7000": { name: "bash", seconds: 1.2 },
        // A new process under a reused pid: the run's.
        "950:9000": { name: "node", seconds: 300 },
        "4000:9100": { name: "postgres", seconds: 50 },
      },
    };
    const share = cpuShare(before, after);
    expect(share).toEqual({
      machineBusy: 1000,
      run: 746.3,
      kernelThreads: 163.5,
      busiestKernelThreads: [
        ["kdamond.0", 150],
        ["rcu_preempt", 10],
        ["kworker/1:0-mm_percpu_wq", 3],
      ],
      earlierProcesses: 90.2,
      busiestEarlierProcesses: [["process_api", 90]],
    });
    expect(describeCpuShare(share, 612.4)).toBe(
      "CPU during this run (612 s): the machine was busy 1,000 CPU-seconds: the processes started since it began 746 (75 %), " +
        "the kernel's threads 164 (kdamond.0 150, rcu_preempt 10, kworker/1:0-mm_percpu_wq 3), " +
        "processes already running before it 90 (process_api 90).",
    );
  });

  it("takes a snapshot of this machine", () => {
    const snapshot = takeSnapshot();
    expect(snapshot?.machineBusy).toBeGreaterThan(0);
    expect(Object.keys(snapshot?.kernelThreads ?? {}).length).toBeGreaterThan(0);
    expect(
      Object.entries(snapshot?.processes ?? {}).some(([key]) => key.startsWith(`${process.pid}:`)),
    ).toBe(true);
  });
});
