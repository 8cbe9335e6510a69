import { spawn } from "node:child_process";
import { root } from "../../scripts/lib/build";
import type { ServerProcess } from "./server-process";

/**
 * Starts a command-line script of the site (`scripts/<script>`) as an operator would, on `server`'s database
 * and data folder: `exited` resolves with its exit code (null when a signal ended it); `stdout` and `stderr`
 * are what it printed so far.
 */
export function startScript(server: ServerProcess, script: string, args: string[] = []) {
  const child = spawn(process.execPath, [`scripts/${script}`, ...args], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: server.dataDir,
      DATABASE_URL: server.databaseUrl,
      AUTH_SECRET: server.authSecret,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (printed.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (printed.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => resolve(code)),
  );
  return {
    child,
    exited,
    stdout: () => printed.stdout,
    stderr: () => printed.stderr,
  };
}

/** The hour of the nightly backup (BACKUP_HOUR) twelve hours from now in Paris: only a test's own runs run. */
export function backupHourFarFromNow(): string {
  const parisHour = Number(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Paris",
      hour: "2-digit",
      hourCycle: "h23",
    }).format(new Date()),
  );
  return String((parisHour + 12) % 24);
}
