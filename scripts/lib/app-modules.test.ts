import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appModules } from "./app-modules";

const scripts = path.resolve(import.meta.dirname, "..");

/** The command-line scripts of today's sources (not the previous release's filler, which loads its own). */
function scriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "previous-release" ? [] : scriptFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the app's modules of the command-line scripts", () => {
  it("hold every module a script loads", () => {
    const loaded = scriptFiles(scripts).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\bload<[^>]*>\(\s*"([^"]+)"/g)].map((match) => ({
        file: path.relative(scripts, file),
        module: match[1] ?? "",
      })),
    );
    expect(loaded.length).toBeGreaterThan(10);
    const missing = loaded.filter(({ module }) => !(module in appModules));
    expect(missing).toEqual([]);
  });

  it("import each module under its own name", () => {
    const source = readFileSync(path.join(scripts, "lib/app-modules.ts"), "utf8");
    const entries = [...source.matchAll(/"([^"]+)": \(\) =>\s*import\("\.\.\/\.\.\/([^"]+)"\)/g)];
    expect(entries.map((entry) => entry[1])).toEqual(Object.keys(appModules));
    for (const [, name, imported] of entries) expect(imported).toBe(name);
  });
});
