// `npm test`: what a change must pass, cheapest first. Lint, the typecheck and the production build need
// nothing of one another: they run side by side, each one's output printed whole when it ends (on two
// cores, about 40 s sooner than one after the other). Then the Vitest projects one after the other: unit
// and integration, http, e2e. The first failing stage ends the run with its exit code.
import { spawn } from "node:child_process";

type Command = { name: string; args: string[] };

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `npm <args>`, its output kept until it ends (`quiet`) or passed through as it comes. */
function run({ args }: Command, quiet: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(npm, args, {
      stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
      env: process.env,
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
    child.on("error", (error) => resolve({ code: 1, output: `${error.message}\n` }));
  });
}

const sideBySide: Command[] = [
  { name: "lint", args: ["run", "lint"] },
  { name: "typecheck", args: ["run", "typecheck"] },
  // The build the http and e2e projects serve (and integration tests start): made only when its sources
  // changed, as their set-up would make it, but here while the linters run.
  { name: "build", args: ["run", "build", "--", "--if-changed"] },
];

const oneAfterTheOther: Command[] = [
  { name: "unit + integration", args: ["run", "test:unit"] },
  { name: "http", args: ["run", "test:http"] },
  { name: "e2e", args: ["run", "test:e2e"] },
];

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

const results = await Promise.all(
  sideBySide.map(async (command) => {
    const result = await run(command, true);
    process.stdout.write(
      `\n── ${command.name} (${result.code === 0 ? "ok" : `échec, code ${result.code}`}, ${elapsed()}) ──\n`,
    );
    process.stdout.write(result.output);
    return result;
  }),
);
const failed = results.find((result) => result.code !== 0);
if (failed) process.exit(failed.code);

for (const command of oneAfterTheOther) {
  process.stdout.write(`\n── ${command.name} (${elapsed()}) ──\n`);
  const { code } = await run(command, false);
  if (code !== 0) process.exit(code);
}
process.stdout.write(`\n✔ npm test : tout est passé en ${elapsed()}.\n`);
