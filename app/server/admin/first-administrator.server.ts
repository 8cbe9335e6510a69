import { eq, sql } from "drizzle-orm";
import type { Auth } from "../auth/auth.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { env } from "../env.server";
import { signLinkToken, verifyLinkToken } from "../signed-link.server";
import { upsertAccount } from "./administrators.server";

/*
 * The first administrator of a new site (decision 0110; as Ghost's setup page): while no administrator
 * exists, the server prints at start a link valid 24 hours to a page that creates one. The link is signed,
 * not stored: it stops working as soon as any administrator exists (this page, `admin:create` or
 * ADMIN_EMAIL), which makes it single-use; two people posting it at once are serialised by a lock.
 */

export const FIRST_ADMINISTRATOR_PATH = "/admin/premier-administrateur";
const LINK_LIFETIME_SECONDS = 24 * 60 * 60;
/** pg_advisory_xact_lock key of the creation (the data folder's lock is 7_319_005). */
const CREATION_LOCK = 7_319_006;

export async function hasAdministrator(): Promise<boolean> {
  const [row] = await db()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, "admin"))
    .limit(1);
  return row !== undefined;
}

/** The absolute link to create the first administrator, or null when the site has one. */
export async function firstAdministratorLink(now = Date.now()): Promise<string | null> {
  if (await hasAdministrator()) return null;
  const token = await signLinkToken("first-administrator", "setup", {
    lifetimeSeconds: LINK_LIFETIME_SECONDS,
    now,
  });
  return `${env().SITE_URL.replace(/\/$/, "")}${FIRST_ADMINISTRATOR_PATH}?jeton=${token}`;
}

/** Whether `token` opens the page now: "valid", "invalid" (forged or late) or "used" (an administrator exists). */
export async function firstAdministratorTokenState(
  token: string | null,
): Promise<"valid" | "invalid" | "used"> {
  const check = await verifyLinkToken("first-administrator", token);
  if (!check.ok) return "invalid";
  return (await hasAdministrator()) ? "used" : "valid";
}

/** Creates the first administrator with `token`; refused once one exists. */
export async function createFirstAdministrator(
  auth: Auth,
  { token, email, password }: { token: string; email: string; password: string },
): Promise<"created" | "invalid" | "used"> {
  const check = await verifyLinkToken("first-administrator", token);
  if (!check.ok) return "invalid";
  return db().transaction(async (tx) => {
    // Held until this transaction ends: a second request waits here, then finds the administrator.
    await tx.execute(sql`select pg_advisory_xact_lock(${CREATION_LOCK})`);
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, "admin"))
      .limit(1);
    if (existing) return "used";
    await upsertAccount(auth, { email, password });
    return "created";
  });
}
