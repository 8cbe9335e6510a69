import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../app/server/free-port.server";
import { root } from "../../scripts/lib/build";

/** The header the test's Caddy adds to every answer: the app server (`host:port`) that gave it. */
export const SERVED_BY = "x-served-by";

export type Caddy = {
  /** Where Caddy listens (plain HTTP on 127.0.0.1). */
  baseUrl: string;
  /** Stops Caddy (by its PID) and removes its folder. */
  stop: () => Promise<void>;
  output: () => string;
};

/** Replaces the one match of `pattern` in `text`, or says which part of deploy/Caddyfile changed. */
function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`));
  if (matches?.length !== 1)
    throw new Error(`deploy/Caddyfile : ${pattern} devrait s'y trouver une fois exactement.`);
  return text.replace(pattern, replacement);
}

/**
 * The reference configuration (deploy/Caddyfile) as the test runs it: the same reverse proxy block (load
 * balancing, retries, health checks, headers), served on a loopback port in plain HTTP instead of the
 * site's name with its certificate, to `upstreams`, with the admin API off, and naming the upstream of
 * each answer (SERVED_BY) so that the test sees which server answered.
 */
export async function testCaddyfile(port: number, upstreams: string[]): Promise<string> {
  let config = await readFile(path.join(root, "deploy", "Caddyfile"), "utf8");
  config = replaceOnce(config, /^\S+ \{$/m, `http://127.0.0.1:${port} {`);
  config = replaceOnce(
    config,
    /^(\s*)reverse_proxy [^{\n]+\{$/m,
    `$1reverse_proxy ${upstreams.join(" ")} {\n$1\theader_down ${SERVED_BY} {http.reverse_proxy.upstream.hostport}`,
  );
  return `{\n\tadmin off\n}\n\n${config}`;
}

const NOT_INSTALLED =
  "Caddy n'est pas installé : apt-get install caddy (Debian, 2.6 ou plus ; .ci/run le fait).";

/** Throws, saying how to install it, when the system has no `caddy` command. */
export function requireCaddy(): void {
  const version = spawnSync("caddy", ["version"], { encoding: "utf8", timeout: 10_000 });
  if (version.error || version.status !== 0) throw new Error(NOT_INSTALLED);
}

/**
 * Runs the system's Caddy (Debian's package, installed by .ci/run) in front of `upstreams` with the
 * repository's configuration, and resolves once /healthz answers through it. No Caddy: an error that says
 * how to install it (the test installs nothing itself).
 */
export async function startCaddy(upstreams: string[]): Promise<Caddy> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "caddy-"));
  let output = "";
  let child: ChildProcess | undefined;
  const stopChild = async () => {
    if (child && child.exitCode === null && child.signalCode === null && child.pid) {
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      process.kill(child.pid, "SIGTERM");
      const timer = setTimeout(() => child?.pid && process.kill(child.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const stop = async () => {
    await stopChild();
    await rm(directory, { recursive: true, force: true });
  };
  // A port another test took meanwhile: another one, a few times.
  for (let attempt = 1; attempt <= 5; attempt++) {
    const port = await freePort();
    const file = path.join(directory, "Caddyfile");
    await writeFile(file, await testCaddyfile(port, upstreams));
    output = "";
    const started = spawn("caddy", ["run", "--config", file, "--adapter", "caddyfile"], {
      // Its certificates' and settings' folders, in the test's own.
      env: {
        ...process.env,
        HOME: directory,
        XDG_DATA_HOME: path.join(directory, "data"),
        XDG_CONFIG_HOME: path.join(directory, "config"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    started.stdout.on("data", (chunk: Buffer) => (output = (output + chunk).slice(-20_000)));
    started.stderr.on("data", (chunk: Buffer) => (output = (output + chunk).slice(-20_000)));
    let gone = false;
    const failedToStart = new Promise<Error>((resolve) => {
      started.once("error", (error: NodeJS.ErrnoException) => {
        gone = true;
        resolve(error.code === "ENOENT" ? new Error(NOT_INSTALLED) : error);
      });
      started.once("exit", (code) => {
        gone = true;
        resolve(new Error(`Caddy s'est arrêté (code ${code}) :\n${output}`));
      });
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const answered = waitForHealth(baseUrl, 30_000, () => gone);
    const outcome = await Promise.race([answered, failedToStart]);
    if (outcome === true) return { baseUrl, stop, output: () => output };
    await stopChild();
    if (outcome === false || !/address already in use/.test(outcome.message)) {
      await stop();
      throw outcome === false
        ? new Error(`Caddy ne répond pas sur ${baseUrl} :\n${output}`)
        : outcome;
    }
  }
  await stop();
  throw new Error(`Caddy n'a pas trouvé de port libre :\n${output}`);
}

async function waitForHealth(
  baseUrl: string,
  timeoutMs: number,
  exited: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited()) {
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
