import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export type S3Env = {
  S3_ENDPOINT: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
};

export type S3Server = {
  /** The variables that point the site (or `s3Storage`) at this server's bucket. */
  env: S3Env;
  /** Stops the server (by its PID) and removes its folder. */
  stop: () => Promise<void>;
  /** Freezes the server (SIGSTOP): connections are accepted by the system, never answered. */
  freeze: () => void;
  /** Lets a frozen server go on (SIGCONT). */
  thaw: () => void;
};

/**
 * A real S3-compatible server for tests: s3rver 3.7.1 in a child process on 127.0.0.1 (a port it picks
 * itself, read from its first line), over a temporary folder, with one bucket (see s3rver-process.ts for
 * the one fix it runs with). Its default credentials
 * (S3RVER/S3RVER) are the ones it checks signatures with.
 *
 * The child runs with `--openssl-legacy-provider`: s3rver ciphers ListObjectsV2 continuation tokens with
 * DES, which OpenSSL 3 refuses without it (a 500 on any listing over 1,000 keys). Only the test server
 * needs it; the site pages its listings like any S3 client.
 */
export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "s3rver-"));
  const bucket = `test-${randomBytes(4).toString("hex")}`;
  const command = path.join(import.meta.dirname, "s3rver-process.ts");
  const child = spawn(
    process.execPath,
    [
      "--openssl-legacy-provider",
      command,
      "--address",
      "127.0.0.1",
      "--port",
      "0",
      "--directory",
      directory,
      "--configure-bucket",
      bucket,
      "--silent",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));

  const signal = (name: NodeJS.Signals) => child.pid !== undefined && process.kill(child.pid, name);
  const stop = async () => {
    signal("SIGCONT");
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid, "SIGTERM");
      const timer = setTimeout(() => child.pid && process.kill(child.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(directory, { recursive: true, force: true });
  };

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`s3rver n'a pas démarré en 30 s :\n${output}`)),
        30_000,
      );
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        output += text;
        const match = /listening on [\d.]+:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver s'est arrêté (code ${code}) :\n${output}`));
      });
    });
    const endpoint = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(endpoint);
    return {
      env: {
        S3_ENDPOINT: endpoint,
        S3_BUCKET: bucket,
        S3_REGION: "us-east-1",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      },
      stop,
      freeze: () => void signal("SIGSTOP"),
      thaw: () => void signal("SIGCONT"),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilAnswering(endpoint: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      // Any HTTP answer (an anonymous listing is refused) means it listens.
      await fetch(endpoint, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
