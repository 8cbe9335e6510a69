// The process that serves the production build, started by server.ts (decision record 0092). Plain
// JavaScript: a serving process then never loads Node's TypeScript stripper, which keeps about 18 MB.
import path from "node:path";
import { pathToFileURL } from "node:url";

const buildDirectory = path.resolve(import.meta.dirname, "..", process.env.BUILD_DIR ?? "build");
const entry = pathToFileURL(path.join(buildDirectory, "server/index.js")).href;
const module = await import(entry);
await module.startServer();
