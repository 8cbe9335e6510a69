import { randomBytes } from "node:crypto";
import { eq, inArray, like, or } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { upsertAccount } from "../../app/server/admin/administrators.server";
import { signInRateLimitKeys } from "../../app/server/admin/sign-in.server";
import { createAuth, type Auth } from "../../app/server/auth/config.server";
import { rateLimits, users } from "../../app/server/db/schema";
import type { Database } from "../../app/server/db/client.server";
import { serverAuthSecret, serverBaseUrl, serverDatabase } from "./server-under-test";

export type TestAccount = { email: string; password: string; role: "admin" | "user" };

/** A session of the server under test, as its browser cookie (`name=value`). */
export type SessionCookie = { name: string; value: string };

// One per connection of `serverDatabase` (a file's own server has its own; a closed one is never reused).
const instances = new WeakMap<Database, Auth>();

/** better-auth on the server's database with the server's secret: what it signs, the server accepts. */
function serverAuth(): Auth {
  const database = serverDatabase();
  let auth = instances.get(database);
  if (!auth) {
    auth = createAuth({
      database,
      secret: serverAuthSecret(),
      baseURL: serverBaseUrl(),
      mailer: () => null,
    });
    instances.set(database, auth);
  }
  return auth;
}

/**
 * Creates a person who can sign in, through the same code as `npm run admin:create`, in the database of the
 * server under test. The e-mail is unique to this call; `deleteAccount` removes it (sessions cascade).
 */
export async function createAccount(role: "admin" | "user" = "admin"): Promise<TestAccount> {
  const account = {
    email: `e2e-${role}-${randomBytes(5).toString("hex")}@example.com`,
    password: `motdepasse-${randomBytes(4).toString("hex")}`,
    role,
  };
  await upsertAccount(serverAuth(), account);
  return account;
}

export async function deleteAccount(account: TestAccount): Promise<void> {
  await serverDatabase().delete(users).where(eq(users.email, account.email));
  await clearSignInLimits(account);
}

/**
 * A new session of `account`, made as the server makes one (a row in `sessions`, its token signed with the
 * server's secret), without the login form: the form has its own tests (admin-login, admin-two-factor), every
 * other test signs in by cookie and counts no attempt against the sign-in limits. A non-administrator gets a
 * session too (the form would end it at once): the admin pages must refuse it all the same.
 */
export async function createSession(account: TestAccount): Promise<SessionCookie> {
  const { headers } = await serverAuth().api.signInEmail({
    body: { email: account.email, password: account.password, rememberMe: true },
    returnHeaders: true,
  });
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator);
    if (name.endsWith(".session_token")) return { name, value: pair.slice(separator + 1) };
  }
  throw new Error(`Aucun cookie de session pour ${account.email}`);
}

/** The Cookie header of a session, for requests made with fetch(). */
export const cookieHeaderOf = (session: SessionCookie) => `${session.name}=${session.value}`;

/**
 * The test file's administrator (or signed-in non-administrator, `role: "user"`): created before the file's
 * tests, signed in by cookie, removed afterwards with its sessions. Call it at the top of the file, after
 * `useOwnServer` when the file has a server of its own.
 */
export function useAdmin(role: "admin" | "user" = "admin") {
  let account: TestAccount | undefined;
  let session: SessionCookie | undefined;
  beforeAll(async () => {
    account = await createAccount(role);
    session = await createSession(account);
  });
  afterAll(async () => {
    if (account) await deleteAccount(account);
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useAdmin: used before its beforeAll ran");
    return value;
  };
  return {
    /** The account (e-mail, password, role). */
    account: () => ready(account),
    /** Its session cookie, for a browser context. */
    session: () => ready(session),
    /** Its session as a Cookie header, for fetch(). */
    cookie: () => cookieHeaderOf(ready(session)),
  };
}

/**
 * Every request of the tests comes from 127.0.0.1: clears the per-client sign-in counters so that the tests of
 * the login form do not block each other, and the per-address counters of `accounts` only: another file may be
 * counting its own account's attempts at this very moment.
 */
export async function clearSignInLimits(...accounts: TestAccount[]): Promise<void> {
  const keys = accounts.map((account) => signInRateLimitKeys(account.email, "").email);
  await serverDatabase()
    .delete(rateLimits)
    .where(
      or(
        like(rateLimits.key, "admin-login:client:%"),
        like(rateLimits.key, "admin-2fa:client:%"),
        ...(keys.length > 0 ? [inArray(rateLimits.key, keys)] : []),
      ),
    );
}

/** A new session of `account` as a Cookie header, for requests made with fetch(). */
export async function sessionCookieHeader(account: TestAccount): Promise<string> {
  return cookieHeaderOf(await createSession(account));
}
