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
  /** Brive's bookable session type's page (`/reserver/brive/{séance}`): its days and free times. */
  bookingPath: string;
  close: () => Promise<void>;
}> {
  const dataDir = await makeDataDir(label);
  const server = await startServer({ dataDir });
  const client = await connect(server.databaseUrl);
  let bookingPath: string;
  try {
    await seedArticles(client, { to: 12 });
    // Brive takes bookings on the site: its booking page is measured too (a light page, decision 0115).
    bookingPath = (await offerBooking(client, "brive")).daysPath;
  } finally {
    await client.end();
  }
  return {
    server,
    bookingPath,
    async close() {
      await server.stop();
      await removeDataDir(dataDir);
    },
  };
}
