import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
/** Where the build goes: BUILD_DIR (relative to the project) or `build`. */
export const buildDirectory = path.resolve(root, process.env.BUILD_DIR ?? "build");
const fingerprintFile = path.join(buildDirectory, ".fingerprint");

// Everything the production build is made from.
const inputs = [
  "app",
  "public",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

function* files(entry: string): Generator<string> {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

/** A hash of the build's inputs: the build is up to date when it was made from the same inputs. */
export function sourceFingerprint(): string {
  const hash = createHash("sha256");
  for (const input of inputs) {
    for (const file of files(input)) {
      hash
        .update(file)
        .update("\0")
        .update(readFileSync(path.join(root, file)))
        .update("\0");
    }
  }
  return hash.digest("hex");
}

export function buildIsCurrent(): boolean {
  return (
    existsSync(path.join(buildDirectory, "server/index.js")) &&
    existsSync(fingerprintFile) &&
    readFileSync(fingerprintFile, "utf8") === sourceFingerprint()
  );
}

/** Runs the production build (client and server bundles) and records what it was made from. */
export function build(): void {
  const fingerprint = sourceFingerprint();
  const cli = path.join(root, "node_modules/@react-router/dev/bin.cjs");
  const result = spawnSync(process.execPath, [cli, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    console.error("✖ La compilation du site a échoué.");
    process.exit(result.status ?? 1);
  }
  writeFileSync(fingerprintFile, fingerprint);
}

/**
 * Builds when the sources changed, one process at a time: concurrent callers (test set-ups, benchmarks,
 * two `npm start`) wait for the first one's build instead of writing the same folder together.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = `${buildDirectory}.lock`;
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        // A lock left by a killed process.
        if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000) rmSync(lock, { recursive: true });
      } catch {
        // released meanwhile
      }
      if (Date.now() > deadline) throw new Error(`Verrou de compilation bloqué : ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (!buildIsCurrent()) build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
