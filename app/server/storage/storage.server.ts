import path from "node:path";
import { env } from "~/server/env.server";
import { localStorage } from "./local.server";
import type { Storage } from "./types";

let chosen: Storage | undefined;

/**
 * The site's storage, chosen once from the environment: the local disk (DATA_DIR/uploads) unless an
 * S3-compatible store is configured.
 */
export function storage(): Storage {
  chosen ??= localStorage({
    root: path.join(env().dataDir, "uploads"),
    partsRoot: path.join(env().dataDir, "incoming-uploads", "parts"),
  });
  return chosen;
}

/** Tests that change DATA_DIR or the store between runs. */
export function resetStorageForTests(): void {
  chosen = undefined;
}
