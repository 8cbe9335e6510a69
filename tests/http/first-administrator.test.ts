import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cookieAfter } from "../support/auth";
import { flashedToast } from "../support/admin-forms";
import { fetchPage, postForm, textOf } from "../support/html";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { closeServerDatabase, targetServer } from "../support/server-under-test";

/*
 * A new site's first ten minutes (decision 0110): started with no administrator, the server prints one
 * line with a link valid 24 hours; the link opens a French page that creates the first administrator once.
 * A server of this file's own: on the suite's, other files create administrators.
 */

let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess(inject("adminDatabaseUrl"));
  await targetServer(server);
}, 120_000);

afterAll(async () => {
  await closeServerDatabase();
  await server?.stop();
});

/** The link of the server's `first_administrator_link` line (a JSON log line), as a path. */
function printedLink(): string {
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.includes('"first_administrator_link"'));
  expect(lines, "one line with the link").toHaveLength(1);
  const { url, message } = JSON.parse(lines[0] ?? "{}") as { url: string; message: string };
  expect(message).toBe(
    "Aucun administrateur : ouvrez ce lien pour créer le premier (valable 24 h, une seule fois).",
  );
  expect(url.startsWith(`${server.baseUrl}/admin/premier-administrateur?jeton=`)).toBe(true);
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/** Posts the page's form through `link` with the token it carries. */
const createWith = (link: string, token: string, email: string, confirmation = "secret-123") =>
  postForm(link, { token, email, password: "secret-123", confirmation });

describe("the first administrator's link", () => {
  it("opens a page that creates the administrator once, keeping what was typed on a refusal", async () => {
    const link = printedLink();
    const token = new URL(link, server.baseUrl).searchParams.get("jeton") ?? "";
    const page = await fetchPage(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(textOf(page.document.querySelector("h1"))).toBe("Premier administrateur");
    expect(page.document.querySelector('input[name="token"]')?.getAttribute("value")).toBe(token);

    const refused = await createWith(link, token, "lea@example.com", "secret-124");
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.querySelector("#champ-confirmation-erreur"))).toBe(
      "Les deux mots de passe ne correspondent pas",
    );
    expect(refused.document.querySelector('input[name="email"]')?.getAttribute("value")).toBe(
      "lea@example.com",
    );

    const created = await createWith(link, token, "lea@example.com");
    expect(created.status).toBe(302);
    // Signed in at once (decision 0110): the answer carries her session, the dashboard opens with it.
    expect(created.headers.get("location")).toBe("/admin/dashboard");
    expect(flashedToast(created.headers)).toMatchObject({ title: "Administrateur créé" });
    const dashboard = await fetchPage("/admin/dashboard", { cookie: cookieAfter(created.headers) });
    expect(dashboard.status).toBe(200);
    expect(textOf(dashboard.document.querySelector("h1"))).toBe("Tableau de bord");
    const signedIn = await postForm("/admin/login", {
      email: "lea@example.com",
      password: "secret-123",
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");

    // Used: the same link, and posting it again, say so and create nobody.
    const used = await fetchPage(link);
    expect(used.status).toBe(410);
    expect(textOf(used.document.body)).toContain("Ce lien n'est plus valable");
    expect(textOf(used.document.body)).toContain("Le site a déjà un administrateur");
    const again = await createWith(link, token, "intrus@example.com");
    expect(again.status).toBe(410);
    // The login refuses the address no link created (401, as for any unknown account).
    expect(
      (await postForm("/admin/login", { email: "intrus@example.com", password: "secret-123" }))
        .status,
    ).toBe(401);
  });

  it("refuses a page opened without its token or with a forged one", async () => {
    for (const path of [
      "/admin/premier-administrateur",
      "/admin/premier-administrateur?jeton=abc.def",
    ]) {
      const page = await fetchPage(path);
      expect(page.status, path).toBe(410);
      expect(textOf(page.document.body)).toContain("Ce lien n'est plus valable");
    }
  });

  it("prints no link at the next start, once the site has an administrator", async () => {
    await server.kill("SIGTERM");
    const before = server.output().length;
    await server.restart();
    expect(server.output().slice(before)).not.toContain("first_administrator_link");
  });
});
