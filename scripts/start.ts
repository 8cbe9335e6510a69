// `npm start`: builds the site when the sources changed since the last build, then serves it.
import { build, buildIsCurrent } from "./lib/build.ts";

if (!buildIsCurrent()) {
  console.log("Compilation du site (les sources ont changé depuis la dernière compilation)…");
  build();
}
await import("../server.ts");
