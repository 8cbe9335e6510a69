// `npm start`: builds the site when the sources changed since the last build, then serves it.
import { buildIsCurrent, ensureBuilt } from "./lib/build.ts";

if (!buildIsCurrent()) {
  console.log("Compilation du site (les sources ont changé depuis la dernière compilation)…");
  await ensureBuilt();
}
await import("../server.ts");
