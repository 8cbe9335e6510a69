import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "../../../tests/support/smtp-capture";
import { useAppDatabase } from "../../../tests/support/database";
import { createAuth, type Auth } from "../auth/config.server";
import { db } from "../db/client.server";
import { rateLimits, sessions, users, verifications } from "../db/schema";
import type { Mailer } from "../auth/sources.server";
import { closeMailTransport, deliver } from "../mail/transport.server";
import { consumeRateLimit } from "../rate-limit.server";
import { upsertAccount } from "./administrators.server";
import {
  inviteAdministrator,
  isResetTokenValid,
  requestPasswordResetLink,
  resetPasswordWithToken,
} from "./password-reset.server";
import { signInRateLimitKeys } from "./sign-in.server";

useAppDatabase();

let capture: Awaited<ReturnType<typeof startSmtpCapture>>;
let mailer: Mailer;
let auth: Auth;
let withoutMail: Auth;

beforeAll(async () => {
  capture = await startSmtpCapture();
  const config = { url: capture.smtpUrl, from: "Studio <site@example.com>", ratePerMinute: 6000 };
  mailer = (message) => deliver(message, config);
  const options = {
    database: db(),
    secret: "a-test-secret-that-is-long-enough-0123456789",
    baseURL: "https://studio.example",
  };
  auth = createAuth({ ...options, mailer: () => mailer });
  withoutMail = createAuth({ ...options, mailer: () => null });
});
afterAll(async () => {
  closeMailTransport();
  await capture.close();
});

const tokenOf = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? "";
const mailsTo = (address: string) => capture.received.filter((mail) => mail.to.includes(address));
let client = 0;
const nextClient = () => `198.51.100.${++client}`;

describe("forgotten password", () => {
  it("says e-mail is not configured without SMTP, and creates nothing", async () => {
    await upsertAccount(auth, { email: "sans-smtp@example.com", password: "secret-1" });
    const outcome = await requestPasswordResetLink(withoutMail, null, {
      email: "sans-smtp@example.com",
      client: nextClient(),
    });
    expect(outcome).toEqual({ kind: "not-configured" });
    expect(await db().select().from(verifications)).toEqual([]);
    expect(
      await inviteAdministrator(withoutMail, null, {
        email: "nouvelle@example.com",
        invitedBy: "sans-smtp@example.com",
        baseURL: "https://studio.example",
      }),
    ).toEqual({ kind: "not-configured" });
    expect(await db().select().from(users).where(eq(users.email, "nouvelle@example.com"))).toEqual(
      [],
    );
  });

  it("e-mails an administrator a one-hour single-use link, and nobody else", async () => {
    await upsertAccount(auth, { email: "owner@example.com", password: "secret-1" });
    await upsertAccount(auth, { email: "member@example.com", password: "secret-1", role: "user" });
    for (const email of ["owner@example.com", "unknown@example.com", "member@example.com"]) {
      expect(await requestPasswordResetLink(auth, mailer, { email, client: nextClient() })).toEqual(
        {
          kind: "sent",
        },
      );
    }
    await expect.poll(() => mailsTo("owner@example.com").length).toBe(1);
    expect(mailsTo("unknown@example.com")).toEqual([]);
    expect(mailsTo("member@example.com")).toEqual([]);
    const mail = mailsTo("owner@example.com")[0];
    expect(mail?.subject).toContain("Réinitialisation de votre mot de passe");
    expect(mail?.text).toContain("https://studio.example/admin/reinitialiser-mot-de-passe?token=");
    const token = tokenOf(mail?.text ?? "");

    // Stored hashed, valid one hour.
    const [stored] = await db().select().from(verifications);
    expect(stored?.identifier).not.toContain(token);
    const lifetime = (stored?.expiresAt.getTime() ?? 0) - Date.now();
    expect(lifetime).toBeGreaterThan(55 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(await isResetTokenValid(auth, token)).toBe(true);

    // A session and a stranger's exhausted counter, both ended by the reset.
    await auth.api.signInEmail({ body: { email: "owner@example.com", password: "secret-1" } });
    const key = signInRateLimitKeys("owner@example.com", "").email;
    for (let attempt = 0; attempt < 6; attempt++) {
      await consumeRateLimit(key, { limit: 5, windowSeconds: 900 });
    }
    const reset = await resetPasswordWithToken(auth, {
      token,
      password: "nouveau-1",
      client: nextClient(),
    });
    expect(reset).toEqual({ kind: "done" });
    const [user] = await db().select().from(users).where(eq(users.email, "owner@example.com"));
    expect(
      await db()
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.id ?? "")),
    ).toEqual([]);
    expect(await db().select().from(rateLimits).where(eq(rateLimits.key, key))).toEqual([]);
    await auth.api.signInEmail({ body: { email: "owner@example.com", password: "nouveau-1" } });

    // Once only.
    expect(await isResetTokenValid(auth, token)).toBe(false);
    expect(
      await resetPasswordWithToken(auth, { token, password: "encore-1", client: nextClient() }),
    ).toEqual({ kind: "invalid-token" });
  });

  it("sends at most 3 links an hour to one address, answering the same", async () => {
    await upsertAccount(auth, { email: "limite@example.com", password: "secret-1" });
    for (let request = 0; request < 5; request++) {
      expect(
        await requestPasswordResetLink(auth, mailer, {
          email: "limite@example.com",
          client: nextClient(),
        }),
      ).toEqual({ kind: "sent" });
    }
    await expect.poll(() => mailsTo("limite@example.com").length).toBe(3);
  });

  it("refuses a client after 5 requests in a quarter of an hour", async () => {
    const address = nextClient();
    for (let request = 0; request < 5; request++) {
      await requestPasswordResetLink(auth, mailer, { email: "x@example.com", client: address });
    }
    const refused = await requestPasswordResetLink(auth, mailer, {
      email: "x@example.com",
      client: address,
    });
    expect(refused.kind).toBe("rate-limited");
  });
});

describe("invitations", () => {
  it("creates an administrator who cannot sign in until the e-mailed link sets a password", async () => {
    const outcome = await inviteAdministrator(auth, mailer, {
      email: "Photographe@Example.com",
      invitedBy: "owner@example.com",
      baseURL: "https://studio.example",
    });
    expect(outcome).toEqual({ kind: "sent" });
    const [user] = await db()
      .select()
      .from(users)
      .where(eq(users.email, "photographe@example.com"));
    expect(user?.role).toBe("admin");
    await expect(
      auth.api.signInEmail({ body: { email: "photographe@example.com", password: "" } }),
    ).rejects.toThrow();
    const mail = mailsTo("photographe@example.com")[0];
    expect(mail?.text).toContain("owner@example.com vous invite à administrer le site");
    const reset = await resetPasswordWithToken(auth, {
      token: tokenOf(mail?.text ?? ""),
      password: "bienvenue-1",
      client: nextClient(),
    });
    expect(reset).toEqual({ kind: "done" });
    await auth.api.signInEmail({
      body: { email: "photographe@example.com", password: "bienvenue-1" },
    });
    // Now an account that signs in: not invited again.
    expect(
      await inviteAdministrator(auth, mailer, {
        email: "photographe@example.com",
        invitedBy: "owner@example.com",
        baseURL: "https://studio.example",
      }),
    ).toEqual({ kind: "exists" });
  });
});
