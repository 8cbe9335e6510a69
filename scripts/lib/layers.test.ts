import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph } from "./import-graph";
import { folderCycleImports, layerViolations } from "./layers";

const app = path.resolve(import.meta.dirname, "../../app");

describe("the layers of app/ (docs/architecture.md, « Layers »)", () => {
  const graph = importGraph(app, { types: true });

  it("are imported in their allowed directions only, types included", () => {
    expect(layerViolations(graph, app)).toEqual([]);
  });

  it("let at most four imports between the folders of app/server run back up", () => {
    // Today one: a restore of an older archive writes the start-up seeds (backup → boot, decision 0149).
    const back = folderCycleImports(graph, path.join(app, "server"));
    expect(back.length, back.join("\n")).toBeLessThanOrEqual(4);
  });

  it("name the offending import and the rule it breaks", () => {
    const file = (name: string) => path.join("/app", name);
    const synthetic = new Map([
      [file("server/booking/agenda.server.ts"), [file("components/booking-admin/parts.tsx")]],
      [file("components/blog-admin/form.tsx"), [file("routes/admin/layout.tsx")]],
      [file("lib/links.ts"), [file("server/db/schema.ts")]],
      [file("server/mail/transport.server.ts"), [file("server/content/site.server.ts")]],
      [file("server/booking/emails.server.ts"), [file("server/mail/outbox.server.ts")]],
      [
        file("routes/admin/messages.tsx"),
        [file("server/logger.server.ts"), file("routes/admin/messages.server.ts")],
      ],
      [file("routes/admin/messages.server.ts"), [file("server/logger.server.ts")]],
    ]);
    expect(layerViolations(synthetic, "/app")).toEqual([
      "components/blog-admin/form.tsx → routes/admin/layout.tsx (components ↛ routes)",
      "lib/links.ts → server/db/schema.ts (lib ↛ server)",
      "routes/admin/messages.tsx → server/logger.server.ts (route views ↛ server)",
      "server/booking/agenda.server.ts → components/booking-admin/parts.tsx (server ↛ components)",
      "server/mail/transport.server.ts → server/content/site.server.ts (infrastructure ↛ features)",
    ]);
  });

  it("find the imports that close a cycle of folders", () => {
    const file = (name: string) => path.join("/s", name);
    const synthetic = new Map([
      [file("a/one.ts"), [file("b/two.ts")]],
      [file("b/two.ts"), [file("c/three.ts")]],
      [file("c/three.ts"), [file("a/four.ts")]],
      [file("a/four.ts"), [file("d/five.ts")]],
      [file("d/five.ts"), []],
    ]);
    expect(folderCycleImports(synthetic, "/s")).toEqual(["a → b", "b → c", "c → a"]);
  });
});
