import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
/** Where the build goes: BUILD_DIR (relative to the project) or `build`. */
export const buildDirectory = path.resolve(root, process.env.BUILD_DIR ?? "build");
const fingerprintFile = path.join(buildDirectory, ".fingerprint");

// Everything the production build is made from.
export const buildInputs = [
  "app",
  // The app's modules of the command-line scripts: an entry of the server build (scripts/lib/app-loader.ts).
  "scripts/lib/app-modules.ts",
  // The photos' presets and encoder (decision 0165).
  "scripts/lib/photo-cache.ts",
  // The owner's guide, bundled into the admin's help page (decision 0140).
  "docs/guide-proprietaire.md",
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
  for (const input of buildInputs) {
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

/** Where each build is made: one folder per build, beside the `build` link that names the current one. */
export const versionsDirectory = `${buildDirectory}.versions`;
/** Builds kept besides the current one, for servers still running an earlier build until their restart. */
const KEPT_PREVIOUS_BUILDS = 2;

/**
 * Runs the production build (client and server bundles) into a new folder of its own, then makes it the
 * current one in one step: `build` is a link, replaced by a rename. A running server loaded its build by
 * its real folder and keeps serving it (its lazily imported modules included) until it is restarted; no
 * request ever sees a half-written build. Its output is kept quiet unless the build fails.
 */
export function build(): void {
  const fingerprint = sourceFingerprint();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const target = path.join(versionsDirectory, `${stamp}-${fingerprint.slice(0, 8)}`);
  mkdirSync(versionsDirectory, { recursive: true });
  const cli = path.join(root, "node_modules/@react-router/dev/bin.cjs");
  const result = spawnSync(process.execPath, [cli, "build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: "production", BUILD_DIR: target },
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    rmSync(target, { recursive: true, force: true });
    console.error("✖ La compilation du site a échoué.");
    process.exit(result.status ?? 1);
  }
  writeFileSync(path.join(target, ".fingerprint"), fingerprint);
  makeCurrent(target);
  removeOldBuilds(target);
}

/** Points the `build` link at `target` in one rename (a folder left by an earlier layout is moved aside). */
function makeCurrent(target: string): void {
  const next = `${buildDirectory}.next`;
  rmSync(next, { force: true });
  // A junction on Windows needs no privilege; elsewhere the type is ignored.
  symlinkSync(path.relative(path.dirname(next), target), next, "junction");
  if (existsSync(buildDirectory) && !lstatSync(buildDirectory).isSymbolicLink()) {
    renameSync(buildDirectory, path.join(versionsDirectory, `earlier-${path.basename(target)}`));
  }
  renameSync(next, buildDirectory);
}

function removeOldBuilds(current: string): void {
  const builds = readdirSync(versionsDirectory)
    .map((name) => path.join(versionsDirectory, name))
    .filter((folder) => folder !== current)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const folder of builds.slice(KEPT_PREVIOUS_BUILDS)) {
    rmSync(folder, { recursive: true, force: true });
  }
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
