import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ORDER_KINDS } from "~/lib/payments/model";
import { ORDER_KIND_DEFINITIONS } from "./order-kinds.server";

const app = path.resolve(import.meta.dirname, "../..");

/** The kinds of order the features define, read from their sources. */
function kindsInSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return kindsInSources(full);
    if (!/\.server\.ts$/.test(entry.name)) return [];
    const source = readFileSync(full, "utf8");
    return [...source.matchAll(/defineOrderKind\(\s*"([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
  });
}

describe("the kinds of order the payments core is given", () => {
  it("are every kind a feature defines, each once, each a kind of the model", () => {
    const inSources = kindsInSources(app).sort();
    const listed = ORDER_KIND_DEFINITIONS.map((definition) => definition.kind).sort();
    expect(listed).toEqual(inSources);
    expect(new Set(listed).size).toBe(listed.length);
    for (const kind of listed) expect(ORDER_KINDS).toContain(kind);
  });
});
