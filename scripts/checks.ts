// `npm run checks`: the code's lint (ESLint), its formatting (Prettier) and the typecheck, at once. Each is
// one process on one core: one after the other they took 32 + 20 + 40 s of a fresh clone's `npm test` on
// two cores, at once about the longest one's time. The route types are generated first, so that ESLint
// and TypeScript read finished files. Each task's output is printed whole when it ends; the exit code is
// the first failure's.
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import { describeHostCosts, measureHostCosts } from "./lib/host-costs.ts";

const tasks: Array<[name: string, script: string]> = [
  ["lint:code", "ESLint"],
  ["lint:format", "Prettier"],
  ["typecheck:tsc", "TypeScript"],
];

// Which kind of host runs this: the suite's duration follows its kernel's costs as much as its CPU.
const cpus = os.cpus();
console.log(
  `Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores; ${describeHostCosts(measureHostCosts())}`,
);

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const typegen = spawnSync(npm, ["run", "--silent", "typegen"], { stdio: "inherit" });
if (typegen.status !== 0) process.exit(typegen.status ?? 1);

const results = await Promise.all(
  tasks.map(
    ([script, label]) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        const child = spawn(npm, ["run", "--silent", script], {
          stdio: ["ignore", "pipe", "pipe"],
          shell: process.platform === "win32",
        });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("close", (code) => {
          const seconds = ((performance.now() - started) / 1000).toFixed(0);
          console.log(`${code === 0 ? "✓" : "✖"} ${label} (${seconds} s)`);
          if (output.trim()) console.log(output.trimEnd());
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exit(results.find((code) => code !== 0) ?? 0);
