// The server the pages of page-list.ts are measured on (Lighthouse, weight).
import { offerBooking } from "./reservations.ts";
import { seedArticles } from "./seed.ts";
import { connect, makeDataDir, removeDataDir, startServer, type BenchServer } from "./server.ts";

/**
 * A production server with a dozen published articles (covers from the demo images) in five categories, and
 * online booking on at Brive.
 */
export async function startPageServer(label: string): Promise<{
  server: BenchServer;
  close: () => Promise<void>;
}> {
  const dataDir = await makeDataDir(label);
  const server = await startServer({ dataDir });
  const client = await connect(server.databaseUrl);
  try {
    await seedArticles(client, { to: 12 });
    // Brive takes bookings on the site: its booking page is measured too (a light page, decision 0115).
    await offerBooking(client, "brive");
  } finally {
    await client.end();
  }
  return {
    server,
    async close() {
      await server.stop();
      await removeDataDir(dataDir);
    },
  };
}
