// The process that serves the production build, started by server.ts (decision record 0092). Plain
// JavaScript: a serving process then never loads Node's TypeScript stripper, which keeps about 18 MB.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// `build` is a link to the current build's own folder (scripts/lib/build.ts): the server loads that folder
// by its real name, so a later build, switched in while this server runs, changes nothing under it.
const buildDirectory = realpathSync(
  path.resolve(import.meta.dirname, "..", process.env.BUILD_DIR ?? "build"),
);
const entry = pathToFileURL(path.join(buildDirectory, "server/index.js")).href;
const module = await import(entry);
await module.startServer();
