import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { backupRuns, blogArticles, contactMessages, users } from "../../app/server/db/schema";
import { issueInvoice } from "../../app/server/invoices/issue.server";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { useAdmin } from "../support/accounts";
import { cookieAfter } from "../support/auth";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { invoiceSellerForTests } from "../support/seller";
import { serverAuthSecret, serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * The backups as the server renders them (decision 0118): the dashboard's health, and
 * /admin/sauvegardes without JavaScript — a backup asked and shown, the signed download links (an altered,
 * another administrator's or an old link is refused in French), a check and its report, a restore refused
 * without its typed word (nothing asked, nothing changed), and the owner sent to the login page with the
 * reason when a restore ended her session. Its own server: a backup reads every table, and the runs show
 * on the dashboard.
 */

useOwnServer();
const admin = useAdmin();
const otherAdmin = useAdmin();
const inserted: string[] = [];
const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  if (inserted.length > 0) {
    await serverDatabase().delete(backupRuns).where(inArray(backupRuns.id, inserted));
  }
});

async function run(values: typeof backupRuns.$inferInsert) {
  const [row] = await serverDatabase().insert(backupRuns).values(values).returning();
  if (!row) throw new Error("run not inserted");
  inserted.push(row.id);
  return row;
}

const dashboard = async () =>
  (await fetchPage("/admin/dashboard", { cookie: admin.cookie() })).document;

const backupsPage = () => fetchPage("/admin/sauvegardes", { cookie: admin.cookie() });

/** Asks the page again until `ready` says what it shows is there (the job runs in the server). */
async function pageUntil(ready: (page: FetchedPage) => boolean): Promise<FetchedPage> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const page = await backupsPage();
    if (ready(page)) return page;
    if (Date.now() > deadline) throw new Error(`La page n'a pas montré l'attendu :\n${page.html}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const rows = (page: FetchedPage) => [
  ...page.document.querySelectorAll('section[aria-labelledby="liste-sauvegardes"] tbody tr'),
];

const downloadLinks = (page: FetchedPage) =>
  [...page.document.querySelectorAll("a")]
    .filter((link) => textOf(link).startsWith("Télécharger"))
    .map((link) => link.getAttribute("href") ?? "");

async function userId(email: string): Promise<string> {
  const [user] = await serverDatabase().select().from(users).where(eq(users.email, email));
  if (!user) throw new Error("no user");
  return user.id;
}

describe("the dashboard's backups", () => {
  it("are red with the reason after a failed night, calm again after a good one", async () => {
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await run({
      reason: "schedule",
      status: "failed",
      error: "plus de place sur le disque",
      startedAt: hourAgo,
      finishedAt: hourAgo,
    });
    const failed = (await dashboard()).querySelector('section[aria-label="Sauvegardes"]');
    expect(textOf(failed)).toContain("La dernière sauvegarde a échoué");
    expect(textOf(failed)).toContain(": plus de place sur le disque.");
    expect(textOf(failed)).toContain("Les administrateurs en ont reçu le détail par e-mail");

    // Failed in `npm run backup` (decision 0143): e-mailed to nobody, and the dashboard says so.
    const minutesAgo = new Date(Date.now() - 30 * 60 * 1000);
    await run({
      reason: "manual",
      origin: "command-line",
      status: "failed",
      error: "plus de place sur le disque",
      startedAt: minutesAgo,
      finishedAt: minutesAgo,
    });
    const fromCommandLine = (await dashboard()).querySelector('section[aria-label="Sauvegardes"]');
    expect(textOf(fromCommandLine)).toContain("lancée en ligne de commande");
    expect(textOf(fromCommandLine)).not.toContain("par e-mail");

    await run({
      reason: "manual",
      status: "done",
      file: "sauvegarde-2026-11-27-030000.tar",
      bytes: 13_002_342,
      finishedAt: new Date(),
    });
    const page = await dashboard();
    expect(page.querySelector('section[aria-label="Sauvegardes"]')).toBeNull();
    expect(textOf(page.body)).toMatch(/Dernière sauvegarde réussie : le .* \(12 Mo\)\./);
  });
});

describe("/admin/sauvegardes over HTTP", () => {
  it("sends a visitor to the login page", async () => {
    const page = await fetchPage("/admin/sauvegardes");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/admin/login");
  });

  it("says when, where and whether encrypted, and shows work under way as a progress bar that refreshes itself", async () => {
    const running = await run({
      reason: "schedule",
      status: "running",
      progress: { step: "tables", done: 3, total: 40 },
    });
    const page = await backupsPage();
    expect(page.status).toBe(200);
    const state = textOf(page.document.querySelector('[aria-labelledby="etat-sauvegardes"]'));
    expect(state).toContain("Chaque nuit vers 3 h");
    expect(state).toMatch(/sur ce serveur, dans le dossier .*backups\./);
    expect(state).toContain("Non : demandez à la personne qui héberge le site");
    const bar = page.document.querySelector(`progress#progression-${running.id}`);
    expect(bar?.getAttribute("value")).toBe("3");
    expect(bar?.getAttribute("max")).toBe("40");
    const underWay = page.document.querySelector('[aria-labelledby="en-cours"]');
    expect(textOf(underWay)).toContain("Base de données : 3 sur 40 tables");
    // Without JavaScript the page reloads itself; « Actualiser » does the same by hand.
    expect(underWay?.innerHTML).toMatch(/<noscript><meta http-equiv="refresh" content="3"/i);
    expect(textOf(underWay)).toContain("Actualiser");
    await serverDatabase().delete(backupRuns).where(eq(backupRuns.id, running.id));
  });

  it("« Sauvegarder maintenant » queues one backup, which then appears in the list", async () => {
    const before = rows(await backupsPage()).length;
    const asked = await postForm(
      "/admin/sauvegardes",
      { intent: "backup" },
      { cookie: admin.cookie() },
    );
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe("/admin/sauvegardes");
    // Recorded at once (waiting for the job queue, or already under way or done).
    const runs = await serverDatabase()
      .select()
      .from(backupRuns)
      .where(eq(backupRuns.requestedBy, admin.account().email.split("@")[0] ?? ""));
    expect(runs.filter((row) => row.kind === "backup")).toHaveLength(1);
    const page = await pageUntil((answer) => rows(answer).length > before);
    const row = rows(page)[0];
    expect(textOf(row)).toMatch(/(?:1er|\d{1,2}) \p{L}+ \d{4} à \d\d:\d\d/u);
    expect(textOf(row)).toMatch(/\d+(,\d)? (Ko|Mo)/);
    expect(textOf(row)).toContain("Pas encore vérifiée");
  });

  it("downloads a backup with its signed link and the session; an altered, borrowed or old link is refused in French", async () => {
    const page = await backupsPage();
    const [link] = downloadLinks(page);
    if (!link) throw new Error("no download link");
    const answer = await fetch(new URL(link, serverBaseUrl()), {
      headers: { Cookie: admin.cookie() },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="sauvegarde-[\d-]+\.tar"$/,
    );
    const archive = Buffer.from(await answer.arrayBuffer());
    expect(answer.headers.get("content-type")).toBe("application/x-tar");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    // Sent as it is, with its length (the browser shows how much is left), never gzipped again.
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(answer.headers.get("content-length")).toBe(String(archive.length));
    // A tar whose first entry is the backup's header.
    expect(archive.subarray(0, 15).toString("latin1")).toBe("sauvegarde.json");

    // Without the session, the link alone opens nothing.
    const signedOut = await fetchPage(link);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/admin/login");

    const altered = link.replace(
      /jeton=(.)/,
      (_, first: string) => `jeton=${first === "a" ? "b" : "a"}`,
    );
    const refused = await fetchPage(altered, { cookie: admin.cookie() });
    expect(refused.status).toBe(403);
    expect(textOf(refused.document.querySelector("h1"))).toBe(
      "Ce lien de téléchargement n'est pas valable",
    );

    const borrowed = await fetchPage(link, { cookie: otherAdmin.cookie() });
    expect(borrowed.status).toBe(403);

    const name = decodeURIComponent(link.split("/").at(-1)?.split("?")[0] ?? "");
    const old = signLinkTokenWith(
      serverAuthSecret(),
      "backup-download",
      `${await userId(admin.account().email)}/${name}`,
      { lifetimeSeconds: 600, now: Date.now() - 11 * 60 * 1000 },
    );
    const expired = await fetchPage(`/admin/sauvegardes/telecharger/${name}?jeton=${old}`, {
      cookie: admin.cookie(),
    });
    expect(expired.status).toBe(410);
    expect(textOf(expired.document.querySelector("h1"))).toBe("Ce lien de téléchargement a expiré");
    expect(textOf(expired.document.body)).toContain("Retour aux sauvegardes");
  });

  // Decision 0139: the latest backup's link e-mailed each month, signed for her and valid 7 days.
  it("the monthly e-mail is switched on and off on the page, at the administrator's own address", async () => {
    const section = (page: FetchedPage) =>
      page.document.querySelector('section[aria-labelledby="lien-mensuel"]');
    const box = (page: FetchedPage) =>
      section(page)?.querySelector<HTMLInputElement>('input[type="checkbox"][name="envoyer"]');
    const before = await backupsPage();
    expect(box(before)?.hasAttribute("checked")).toBe(false);
    expect(textOf(section(before))).toContain(
      "M'envoyer chaque mois un lien pour télécharger une sauvegarde",
    );
    expect(textOf(section(before))).toContain(`À l'adresse ${admin.account().email}.`);

    const on = await postForm(
      "/admin/sauvegardes",
      { intent: "monthly-link", envoyer: "on" },
      { cookie: admin.cookie() },
    );
    expect(on.status).toBe(302);
    const after = await backupsPage();
    expect(box(after)?.hasAttribute("checked")).toBe(true);
    expect(textOf(section(after))).toContain("Aucun e-mail envoyé pour l'instant");
    // Another administrator's setting is her own.
    const other = await fetchPage("/admin/sauvegardes", { cookie: otherAdmin.cookie() });
    expect(box(other)?.hasAttribute("checked")).toBe(false);

    await postForm("/admin/sauvegardes", { intent: "monthly-link" }, { cookie: admin.cookie() });
    expect(box(await backupsPage())?.hasAttribute("checked")).toBe(false);
  });

  it("the monthly link downloads the latest backup only signed in, with her valid link; others are refused in French", async () => {
    const ownerId = await userId(admin.account().email);
    const sign = (subject: string, now = Date.now()) =>
      signLinkTokenWith(serverAuthSecret(), "backup-monthly", subject, {
        lifetimeSeconds: 7 * 24 * 60 * 60,
        now,
      });
    const path = (token: string) => `/admin/sauvegardes/derniere?jeton=${token}`;
    const token = sign(ownerId);

    const answer = await fetch(new URL(path(token), serverBaseUrl()), {
      headers: { Cookie: admin.cookie() },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/x-tar");
    // The newest backup: the first of the page's list.
    const [newest] = downloadLinks(await backupsPage());
    const newestName = decodeURIComponent(newest?.split("/").at(-1)?.split("?")[0] ?? "");
    expect(newestName).toMatch(/^sauvegarde-[\d-]+\.tar$/);
    expect(answer.headers.get("content-disposition")).toBe(`attachment; filename="${newestName}"`);
    const archive = Buffer.from(await answer.arrayBuffer());
    expect(archive.subarray(0, 15).toString("latin1")).toBe("sauvegarde.json");

    // The link alone, signed out: asked to sign in, and nothing said about the link.
    const signedOut = await fetchPage(path(token));
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("content-type")).toContain("text/html");
    expect(textOf(signedOut.document.querySelector("h1"))).toBe(
      "Connectez-vous pour télécharger la sauvegarde",
    );
    // Signing in from there comes back to the link, which then downloads.
    const signIn = signedOut.document.querySelector("a")?.getAttribute("href") ?? "";
    expect(signIn).toBe(`/admin/login?retour=${encodeURIComponent(path(token))}`);
    const loginPage = await fetchPage(signIn);
    expect(loginPage.status).toBe(200);
    const form = loginPage.document.querySelector("form[method=post]");
    expect(form?.getAttribute("action")).toBe(signIn);
    const signedIn = await postForm(
      signIn,
      { email: admin.account().email, password: admin.account().password },
      {},
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(path(token));
    const session = cookieAfter(signedIn.headers);
    const afterSignIn = await fetch(new URL(path(token), serverBaseUrl()), {
      headers: { Cookie: session },
    });
    expect(afterSignIn.status).toBe(200);
    expect(afterSignIn.headers.get("content-type")).toBe("application/x-tar");
    await afterSignIn.arrayBuffer();
    // Only an address of this site's admin is followed.
    const elsewhere = await postForm(
      "/admin/login?retour=%2F%2Fexample.com%2Fadmin%2F",
      { email: admin.account().email, password: admin.account().password },
      {},
    );
    expect(elsewhere.headers.get("location")).toBe("/admin/dashboard");

    const forged = token.replace(/^(.)/, (first: string) => (first === "a" ? "b" : "a"));
    for (const refusedToken of [forged, sign(await userId(otherAdmin.account().email)), ""]) {
      const refused = await fetchPage(path(refusedToken), { cookie: admin.cookie() });
      expect(refused.status).toBe(403);
      expect(textOf(refused.document.querySelector("h1"))).toBe(
        "Ce lien de téléchargement n'est pas valable",
      );
    }
    // A page's ten-minute link is not a monthly one.
    const pageLink = signLinkTokenWith(serverAuthSecret(), "backup-download", ownerId, {
      lifetimeSeconds: 600,
    });
    expect((await fetchPage(path(pageLink), { cookie: admin.cookie() })).status).toBe(403);

    const expired = await fetchPage(path(sign(ownerId, Date.now() - 8 * 24 * 60 * 60 * 1000)), {
      cookie: admin.cookie(),
    });
    expect(expired.status).toBe(410);
    expect(textOf(expired.document.querySelector("h1"))).toBe("Ce lien de téléchargement a expiré");
    expect(textOf(expired.document.body)).toContain("ne sert que 7 jours");
  });

  it("« Vérifier cette sauvegarde » restores it apart and shows what it found", async () => {
    const name = backupNameOf(rows(await backupsPage())[0]);
    const asked = await postForm(
      "/admin/sauvegardes",
      { intent: "check", sauvegarde: name },
      { cookie: admin.cookie() },
    );
    expect(asked.status).toBe(302);
    const page = await pageUntil((answer) => textOf(rows(answer)[0]).includes("Vérifiée le"));
    const cell = textOf(rows(page)[0]);
    expect(cell).toContain("elle se restaure entièrement, sans problème");
    // The files counted are those uploaded from the admin (decision 0129): none on this server.
    expect(cell).toMatch(
      /\d+ tables \([\d  ]+ lignes\), (aucun fichier déposé|\d+ fichiers déposés) depuis l'administration/,
    );
    expect(cell).toMatch(/version de la base \d+/);

    const unknown = await postForm(
      "/admin/sauvegardes",
      { intent: "check", sauvegarde: "sauvegarde-2001-01-01-000000.tar" },
      { cookie: admin.cookie() },
    );
    expect(unknown.status).toBe(302);
    const queued = await serverDatabase()
      .select()
      .from(backupRuns)
      .where(eq(backupRuns.file, "sauvegarde-2001-01-01-000000.tar"));
    expect(queued).toEqual([]);
  });

  it("a restore without its typed word is refused with the reason, and nothing is asked nor changed", async () => {
    const title = `Article gardé ${marker}`;
    await serverDatabase()
      .insert(blogArticles)
      .values({ title, slug: `garde-${marker}`, excerpt: "", content: "<p>x</p>", author: "C" });
    const name = backupNameOf(rows(await backupsPage())[0]);
    // A message received since that backup: the confirmation says the restore erases it.
    await serverDatabase()
      .insert(contactMessages)
      .values({
        studio: "brive",
        shootingType: "famille",
        prenom: "Anne",
        nom: "Lefèvre",
        email: "anne@example.test",
        message: `Bonjour ${marker}`,
      });

    // An invoice issued since: the confirmation names it, the money a restore takes off (decision 0207).
    const invoice = await serverDatabase().transaction((tx) =>
      issueInvoice(tx, {
        kind: "sale",
        seller: invoiceSellerForTests,
        buyer: { name: "Anne Lefèvre", email: "anne@example.test", address: null },
        lines: [{ label: "Tirage 30 × 40", quantity: 1, unitPriceCents: 4_500, vatRate: null }],
        paymentTerms: "Payé au studio",
      }),
    );

    const confirmation = await fetchPage(`/admin/sauvegardes?restaurer=${name}`, {
      cookie: admin.cookie(),
    });
    expect(textOf(confirmation.document.querySelector("h1"))).toMatch(
      /^Restaurer la sauvegarde du /,
    );
    const said = textOf(confirmation.document.querySelector("main") ?? confirmation.document.body);
    expect(said).toContain("1 message reçu depuis disparaîtra.");
    expect(said).toContain(
      `1 facture ou avoir émis depuis (${invoice.number}) restera dans le site et dans les fichiers de votre comptable, même si sa commande disparaît.`,
    );
    const field = confirmation.document.querySelector('input[name="confirmation"]');
    expect(field).not.toBeNull();
    expect(textOf(confirmation.document.querySelector(`label[for="${field?.id}"]`))).toBe(
      "Pour confirmer, tapez RESTAURER",
    );

    for (const typed of ["", "restaure", "OUI"]) {
      const refused = await postForm(
        "/admin/sauvegardes",
        { intent: "restore", sauvegarde: name, confirmation: typed },
        { cookie: admin.cookie() },
      );
      expect(refused.status).toBe(400);
      expect(textOf(refused.document.querySelector('[id="champ-confirmation-erreur"]'))).toContain(
        "Tapez RESTAURER pour confirmer la restauration.",
      );
      // Still the confirmation of the same backup.
      expect(
        refused.document.querySelector('input[name="sauvegarde"]')?.getAttribute("value"),
      ).toBe(name);
    }
    const restores = await serverDatabase()
      .select()
      .from(backupRuns)
      .where(eq(backupRuns.kind, "restore"));
    expect(restores).toEqual([]);
    const [article] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.title, title));
    expect(article).toBeDefined();
  });

  it("sends the owner whose session the restore replaced to the login page, with the reason", async () => {
    const restored = await run({
      kind: "restore",
      reason: "manual",
      status: "done",
      file: "sauvegarde-2026-11-27-030000.tar",
      finishedAt: new Date(),
    });
    const gone = await fetchPage(`/admin/sauvegardes/restauration/${restored.id}`);
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/admin/login");
    const toast = gone.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("toast="))
      ?.split(";")[0];
    expect(toast).toBeDefined();
    const login = await fetchPage("/admin/login", { cookie: toast });
    expect(login.html).toContain("La sauvegarde a été restaurée");

    // Signed in, the same address shows the result.
    const shown = await fetchPage(`/admin/sauvegardes/restauration/${restored.id}`, {
      cookie: admin.cookie(),
    });
    expect(textOf(shown.document.querySelector('[role="status"] h2'))).toBe(
      "Restauration terminée",
    );
  });
});

/** The backup's file name of a row of the list (its « Vérifier » form says it). */
function backupNameOf(row: Element | undefined): string {
  const name = row?.querySelector('input[name="sauvegarde"]')?.getAttribute("value");
  if (!name) throw new Error("no backup in the list");
  return name;
}
