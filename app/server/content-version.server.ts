import { db } from "./db/client.server";
import { contentVersion } from "./db/schema";

/** The number PostgreSQL raises with every change to articles or categories (migration 0004). */
export async function readContentVersion(): Promise<number> {
  const [row] = await db().select({ version: contentVersion.version }).from(contentVersion);
  if (!row)
    throw new Error("content_version n'a pas de ligne : la migration 0004 l'a-t-elle créée ?");
  return row.version;
}
