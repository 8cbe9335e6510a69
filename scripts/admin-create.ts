// `npm run admin:create -- --email <email> --password <password>`: creates or updates an administrator.
// Uses DATABASE_URL, else the embedded database in DATA_DIR (the running one if the site is up).
import { parseArgs } from "node:util";
import { z } from "zod";
import type * as AdministratorsModule from "../app/server/admin/administrators.server.ts";
import type * as AuthModule from "../app/server/auth/auth.server.ts";
import { runWithAppDatabase } from "./lib/app-database.ts";

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

await runWithAppDatabase("✖ Impossible de créer l'administrateur :", async (load) => {
  const auth = await (await load<typeof AuthModule>("app/server/auth/auth.server.ts")).auth();
  const { created } = await (
    await load<typeof AdministratorsModule>("app/server/admin/administrators.server.ts")
  ).upsertAccount(auth, input.data);
  console.log(
    created
      ? `✔ Administrateur créé : ${input.data.email}`
      : `✔ Administrateur mis à jour : ${input.data.email}`,
  );
});
