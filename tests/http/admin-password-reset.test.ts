import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { users, verifications } from "../../app/server/db/schema";
import { sessionCookieHeader, useAdmin } from "../support/accounts";
import { flashedToast, postLogin } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import {
  clearResetLimits,
  linkInMail,
  RESET_REQUESTED,
  useInvitation,
} from "../support/password-reset";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { mailsTo } from "../support/smtp-capture";

/*
 * What the server does with « Mot de passe oublié ? », the reset link and the invitation of another
 * administrator: the same answer for any address, the e-mails, sessions ended, links that expire and work
 * once, limits. The forms in a browser are tests/e2e/admin-password-reset.
 */

const mailboxUrl = inject("mailboxUrl");
const admin = useAdmin();
const { invited } = useInvitation();

const requestLink = (email: string) => postForm("/admin/mot-de-passe-oublie", { email });

/** Posts a new password through the reset link `link`, as its page's form does. */
function chooseNewPassword(link: string, password: string, confirmation = password) {
  const token = new URL(link).searchParams.get("token") ?? "";
  return postForm(new URL(link).pathname + new URL(link).search, {
    token,
    password,
    confirmation,
  });
}

const fieldError = (answer: FetchedPage, field: string) =>
  textOf(answer.document.querySelector(`#champ-${field}-erreur`));

const isExpiredLinkPage = (page: FetchedPage) =>
  textOf(page.document.querySelector("[role=alert]")).startsWith("Ce lien n'est plus valable");

describe("forgotten password", () => {
  it("answers the same for an unknown address and the administrator's, and e-mails a link to the administrator only", async () => {
    const invalid = await requestLink("pas-un-email");
    expect(invalid.status).toBe(400);
    expect(fieldError(invalid, "email")).toBe("Email invalide");

    const unknown = `inconnu-${randomBytes(4).toString("hex")}@example.com`;
    for (const email of [unknown, admin.account().email.toUpperCase()]) {
      const answer = await requestLink(email);
      expect(answer.status, email).toBe(200);
      expect(textOf(answer.document.querySelector("[role=status]")), email).toBe(RESET_REQUESTED);
    }
    const link = await linkInMail(admin.account().email, 1);
    expect(link.startsWith(`${serverBaseUrl()}/admin/reinitialiser-mot-de-passe?token=`)).toBe(
      true,
    );
    expect(await mailsTo(mailboxUrl, unknown)).toEqual([]);
  });

  it("sets the new password through the link: other sessions end, the old password no longer works, the link works once", async () => {
    const otherSession = admin.cookie();
    const sent = (await mailsTo(mailboxUrl, admin.account().email)).length;
    expect((await requestLink(admin.account().email)).status).toBe(200);
    const link = await linkInMail(admin.account().email, sent + 1);

    // The page holds a secret in its address: never stored by a cache, never sent to another site.
    const form = await fetchPage(link);
    expect(form.status).toBe(200);
    expect(form.headers.get("cache-control")).toBe("no-store");
    expect(form.headers.get("referrer-policy")).toBe("same-origin");

    // The login's rule for passwords, on the server too.
    const short = await chooseNewPassword(link, "123");
    expect(short.status).toBe(400);
    expect(fieldError(short, "password")).toBe(
      "Le mot de passe doit contenir au moins 6 caractères",
    );
    const newPassword = `nouveau-${randomBytes(4).toString("hex")}`;
    const mismatch = await chooseNewPassword(link, newPassword, `${newPassword}x`);
    expect(mismatch.status).toBe(400);
    expect(fieldError(mismatch, "confirmation")).toBe(
      "Les deux mots de passe ne correspondent pas",
    );

    const saved = await chooseNewPassword(link, newPassword);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/login");
    expect(flashedToast(saved.headers)).toMatchObject({ title: "Mot de passe enregistré" });

    // The session opened before the reset is over; the new password works, the old one no longer.
    const before = await fetchPage("/admin/dashboard", { cookie: otherSession });
    expect(before.headers.get("location")).toBe("/admin/login");
    expect((await postLogin(admin.account().email, admin.account().password)).status).toBe(401);
    admin.account().password = newPassword;
    const signedIn = await postLogin(admin.account().email, newPassword);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");

    // The link works once.
    expect(isExpiredLinkPage(await fetchPage(link))).toBe(true);
    const again = await chooseNewPassword(link, `autre-${newPassword}`);
    expect(again.status).toBe(400);
    expect(isExpiredLinkPage(again)).toBe(true);
  });

  it("refuses a link after its hour, and limits requests per client", async () => {
    await clearResetLimits();
    const sent = (await mailsTo(mailboxUrl, admin.account().email)).length;
    expect((await requestLink(admin.account().email)).status).toBe(200);
    const link = await linkInMail(admin.account().email, sent + 1);
    const [user] = await serverDatabase()
      .select()
      .from(users)
      .where(eq(users.email, admin.account().email));
    await serverDatabase()
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.value, user?.id ?? ""));
    expect(isExpiredLinkPage(await fetchPage(link))).toBe(true);

    // Five requests per client per quarter of an hour (one made above).
    for (let request = 2; request <= 5; request++) {
      expect((await requestLink(`x${request}-${admin.account().email}`)).status).toBe(200);
    }
    const refused = await requestLink(admin.account().email);
    expect(refused.status).toBe(429);
    expect(textOf(refused.document.querySelector("form [role=alert]"))).toContain(
      "Trop de tentatives",
    );
    await clearResetLimits();
  });
});

describe("inviting an administrator", () => {
  it("creates an administrator without a password, e-mails a link to choose one, then lets them in", async () => {
    // A session of its own: the reset above ended the file's first one.
    const cookie = await sessionCookieHeader(admin.account());
    const invite = (email: string) => postForm("/admin/administrateurs", { email }, { cookie });

    const invalid = await invite("pas-un-email");
    expect(invalid.status).toBe(400);
    expect(fieldError(invalid, "email")).toBe("Email invalide");
    const existing = await invite(admin.account().email);
    expect(existing.status).toBe(409);
    expect(fieldError(existing, "email")).toBe("Un compte existe déjà pour cette adresse");

    const sent = await invite(invited);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/admin/administrateurs");
    expect(flashedToast(sent.headers)).toMatchObject({ title: "Invitation envoyée" });
    const list = await fetchPage("/admin/administrateurs", { cookie });
    const row = [...list.document.querySelectorAll("tr")].find((each) =>
      textOf(each).includes(invited),
    );
    expect(textOf(row)).toContain("Invitation en attente");

    const [user] = await serverDatabase().select().from(users).where(eq(users.email, invited));
    expect(user?.role).toBe("admin");
    // No password yet: nothing opens the account.
    expect((await postLogin(invited, "motdepasse")).status).toBe(401);

    const link = await linkInMail(invited, 1);
    const mail = (await mailsTo(mailboxUrl, invited))[0];
    expect(mail?.subject).toContain("Invitation à l'administration du site");
    expect(mail?.text).toContain(`${admin.account().email} vous invite à administrer le site`);

    const password = `bienvenue-${randomBytes(4).toString("hex")}`;
    const chosen = await chooseNewPassword(link, password);
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/admin/login");
    const signedIn = await postLogin(invited, password);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");
  });
});
