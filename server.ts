// Entry point of the site. `node server.ts` serves the production build (see scripts/start.ts, which builds
// it when needed); `node server.ts --dev` serves the sources through Vite with hot reload.
import path from "node:path";
import { pathToFileURL } from "node:url";

type ServerModule = { startServer: (options?: { viteDevServer?: unknown }) => Promise<unknown> };

if (process.argv.includes("--dev")) {
  process.env.NODE_ENV ??= "development";
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const module = (await viteDevServer.ssrLoadModule(
    "./app/server/http/app.server.ts",
  )) as ServerModule;
  await module.startServer({ viteDevServer });
} else {
  process.env.NODE_ENV ??= "production";
  const buildDirectory = path.resolve(import.meta.dirname, process.env.BUILD_DIR ?? "build");
  const entry = pathToFileURL(path.join(buildDirectory, "server/index.js")).href;
  const module = (await import(entry)) as ServerModule;
  await module.startServer();
}
