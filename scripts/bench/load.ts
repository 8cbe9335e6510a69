// autocannon in its own process (so the load generator does not share the measuring process's event loop).
import { spawn } from "node:child_process";
import path from "node:path";
import { root } from "../lib/build.ts";

export type LoadResult = {
  requestsPerSecond: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};

type AutocannonJson = {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};

/**
 * Runs `durationSeconds` of load with `connections` keep-alive connections, capped at `maxRequests`;
 * `headers` are sent with every request (a session cookie, for the admin's pages).
 */
export async function loadTest(
  url: string,
  {
    connections,
    durationSeconds,
    maxRequests,
    headers = {},
  }: {
    connections: number;
    durationSeconds: number;
    maxRequests: number;
    headers?: Record<string, string>;
  },
): Promise<LoadResult> {
  if (new URL(url).hostname !== "127.0.0.1") throw new Error("Le banc ne vise que 127.0.0.1");
  const cli = path.join(root, "node_modules/autocannon/autocannon.js");
  const args = [
    cli,
    "--json",
    "--no-progress",
    "-c",
    String(connections),
    "-d",
    String(durationSeconds),
    "-O",
    String(maxRequests),
    "-t",
    "10",
    "-H",
    "accept=text/html",
    "-H",
    "accept-encoding=gzip, br",
    ...Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}=${value}`]),
    url,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), (durationSeconds + 30) * 1000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`autocannon a échoué (${code}) : ${stderr}`));
    });
  });
  const json = JSON.parse(output.slice(output.indexOf("{"))) as AutocannonJson;
  return {
    requestsPerSecond: json.requests.average,
    total: json.requests.total,
    p50: json.latency.p50,
    p90: json.latency.p90,
    p99: json.latency.p99,
    max: json.latency.max,
    non2xx: json.non2xx,
    errors: json.errors,
    timeouts: json.timeouts,
  };
}
