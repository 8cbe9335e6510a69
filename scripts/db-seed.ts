// `npm run db:seed`: adds the demo blog (three categories, twelve articles, one a draft) to the database:
// DATABASE_URL, else the embedded database in DATA_DIR (the running one if the site is up). Articles and
// categories that already exist (same slug) are left untouched, so it can run more than once.
import type * as ClientModule from "../app/server/db/client.server.ts";
import type * as SeedModule from "../app/server/blog/demo-articles.server.ts";
import { runWithAppDatabase } from "./lib/app-database.ts";

await runWithAppDatabase("✖ Impossible d'ajouter le contenu de démonstration :", async (load) => {
  const { db } = await load<typeof ClientModule>("app/server/db/client.server.ts");
  const added = await (
    await load<typeof SeedModule>("app/server/blog/demo-articles.server.ts")
  ).seedDemoContent(db());
  console.log(
    `✔ Contenu de démonstration : ${added.categories} catégorie(s) et ${added.articles} article(s) ajoutés.`,
  );
});
