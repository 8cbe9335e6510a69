import { build, ensureBuilt } from "./lib/build.ts";

// `npm run build` always builds; `npm run build -- --if-changed` (npm test) only when the sources changed
// since the current build, waiting for a build another process has under way.
if (process.argv.includes("--if-changed")) await ensureBuilt();
else build();
