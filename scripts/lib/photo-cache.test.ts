import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { photoCacheDirectory, photoCacheEntriesUsed, photoCacheRoot } from "./photo-cache";

const scratch = mkdtempSync(path.join(os.tmpdir(), "photo-cache-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Decision 0165: the encoded demo photos are kept in the repository so that a fresh clone's build does not
// encode them again; stale files must not pile up there, and a photo changed without its variants would
// be encoded at every fresh clone's build.
describe("the repository's encoded photos (photo-cache/)", () => {
  it("are those of the installed sharp, in one folder", () => {
    expect(readdirSync(photoCacheRoot), "npm run photos:cache").toEqual([
      path.basename(photoCacheDirectory),
    ]);
  });

  it("hold exactly the variants the build uses, none missing and none left over", async () => {
    // A copy: a variant missing from the repository is encoded there, not into the work tree.
    const copy = path.join(scratch, "cache");
    if (existsSync(photoCacheDirectory)) cpSync(photoCacheDirectory, copy, { recursive: true });
    const committed = existsSync(copy) ? readdirSync(copy).sort() : [];
    const used = await photoCacheEntriesUsed(copy);
    expect(used.length).toBeGreaterThan(500);
    expect(
      {
        missing: used.filter((name) => !committed.includes(name)),
        unused: committed.filter((name) => !used.includes(name)),
      },
      "npm run photos:cache, then commit photo-cache/",
    ).toEqual({ missing: [], unused: [] });
  }, 120_000);
});
