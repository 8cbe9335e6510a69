import { ensureDefaultPhotographer } from "../booking/photographers.server";
import { ensureDemoBooking } from "../content/ensure-seed-booking.server";
import { ensureSiteContent } from "../content/ensure-seed.server";
import type { Database } from "../db/client.server";
import { applyMigrations } from "../db/migrate.server";
import { provideSiteOrderKinds } from "./order-kinds.server";
import { provideSiteSources } from "./site-sources.server";

/**
 * What the site writes at every start where it is missing (decision 0149): the seed of the site's content
 * (decision 0070), with `demo` the demo's online booking on a database that never had any (decision 0126),
 * and the owner's photographer when there is none (decision 0113). The demo booking comes before the
 * photographer, which then finds the demo's. A new seed: its feature's module and one line here.
 */
export async function ensureStartupSeeds(
  database: Database,
  { demo = false }: { demo?: boolean } = {},
): Promise<void> {
  await ensureSiteContent(database);
  if (demo) await ensureDemoBooking(database);
  await ensureDefaultPhotographer(database);
}

/**
 * The database as this version of the site needs it: its migrations applied, then the start-up seeds,
 * both under the migrations' lock (several servers may start at once); and the infrastructure told where
 * the site's brand and sender are read (site-sources.server.ts) and the payments core the kinds of order
 * (order-kinds.server.ts), which every process that prepares its database (the server, the command line,
 * the tests) then has.
 */
export async function prepareDatabase(
  database: Database,
  { demo = false }: { demo?: boolean } = {},
): Promise<void> {
  provideSiteSources();
  provideSiteOrderKinds();
  await applyMigrations(database, (migrated) => ensureStartupSeeds(migrated, { demo }));
}
