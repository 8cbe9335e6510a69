import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildInputs, root } from "./build";

/** Every source file of app/ the build reads (its tests aside). */
function appFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return appFiles(full);
    return /\.(?:ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("the build's fingerprint", () => {
  it("covers every file the app imports from outside app/, so a change to it rebuilds", () => {
    const app = path.join(root, "app");
    const outside = appFiles(app).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\bfrom\s+"(\.{1,2}\/[^"?]+)(?:\?[^"]*)?"/g)]
        .map(([, specifier]) =>
          path.relative(root, path.resolve(path.dirname(file), specifier ?? "")),
        )
        .filter((imported) => !imported.startsWith("app/") && !imported.startsWith("..")),
    );
    expect(outside).toContain("docs/guide-proprietaire.md");
    const covered = (imported: string) =>
      buildInputs.some((input) => imported === input || imported.startsWith(`${input}/`));
    expect(outside.filter((imported) => !covered(imported))).toEqual([]);
  });
});
