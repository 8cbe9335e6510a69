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
    expect(processTimes(stat)).toEqual({ name: "node (x) y", parent: 2, own: 3, children: 15 });
  });

  it("splits the rest into kernel threads, by pid whatever their name became, and other processes", () => {
    const before: CpuSnapshot = {
      machineBusy: 100,
      run: 40,
      kernelThreads: {
        "78": { name: "kdamond.0", seconds: 10 },
        "15": { name: "rcu_preempt", seconds: 2 },
        "32": { name: "kworker/0:2-events", seconds: 5 },
      },
    };
    const after: CpuSnapshot = {
      machineBusy: 1100,
      run: 840,
      kernelThreads: {
        "78": { name: "kdamond.0", seconds: 160 },
        "15": { name: "rcu_preempt", seconds: 12 },
        "32": { name: "kworker/0:2-events_power_efficient", seconds: 5.5 },
        "99": { name: "kworker/1:0-mm_percpu_wq", seconds: 3 },
      },
    };
    const share = cpuShare(before, after);
    expect(share).toEqual({
      machineBusy: 1000,
      run: 800,
      kernelThreads: 163.5,
      busiestKernelThreads: [
        ["kdamond.0", 150],
        ["rcu_preempt", 10],
        ["kworker/1:0-mm_percpu_wq", 3],
      ],
      otherProcesses: 36.5,
    });
    expect(describeCpuShare(share, 612.4)).toBe(
      "CPU during this run (612 s): the machine was busy 1,000 CPU-seconds, the run's own processes 800, " +
        "the rest 200 (20 %): kernel threads 164 (kdamond.0 150, rcu_preempt 10, kworker/1:0-mm_percpu_wq 3), " +
        "other processes 37.",
    );
  });

  it("takes a snapshot of this machine", () => {
    const snapshot = takeSnapshot(process.pid);
    expect(snapshot?.machineBusy).toBeGreaterThan(0);
    expect(snapshot?.run).toBeGreaterThan(0);
    expect(Object.keys(snapshot?.kernelThreads ?? {}).length).toBeGreaterThan(0);
  });
});
