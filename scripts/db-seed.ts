// `npm run db:seed`: adds the demo blog (three categories, twelve articles, one a draft) to the database:
// DATABASE_URL, else the embedded database in DATA_DIR (the running one if the site is up). Articles and
// categories that already exist (same slug) are left untouched, so it can run more than once.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createServer } from "vite";
import type * as ClientModule from "../app/server/db/client.server.ts";
import type * as EmbeddedModule from "../app/server/db/embedded.server.ts";
import type * as MigrateModule from "../app/server/db/migrate.server.ts";
import type * as EnvModule from "../app/server/env.server.ts";
import type * as SeedModule from "../app/server/seed.server.ts";

const root = path.resolve(import.meta.dirname, "..");

// The app's server modules use the `~/` alias: load them through Vite (no React Router plugin needed).
const vite = await createServer({
  configFile: false,
  root,
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, ws: false },
  resolve: { alias: { "~": path.join(root, "app") } },
});
type Modules = {
  env: typeof EnvModule;
  client: typeof ClientModule;
  embedded: typeof EmbeddedModule;
  migrate: typeof MigrateModule;
  seed: typeof SeedModule;
};
const load = async <K extends keyof Modules>(file: string) =>
  (await vite.ssrLoadModule(path.join(root, file))) as Modules[K];

let exitCode = 0;
let stopEmbedded: (() => Promise<void>) | undefined;
const client = await load<"client">("app/server/db/client.server.ts");
try {
  const config = (await load<"env">("app/server/env.server.ts")).env();
  let url = config.DATABASE_URL;
  if (!url) {
    const directory = path.join(config.dataDir, "postgres");
    const running = runningEmbeddedUrl(directory);
    if (running) url = running;
    else {
      const embedded = await (
        await load<"embedded">("app/server/db/embedded.server.ts")
      ).startEmbeddedPostgres({ directory });
      stopEmbedded = embedded.stop;
      url = embedded.url;
    }
  }
  const database = client.connectDatabase(url);
  await (await load<"migrate">("app/server/db/migrate.server.ts")).applyMigrations(database);
  const added = await (await load<"seed">("app/server/seed.server.ts")).seedDemoContent(database);
  console.log(
    `✔ Contenu de démonstration : ${added.categories} catégorie(s) et ${added.articles} article(s) ajoutés.`,
  );
} catch (error) {
  console.error("✖ Impossible d'ajouter le contenu de démonstration :", error);
  exitCode = 1;
} finally {
  await client.closeDatabase();
  await stopEmbedded?.();
  await vite.close();
}
process.exit(exitCode);

/** The address of the embedded PostgreSQL when the site is running and holds it (postmaster.pid). */
function runningEmbeddedUrl(directory: string): string | undefined {
  const lockFile = path.join(directory, "cluster", "postmaster.pid");
  if (!existsSync(lockFile)) return undefined;
  const lines = readFileSync(lockFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  const password = readFileSync(path.join(directory, "password"), "utf8").trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/studio`;
}
