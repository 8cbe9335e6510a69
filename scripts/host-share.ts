// `node scripts/host-share.ts start|end`: the first and last steps of `npm test`. The first keeps a
// snapshot of the machine's CPU; the last prints how it was shared since (scripts/lib/host-share.ts).
// Both are run by the same shell: `start` is its child, `end` its child or, where the shell runs its last
// command in its own place (dash does), the shell itself.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cpuShare, describeCpuShare, takeSnapshot, type CpuSnapshot } from "./lib/host-share.ts";

const snapshotFile = (runPid: number) => path.join(os.tmpdir(), `studio-host-share-${runPid}.json`);

type Saved = { startedAt: number; snapshot: CpuSnapshot };

const step = process.argv[2];
if (step === "start") {
  const snapshot = takeSnapshot();
  if (snapshot) {
    const saved: Saved = { startedAt: Date.now(), snapshot };
    writeFileSync(snapshotFile(process.ppid), JSON.stringify(saved));
  }
} else if (step === "end") {
  for (const runPid of [process.pid, process.ppid]) {
    let saved: Saved;
    try {
      saved = JSON.parse(readFileSync(snapshotFile(runPid), "utf8")) as Saved;
    } catch {
      continue;
    }
    rmSync(snapshotFile(runPid), { force: true });
    const now = takeSnapshot();
    if (now) {
      const wallSeconds = (Date.now() - saved.startedAt) / 1000;
      console.log(describeCpuShare(cpuShare(saved.snapshot, now), wallSeconds));
    }
    break;
  }
} else {
  console.error("usage: node scripts/host-share.ts start|end");
  process.exit(2);
}
