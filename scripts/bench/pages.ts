// The pages measured by Lighthouse and for weight, and the server they are measured on.
import { benchArticleSlug, seedArticles } from "./seed.ts";
import { connect, makeDataDir, removeDataDir, startServer, type BenchServer } from "./server.ts";

export const measuredPages = [
  { name: "accueil", path: "/" },
  { name: "tarifs", path: "/tarifs" },
  { name: "contact Brive", path: "/contact-studio-brive" },
  { name: "blog", path: "/blog" },
  { name: "article", path: `/blog/${benchArticleSlug(1)}` },
];

/** A production server with a dozen published articles (covers from the demo images) in two categories. */
export async function startPageServer(label: string): Promise<{
  server: BenchServer;
  close: () => Promise<void>;
}> {
  const dataDir = await makeDataDir(label);
  const server = await startServer({ dataDir });
  const client = await connect(server.databaseUrl);
  try {
    await seedArticles(client, { to: 12 });
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
