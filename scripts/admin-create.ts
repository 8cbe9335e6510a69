// `npm run admin:create -- --email <email> --password <password>`: creates or updates an administrator.
// Uses DATABASE_URL, else the embedded database in DATA_DIR (the running one if the site is up).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer } from "vite";
import { z } from "zod";
import type * as AdministratorsModule from "../app/server/admin/administrators.server.ts";
import type * as AuthModule from "../app/server/auth.server.ts";
import type * as ClientModule from "../app/server/db/client.server.ts";
import type * as EmbeddedModule from "../app/server/db/embedded.server.ts";
import type * as MigrateModule from "../app/server/db/migrate.server.ts";
import type * as EnvModule from "../app/server/env.server.ts";

const root = path.resolve(import.meta.dirname, "..");

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" } },
  strict: true,
});
const input = z
  .object({
    email: z.email("--email doit être une adresse e-mail"),
    password: z.string().min(6, "--password doit contenir au moins 6 caractères"),
  })
  .safeParse({ email: values.email ?? "", password: values.password ?? "" });
if (!input.success) {
  console.error(`✖ ${input.error.issues.map((issue) => issue.message).join("\n✖ ")}`);
  console.error("Usage : npm run admin:create -- --email <email> --password <mot de passe>");
  process.exit(1);
}

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
  auth: typeof AuthModule;
  administrators: typeof AdministratorsModule;
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
  const auth = await (await load<"auth">("app/server/auth.server.ts")).auth();
  const { created } = await (
    await load<"administrators">("app/server/admin/administrators.server.ts")
  ).upsertAccount(auth, input.data);
  console.log(
    created
      ? `✔ Administrateur créé : ${input.data.email}`
      : `✔ Administrateur mis à jour : ${input.data.email}`,
  );
} catch (error) {
  console.error("✖ Impossible de créer l'administrateur :", error);
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
