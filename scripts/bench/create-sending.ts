// `node scripts/bench/create-sending.ts <article id>`, run by the sending section in a process of its own:
// creates the newsletter sending of a published article with the app's own function (loaded from the build,
// as admin:create does; the benchmark itself never imports the app), on DATABASE_URL and its job queue,
// exactly as the admin's action does, and prints the outcome as JSON on its last line.
import type * as JobsBootModule from "../../app/server/boot/jobs.server.ts";
import type * as QueueModule from "../../app/server/jobs/queue.server.ts";
import type * as SendingModule from "../../app/server/newsletter/sending.server.ts";
import { runWithAppDatabase } from "../lib/app-database.ts";

const articleId = process.argv[2];
const databaseUrl = process.env.DATABASE_URL;
if (!articleId || !databaseUrl) {
  console.error("Usage : DATABASE_URL=… node scripts/bench/create-sending.ts <id de l'article>");
  process.exit(2);
}

await runWithAppDatabase("✖ Envoi non créé :", async (load) => {
  const queue = await load<typeof QueueModule>("app/server/jobs/queue.server.ts");
  const jobs = await load<typeof JobsBootModule>("app/server/boot/jobs.server.ts");
  const sending = await load<typeof SendingModule>("app/server/newsletter/sending.server.ts");
  await jobs.startSiteJobQueue(databaseUrl);
  try {
    const outcome = await sending.createSending({ articleId, createdBy: null });
    console.log(JSON.stringify(outcome));
  } finally {
    await queue.stopJobQueue(2_000);
  }
});
