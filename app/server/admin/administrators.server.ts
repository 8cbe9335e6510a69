import { and, asc, eq, sql } from "drizzle-orm";
import type { Auth } from "../auth/auth.server";
import { db } from "../db/client.server";
import { accounts, users } from "../db/schema";

export type AccountInput = { email: string; password: string; role?: "admin" | "user" };

/**
 * Creates or updates a person who can sign in (`npm run admin:create`, ADMIN_EMAIL/ADMIN_PASSWORD at start,
 * and the browser tests' fixtures). A changed password signs the person out everywhere.
 */
export async function upsertAccount(
  auth: Auth,
  { email, password, role = "admin" }: AccountInput,
): Promise<{ userId: string; created: boolean }> {
  const context = await auth.$context;
  const adapter = context.internalAdapter;
  const normalisedEmail = email.trim().toLowerCase();
  const found = await adapter.findUserByEmail(normalisedEmail, { includeAccounts: true });

  if (!found) {
    const user = await adapter.createUser(
      {
        email: normalisedEmail,
        name: normalisedEmail.split("@")[0] ?? normalisedEmail,
        emailVerified: true,
        role,
      },
      { method: "admin" },
    );
    await adapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await context.password.hash(password),
    });
    return { userId: user.id, created: true };
  }

  const userId = found.user.id;
  if ((found.user as { role?: string }).role !== role) await adapter.updateUser(userId, { role });
  const credential = found.accounts.find((account) => account.providerId === "credential");
  if (!credential) {
    await adapter.linkAccount({
      userId,
      providerId: "credential",
      accountId: userId,
      password: await context.password.hash(password),
    });
  } else if (
    !credential.password ||
    !(await context.password.verify({ hash: credential.password, password }))
  ) {
    await adapter.updatePassword(userId, await context.password.hash(password));
    await adapter.deleteUserSessions(userId);
  }
  return { userId, created: false };
}

export type AdministratorRow = {
  id: string;
  email: string;
  createdAt: Date;
  /** False while an invited administrator has not chosen a password yet. */
  hasPassword: boolean;
  twoFactorEnabled: boolean;
};

/** Everyone whose role is `admin`, oldest first, for the administrators page. */
export async function listAdministrators(): Promise<AdministratorRow[]> {
  const rows = await db()
    .select({
      id: users.id,
      email: users.email,
      createdAt: users.createdAt,
      twoFactorEnabled: users.twoFactorEnabled,
      passwordAccounts: sql<number>`count(${accounts.id}) filter (where ${accounts.password} is not null)`,
    })
    .from(users)
    .leftJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, "credential")))
    .where(eq(users.role, "admin"))
    .groupBy(users.id)
    .orderBy(asc(users.createdAt));
  return rows.map(({ passwordAccounts, ...row }) => ({
    ...row,
    hasPassword: Number(passwordAccounts) > 0,
  }));
}
