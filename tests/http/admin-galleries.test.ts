import { randomBytes } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { formatLongDateTimeFr } from "../../app/lib/dates";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { clientAccessHeader, submitButton } from "../support/client-galleries";
import { fetchPage, textOf, type FetchedPage } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * The owner's pages of the client galleries (decision 0103) as the server answers them, their forms posted as a
 * browser without JavaScript posts them: create (French errors, kept values), the list's states, the
 * settings (a new code voids the old one), the selection and its CSV, sending the link (read back from this
 * file's own SMTP capture) and the deletion, each confirmation answered on the page the server renders
 * open. The same pages with JavaScript (dialogs, toasts, axe) are in tests/e2e/admin-galleries.test.ts.
 */

const { url, mailsTo } = useOwnServerWithMail();
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const title = `Séance au lac ${marker}`;
const clientEmail = `cliente-${marker}@example.com`;

afterAll(async () => {
  await serverDatabase()
    .delete(galleries)
    .where(like(galleries.title, `%${marker}%`));
});

async function galleryRow() {
  const [row] = await serverDatabase().select().from(galleries).where(eq(galleries.title, title));
  if (!row) throw new Error("no gallery");
  return row;
}

/** The invitation e-mails queued for a gallery (sent or not). */
async function invitationJobs(galleryId: string): Promise<number> {
  const { rows } = await serverDatabase().execute<{ count: string }>(
    sql`select count(*) from pgboss.job where name = 'mail'
          and data->>'kind' = 'gallery-invitation' and data->>'galleryId' = ${galleryId}`,
  );
  return Number(rows[0]?.count);
}

const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });

/** The page a redirect leads to, with the toast its cookie carries (what the browser shows next). */
function followed(answer: FetchedPage): Promise<FetchedPage> {
  const toast = answer.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("toast="))
    ?.split(";")[0];
  return fetchPage(answer.headers.get("location") ?? "", {
    cookie: [admin.cookie(), toast].filter(Boolean).join("; "),
  });
}

const buttonNamed = (from: FetchedPage, name: RegExp) =>
  [...from.document.querySelectorAll("button")].find((button) => name.test(textOf(button)));

/** « Créer la galerie » pressed on the new gallery's form, for Léa Dupont's session with `changes` typed. */
const create = (form: FetchedPage, changes: Record<string, string>) =>
  submitButton(buttonNamed(form, /^Créer la galerie$/), "/admin/galeries/nouvelle", {
    cookie: admin.cookie(),
    changes: { title, clientName: "Léa Dupont", ...changes },
  });

/** The list's row of the gallery (its title heads the row). */
const rowOf = (list: FetchedPage) =>
  [...list.document.querySelectorAll("tbody tr")].find((row) =>
    textOf(row.querySelector("th")).includes(title),
  );

const shownCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

describe("/admin/galeries over HTTP", () => {
  it("lists no gallery at first, linked from the admin navigation", async () => {
    const list = await page("/admin/galeries");
    expect(list.status).toBe(200);
    expect(textOf(list.document.querySelector("h1"))).toBe("Galeries clients");
    expect(textOf(list.document.body)).toContain("Aucune galerie pour l'instant");
    const navigation = list.document.querySelector('nav[aria-label="Administration"]');
    const link = [...(navigation?.querySelectorAll("a") ?? [])].find(
      (element) => textOf(element) === "Galeries clients",
    );
    expect(link?.getAttribute("href")).toBe("/admin/galeries");
    const create = [...list.document.querySelectorAll("a")].find(
      (element) => textOf(element) === "Nouvelle galerie",
    );
    expect(create?.getAttribute("href")).toBe("/admin/galeries/nouvelle");
  });

  it("offers an expiry by default, deletion 30 days after it, downloads on; French errors keep what was typed", async () => {
    const form = await page("/admin/galeries/nouvelle");
    expect(textOf(form.document.querySelector("h1"))).toBe("Nouvelle galerie");
    const field = (from: FetchedPage, name: string) =>
      from.document.querySelector(`[name="${name}"]`);
    expect(field(form, "expiresOn")?.getAttribute("value")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(field(form, "purgeAfterDays")?.getAttribute("value")).toBe("30");
    expect(field(form, "downloadsAllowed")?.hasAttribute("checked")).toBe(true);

    const refused = await create(form, {
      clientEmail: "pas-une-adresse",
      expiresOn: "2020-01-01",
      purgeAfterDays: "400",
    });
    expect(refused.status).toBe(400);
    const text = textOf(refused.document.body);
    expect(text).toContain("La galerie n'est pas enregistrée : 3 champs sont à corriger.");
    expect(text).toContain("E-mail invalide");
    expect(text).toContain("La date d'expiration ne peut pas être passée");
    expect(text).toContain("Indiquez un nombre de jours entre 0 et 365");
    expect(field(refused, "title")?.getAttribute("value")).toBe(title);
    expect(field(refused, "clientName")?.getAttribute("value")).toBe("Léa Dupont");
    expect(field(refused, "clientEmail")?.getAttribute("value")).toBe("pas-une-adresse");
    expect(
      await serverDatabase().select().from(galleries).where(eq(galleries.title, title)),
    ).toEqual([]);
  });

  it("creates the gallery with a code of its own, leads to its photos page, and lists it as a draft", async () => {
    const form = await page("/admin/galeries/nouvelle");
    const ussel = [...form.document.querySelectorAll('select[name="studioId"] option')].find(
      (option) => textOf(option) === "Studio d'Ussel",
    );
    const inTwoMonths = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
    const created = await create(form, {
      clientEmail,
      expiresOn: inTwoMonths,
      purgeAfterDays: "15",
      studioId: ussel?.getAttribute("value") ?? "",
    });
    // The photos page (UPLOAD's) is the next step.
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toMatch(/^\/admin\/galeries\/[0-9a-f-]{36}$/);
    const row = await galleryRow();
    expect(created.headers.get("location")).toBe(`/admin/galeries/${row.id}`);
    expect(row).toMatchObject({ clientName: "Léa Dupont", clientEmail, downloadsAllowed: true });
    expect(row.accessCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(Math.round((row.purgeAt.getTime() - row.expiresAt.getTime()) / 86_400_000)).toBe(15);

    const line = textOf(rowOf(await page("/admin/galeries")));
    expect(line).toContain("Brouillon");
    expect(line).toContain("Studio d'Ussel");
    expect(line).toContain("0 / 0");
  });

  it("refuses a client name the invoice of her extra photos could not print, kept as typed", async () => {
    const message =
      "Ces caractères ne peuvent pas être imprimés sur la facture : 李 小 龍. Retirez-les ou remplacez-les.";
    const refused = await create(await page("/admin/galeries/nouvelle"), {
      clientName: "李小龍",
      clientEmail,
    });
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.body)).toContain(message);
    expect(refused.document.querySelector('[name="clientName"]')?.getAttribute("value")).toBe(
      "李小龍",
    );
    expect(
      await serverDatabase().select().from(galleries).where(eq(galleries.title, title)),
    ).toHaveLength(1);

    const path = `/admin/galeries/${(await galleryRow()).id}/reglages`;
    const unchanged = await submitButton(
      buttonNamed(await page(path), /^Enregistrer les réglages$/),
      path,
      { cookie: admin.cookie(), changes: { clientName: "李小龍" } },
    );
    expect(unchanged.status).toBe(400);
    expect(textOf(unchanged.document.body)).toContain(message);
    expect((await galleryRow()).clientName).toBe("Léa Dupont");

    // Its title names the photos on that invoice's lines.
    const titled = await submitButton(
      buttonNamed(await page(path), /^Enregistrer les réglages$/),
      path,
      { cookie: admin.cookie(), changes: { title: `${title} 💍` } },
    );
    expect(titled.status).toBe(400);
    expect(textOf(titled.document.body)).toContain(
      "Ces caractères ne peuvent pas être imprimés sur la facture : 💍. Retirez-les ou remplacez-les.",
    );
    expect(titled.document.querySelector('[name="title"]')?.getAttribute("value")).toBe(
      `${title} 💍`,
    );
    expect((await galleryRow()).title).toBe(title);
  });

  it("settings: shows the code, saves a change, and a new code, once confirmed, voids the old one", async () => {
    const before = await galleryRow();
    const path = `/admin/galeries/${before.id}/reglages`;
    const settings = await page(path);
    expect(textOf(settings.document.querySelector("h1"))).toBe(title);
    expect(textOf(settings.document.querySelector('[data-testid="code-acces"]'))).toBe(
      shownCode(before.accessCode),
    );

    const saved = await submitButton(buttonNamed(settings, /^Enregistrer les réglages$/), path, {
      cookie: admin.cookie(),
      changes: { clientName: "Léa Martin" },
    });
    expect(saved.status).toBe(302);
    expect(textOf((await followed(saved)).document.body)).toContain("Réglages enregistrés");
    expect((await galleryRow()).clientName).toBe("Léa Martin");

    // Without JavaScript the button loads the page with its question open.
    const asked = await page(`${path}?nouveau-code=${before.id}`);
    const dialog = asked.document.querySelector('[role="alertdialog"]');
    expect(textOf(dialog)).toContain("Générer un autre code ?");
    const answered = await submitButton(
      [...(dialog?.querySelectorAll("button") ?? [])].find((button) =>
        /Générer un autre code/.test(textOf(button)),
      ),
      `${path}?nouveau-code=${before.id}`,
      { cookie: admin.cookie() },
    );
    expect(answered.status).toBe(302);
    const after = await galleryRow();
    expect(after.accessCode).not.toBe(before.accessCode);
    expect(after.accessVersion).toBe(before.accessVersion + 1);
    const shown = await followed(answered);
    expect(textOf(shown.document.body)).toContain(`Nouveau code : ${shownCode(after.accessCode)}`);
    expect(textOf(shown.document.querySelector('[data-testid="code-acces"]'))).toBe(
      shownCode(after.accessCode),
    );
  });

  it("selection: the favourites with their comments, the names to copy, the CSV, and reopening once confirmed", async () => {
    const gallery = await galleryRow();
    await serverDatabase()
      .insert(galleryPhotos)
      .values(
        ["IMG_0012.jpg", "IMG_0033.jpg", "IMG_0040.jpg"].map((name, index) => ({
          galleryId: gallery.id,
          position: index,
          originalName: name,
          sourceExtension: "jpg",
          status: "ready" as const,
          favourite: index < 2,
          favouriteComment: index === 1 ? "En noir et blanc, s'il vous plaît" : null,
          favouritedAt: index < 2 ? new Date() : null,
        })),
      );
    await serverDatabase()
      .update(galleries)
      .set({ selectionValidatedAt: new Date() })
      .where(eq(galleries.id, gallery.id));
    expect(textOf(rowOf(await page("/admin/galeries")))).toContain("Sélection reçue");

    const path = `/admin/galeries/${gallery.id}/selection`;
    const selection = await page(path);
    const headings = [...selection.document.querySelectorAll("h2")].map((heading) =>
      textOf(heading),
    );
    expect(headings).toContain("2 photos choisies");
    const names = selection.document.querySelector("#noms-fichiers");
    expect(textOf(selection.document.querySelector('label[for="noms-fichiers"]'))).toMatch(
      /^Noms des fichiers choisis/,
    );
    expect(names?.textContent).toBe("IMG_0012.jpg, IMG_0033.jpg");
    expect(textOf(selection.document.body)).toContain("« En noir et blanc, s'il vous plaît »");

    const csv = await fetch(`${url()}/admin/galeries/${gallery.id}/selection.csv`, {
      headers: { cookie: admin.cookie() },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain('"IMG_0033.jpg";"En noir et blanc, s\'il vous plaît"');
    expect(text).not.toContain("IMG_0040.jpg");

    const asked = await page(`${path}?rouvrir=${gallery.id}`);
    const dialog = asked.document.querySelector('[role="alertdialog"]');
    expect(textOf(dialog)).toContain("Rouvrir la sélection ?");
    const answered = await submitButton(
      [...(dialog?.querySelectorAll("button") ?? [])].find((button) =>
        /Rouvrir la sélection/.test(textOf(button)),
      ),
      `${path}?rouvrir=${gallery.id}`,
      { cookie: admin.cookie() },
    );
    expect(answered.status).toBe(302);
    expect(textOf((await followed(answered)).document.body)).toContain("Sélection rouverte");
    expect((await galleryRow()).selectionValidatedAt).toBeNull();
  });

  it("sends the link once per form: the client's mail has the link and the code, the list says « Lien envoyé »", async () => {
    const gallery = await galleryRow();
    const path = `/admin/galeries/${gallery.id}/envoyer`;
    const code = shownCode(gallery.accessCode);
    const sending = await page(path);
    expect(sending.document.querySelector("#lien-galerie")?.getAttribute("value")).toContain(
      `/galerie-client/${gallery.id}`,
    );
    expect(sending.document.querySelector("#code-galerie")?.getAttribute("value")).toBe(code);
    expect(textOf(sending.document.body)).toContain(`Vos photos sont prêtes : ${title}`);

    expect(textOf(sending.document.body)).toContain("Le lien n'a pas encore été envoyé.");
    const send = buttonNamed(sending, /^Envoyer le lien au client$/);
    const sent = await submitButton(send, path, { cookie: admin.cookie() });
    expect(sent.status).toBe(302);
    // The page shown after the send says it went, when and to whom, whether the queue has delivered it
    // yet or not (it said « pas encore envoyé » until the mail server had accepted it).
    const shown = textOf((await followed(sent)).document.body);
    expect(shown).toContain("E-mail en route");
    expect(shown).not.toContain("pas encore été envoyé");
    const { invitationRequestedAt, invitationSentAt } = await galleryRow();
    expect(invitationRequestedAt).not.toBeNull();
    // Delivered already or not: the page tells the moment of the one or the other.
    const said = [invitationRequestedAt, invitationSentAt].map(
      (at) => at && `Lien envoyé le ${formatLongDateTimeFr(at)} à ${clientEmail}`,
    );
    expect(
      said.some((sentence) => sentence && shown.includes(sentence)),
      shown,
    ).toBe(true);
    expect(buttonNamed(await page(path), /^Envoyer de nouveau le lien au client$/)).toBeDefined();
    await expect.poll(() => mailsTo(clientEmail).length, { timeout: 20_000 }).toBe(1);
    // The same form posted again (a double click without JavaScript, a resent POST) queues nothing more.
    const again = await submitButton(send, path, { cookie: admin.cookie() });
    expect(again.status).toBe(302);
    expect(await invitationJobs(gallery.id)).toBe(1);
    const [mail] = mailsTo(clientEmail);
    expect(mail?.subject).toBe(`Vos photos sont prêtes : ${title}`);
    expect(mail?.text).toContain(`/galerie-client/${gallery.id}`);
    expect(mail?.text).toContain(code);
    expect(mail?.html).toContain(`/galerie-client/${gallery.id}`);
    // Answers go to the studio chosen (Ussel).
    expect(mail?.header("reply-to")).toContain("ussel@example.com");

    await expect
      .poll(async () => (await galleryRow()).invitationSentAt !== null, { timeout: 10_000 })
      .toBe(true);
    expect(textOf(rowOf(await page("/admin/galeries")))).toContain("Lien envoyé");
    const delivered = await galleryRow();
    expect(delivered.invitationSentTo).toBe(clientEmail);
    expect(textOf((await page(path)).document.body)).toContain(
      `Lien envoyé le ${formatLongDateTimeFr(delivered.invitationSentAt ?? new Date())} à ${clientEmail}.`,
    );

    // A deliberate second send, from the page shown after the first, leaves.
    const after = await page(path);
    const resend = await submitButton(
      buttonNamed(after, /^Envoyer de nouveau le lien au client$/),
      path,
      { cookie: admin.cookie() },
    );
    expect(resend.status).toBe(302);
    await expect.poll(() => mailsTo(clientEmail).length, { timeout: 20_000 }).toBe(2);
    expect(await invitationJobs(gallery.id)).toBe(2);
  });

  it("the client's validation sends her a receipt through the mail queue, and the dashboard shows « Sélection reçue »", async () => {
    const gallery = await galleryRow();
    const path = `/galerie-client/${gallery.id}`;
    const cookie = clientAccessHeader(gallery.id, gallery.accessVersion);
    const question = await fetchPage(`${path}?valider=1`, { cookie });
    const validated = await submitButton(
      buttonNamed(question, /^Oui, valider ma sélection$/),
      `${path}?valider=1`,
      { cookie },
    );
    expect(validated.status).toBe(200);

    const receiptSubject = `Votre sélection est bien arrivée : ${title}`;
    const receipts = () => mailsTo(clientEmail).filter((mail) => mail.subject === receiptSubject);
    await expect.poll(() => receipts().length, { timeout: 20_000 }).toBe(1);
    const [receipt] = receipts();
    expect(receipt?.text).toContain("Nous avons bien reçu votre sélection de 2 photos");
    expect(receipt?.text).toContain("- IMG_0033.jpg : En noir et blanc, s'il vous plaît");
    expect(receipt?.header("reply-to")).toContain("ussel@example.com");

    const dashboard = await page("/admin/dashboard");
    const mark = [...dashboard.document.querySelectorAll("li")].find((item) =>
      textOf(item).includes(title),
    );
    expect(textOf(mark)).toContain("Sélection reçue");
    expect(textOf(mark)).toContain(`${gallery.clientName} · 2 photos`);
    expect(mark?.querySelector("a")?.getAttribute("href")).toBe(
      `/admin/galeries/${gallery.id}/selection`,
    );
  });

  it("deletes the gallery once confirmed: gone from the list and the database; its address leads back to the list", async () => {
    const gallery = await galleryRow();
    const path = `/admin/galeries/${gallery.id}/reglages`;
    const asked = await page(`${path}?supprimer=${gallery.id}`);
    const dialog = asked.document.querySelector('[role="alertdialog"]');
    expect(textOf(dialog)).toContain("Supprimer définitivement cette galerie");
    const answered = await submitButton(
      [...(dialog?.querySelectorAll("button") ?? [])].find((button) =>
        /Supprimer la galerie/.test(textOf(button)),
      ),
      `${path}?supprimer=${gallery.id}`,
      { cookie: admin.cookie() },
    );
    expect(answered.status).toBe(302);
    expect(answered.headers.get("location")).toBe("/admin/galeries");
    const list = await followed(answered);
    expect(textOf(list.document.body)).toContain("Galerie supprimée");
    expect(rowOf(list)).toBeUndefined();
    expect(
      await serverDatabase().select().from(galleries).where(eq(galleries.id, gallery.id)),
    ).toEqual([]);
    expect(
      await serverDatabase()
        .select()
        .from(galleryPhotos)
        .where(eq(galleryPhotos.galleryId, gallery.id)),
    ).toEqual([]);

    const gone = await page(path);
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/admin/galeries");
    expect(textOf((await followed(gone)).document.body)).toContain("Galerie introuvable");
  });
});
