// `npm run photos:cache`: brings photo-cache/ (the demo photos as the build encodes them, kept in the
// repository, decision 0165) to exactly what the build uses. Encodes the variants missing from it (a photo
// added or replaced, a preset changed, another sharp), then deletes those no photo uses any more and the
// folders of other sharp versions. Run it after changing a photo or a preset, and commit photo-cache/
// (scripts/lib/photo-cache.test.ts fails until then).
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { photoCacheDirectory, photoCacheEntriesUsed, photoCacheRoot } from "./lib/photo-cache.ts";

const before = new Set(list());
const used = new Set(await photoCacheEntriesUsed());

let removed = 0;
for (const name of list()) {
  if (used.has(name)) continue;
  rmSync(path.join(photoCacheDirectory, name));
  removed++;
}
for (const folder of readdirSync(photoCacheRoot)) {
  if (folder === path.basename(photoCacheDirectory)) continue;
  rmSync(path.join(photoCacheRoot, folder), { recursive: true });
  removed++;
}
const added = [...used].filter((name) => !before.has(name)).length;
console.log(
  `✓ ${path.relative(process.cwd(), photoCacheDirectory)} : ${used.size} variantes, ${added} encodée(s), ${removed} supprimée(s).`,
);

function list(): string[] {
  try {
    return readdirSync(photoCacheDirectory);
  } catch {
    return [];
  }
}
