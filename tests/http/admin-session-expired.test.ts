import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogCategories, sessions, users } from "../../app/server/db/schema";
import { cookieHeaderOf, createAccount, createSession, deleteAccount } from "../support/accounts";
import { postForm, textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * An admin form posted after the session ended (decision 0133): a French page saying so, the way to sign in
 * again, and what was typed kept, ready to be sent again; never « Unexpected Application Error! ».
 */

const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  await serverDatabase()
    .delete(blogCategories)
    .where(like(blogCategories.slug, `%${marker}%`));
});

/** A cookie of a session that has just expired (the owner left the page open past its end). */
async function expiredSessionCookie() {
  const account = await createAccount();
  const session = await createSession(account);
  const [user] = await serverDatabase().select().from(users).where(eq(users.email, account.email));
  await serverDatabase()
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sessions.userId, user?.id ?? ""));
  return { account, cookie: cookieHeaderOf(session) };
}

describe("an admin form posted with an expired session", () => {
  it("says so in French, links to the sign-in page and keeps what was typed for sending it again", async () => {
    const { account, cookie } = await expiredSessionCookie();
    try {
      const typed = {
        intent: "create",
        name: `Mariages d'hiver ${marker}`,
        slug: `mariages-hiver-${marker}`,
        description: "Des « photos » sous la neige & au coin du feu",
      };
      const answer = await postForm("/admin/categories", typed, { cookie });
      expect(answer.status).toBe(401);
      expect(textOf(answer.document.querySelector("main"))).not.toMatch(
        /Unexpected|Internal Server Error/,
      );
      expect(textOf(answer.document.querySelector("h1"))).toBe("Votre session a expiré");
      expect(textOf(answer.document.querySelector("main"))).toContain(
        "Ce que vous venez d'envoyer n'a pas été enregistré",
      );
      const signIn = [...answer.document.querySelectorAll("main a")].find(
        (link) => textOf(link) === "Se reconnecter",
      );
      expect(signIn?.getAttribute("href")).toBe("/admin/login");

      const again = answer.document.querySelector("main form");
      expect(again?.getAttribute("method")).toBe("post");
      expect(again?.getAttribute("action")).toBe("/admin/categories");
      expect(textOf(again?.querySelector("button"))).toBe("Envoyer à nouveau");
      const kept = [...(again?.querySelectorAll("input[type=hidden]") ?? [])].map((input) => [
        input.getAttribute("name"),
        input.getAttribute("value"),
      ]);
      expect(Object.fromEntries(kept)).toEqual(typed);
      const stored = await serverDatabase()
        .select()
        .from(blogCategories)
        .where(eq(blogCategories.slug, typed.slug));
      expect(stored).toEqual([]);

      // Signed in again, the same post does what the first one would have done.
      const fresh = cookieHeaderOf(await createSession(account));
      const resent = await postForm(
        again?.getAttribute("action") ?? "",
        new URLSearchParams(kept as [string, string][]),
        { cookie: fresh },
      );
      expect(resent.status).toBe(302);
      const created = await serverDatabase()
        .select()
        .from(blogCategories)
        .where(eq(blogCategories.slug, typed.slug));
      expect(created.map((row) => [row.name, row.description])).toEqual([
        [typed.name, typed.description],
      ]);
    } finally {
      await deleteAccount(account);
    }
  });

  it("answers a post made with JavaScript (the `.data` request) with the same page's data, and never writes a password back", async () => {
    const answer = await postForm(
      "/admin/securite.data",
      { intent: "password", currentPassword: "ancien-secret-123", newPassword: "x" },
      { headers: { Accept: "*/*" } },
    );
    expect(answer.status).toBe(401);
    expect(answer.html).toContain("session-expired");
    expect(answer.html).toContain("/admin/securite");
    expect(answer.html).not.toContain("ancien-secret-123");
  });

  it("a signed-in non-administrator's post gets the error page in French (decision 0133)", async () => {
    const member = await createAccount("user");
    try {
      const answer = await postForm(
        "/admin/categories",
        { intent: "create", name: `Intrus ${marker}`, slug: `intrus-${marker}` },
        { cookie: cookieHeaderOf(await createSession(member)) },
      );
      expect(answer.status).toBe(403);
      expect(textOf(answer.document.querySelector("h1"))).toBe("Une erreur est survenue");
      expect(textOf(answer.document.querySelector("main"))).toContain(
        "Vous n'avez pas l'autorisation d'accéder à cette page.",
      );
      expect(textOf(answer.document.querySelector("main"))).not.toMatch(
        /Unexpected|Forbidden|Internal Server Error/,
      );
    } finally {
      await deleteAccount(member);
    }
  });
});
