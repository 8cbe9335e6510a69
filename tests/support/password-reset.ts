import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { rateLimits, users } from "../../app/server/db/schema";
import { serverDatabase } from "./server-under-test";
import { mailsTo, resetLink } from "./smtp-capture";

/** What « Mot de passe oublié ? » answers, whether or not the address is an administrator's. */
export const RESET_REQUESTED =
  "Demande enregistréeSi cette adresse est celle d'un compte administrateur, un e-mail vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Le lien est valable une heure et ne fonctionne qu'une fois.";

/** Clears the limits of reset-link requests and of new passwords posted (per client, per address). */
export async function clearResetLimits(): Promise<void> {
  await serverDatabase().delete(rateLimits).where(like(rateLimits.key, "admin-reset%"));
}

/** Waits for the `count`-th e-mail to `address` (the suite's mailbox) and returns the link it holds. */
export async function linkInMail(address: string, count: number): Promise<string> {
  const mailboxUrl = inject("mailboxUrl");
  await expect.poll(async () => (await mailsTo(mailboxUrl, address)).length).toBe(count);
  const mails = await mailsTo(mailboxUrl, address);
  return resetLink(mails[count - 1]?.text ?? "");
}

/**
 * For a file of the reset and invitation forms: the reset limits cleared before and after it, and an address
 * to invite, whose account is removed afterwards.
 */
export function useInvitation(): { invited: string } {
  const invited = `e2e-invite-${randomBytes(5).toString("hex")}@example.com`;
  beforeAll(clearResetLimits);
  afterAll(async () => {
    await serverDatabase().delete(users).where(eq(users.email, invited));
    await clearResetLimits();
  });
  return { invited };
}
