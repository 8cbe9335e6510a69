import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, deleteAccount, sessionCookieHeader, useAdmin } from "../support/accounts";
import { formOf, plainSpaces, typeInto } from "../support/admin-content";
import { flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

// Decision 0138: a booking the owner takes by phone. The e-mail is optional (then nothing goes to the
// client and the owner reads the client's link to give it), she chooses the photographer (who must be
// free: else why not), writes an internal note the client never sees, or books without any e-mail. And the
// history says who did what in words a person reads. Its own server: the photographers added here would
// take the bookings other files make, and its own mailbox.

const mail = useOwnServerWithMail();
const admin = useAdmin();

/** A Tuesday far ahead: the studios are open 9h–12h and 14h–18h. */
const DAY = "2031-03-04";
let limoges = "";
let brive = "";
let typeId = "";
let claire = "";
let marie = "";
let sophie = "";

const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });
const formPath = () =>
  `/admin/reservations/nouvelle?studio=${limoges}&seance=${typeId}&jour=${DAY}`;
const location = (answer: FetchedPage) => answer.headers.get("location") ?? "";
const idOf = (answer: FetchedPage) => location(answer).split("/").pop() ?? "";

/** The phone-booking form of the day, typed into as the owner would, and sent without JavaScript. */
async function book(changes: Record<string, string | boolean>, slot?: string) {
  const form = typeInto(formOf(await page(formPath()), "main form[method=post]"), changes);
  if (slot) form.querySelector(`input[name="slot"][value="${slot}"]`)?.setAttribute("checked", "");
  return pressButton(formPath(), form.querySelector("button[type=submit]") ?? undefined, {
    cookie: admin.cookie(),
  });
}

/** The e-mail jobs a booking queued (none sent is none queued: the outbox writes each from its job). */
async function mailJobsOf(bookingId: string): Promise<number> {
  const result = await serverDatabase().execute<{ count: number }>(
    sql`select count(*)::int as count from pgboss.job where name = 'mail' and data->>'bookingId' = ${bookingId}`,
  );
  return result.rows[0]?.count ?? 0;
}

beforeAll(async () => {
  const database = serverDatabase();
  const ids = await database.execute<{ id: string; slug: string }>(
    sql`select id, slug from studios where slug in ('limoges', 'brive')`,
  );
  limoges = ids.rows.find((row) => row.slug === "limoges")?.id ?? "";
  brive = ids.rows.find((row) => row.slug === "brive")?.id ?? "";
  // Three photographers of the file's own: Claire at Limoges, Marie at Limoges and Brive, Sophie at Brive.
  await database.execute(sql`update photographers set active = false`);
  const people = await database.execute<{ id: string; name: string }>(sql`
    insert into photographers (name, position) values ('Claire', 1), ('Marie', 2), ('Sophie', 3)
    returning id, name`);
  const person = (name: string) => people.rows.find((row) => row.name === name)?.id ?? "";
  [claire, marie, sophie] = [person("Claire"), person("Marie"), person("Sophie")];
  await database.execute(sql`
    insert into photographer_studios (photographer_id, studio_id)
    values (${claire}::uuid, ${limoges}::uuid), (${marie}::uuid, ${limoges}::uuid),
           (${marie}::uuid, ${brive}::uuid), (${sophie}::uuid, ${brive}::uuid)`);
  const types = await database.execute<{ id: string }>(sql`
    insert into session_types (slug, name, duration_minutes, minimum_notice_hours, step_minutes, horizon_days)
    values ('telephone-test', 'Portrait téléphone', 60, 0, 30, 30) returning id`);
  typeId = types.rows[0]?.id ?? "";
  await database.execute(sql`
    insert into session_type_studios (session_type_id, studio_id)
    values (${typeId}::uuid, ${limoges}::uuid), (${typeId}::uuid, ${brive}::uuid)`);
});

describe("a booking taken by phone", () => {
  it("marks the e-mail optional; without one nothing is sent and the owner reads the client's link", async () => {
    const form = await page(formPath());
    expect(textOf(form.document.querySelector('label[for="champ-email"]'))).toBe(
      "E-mail (facultatif)",
    );
    const saved = await book({ name: "Jeanne Sans-Mail", phone: "05 55 00 00 00" }, `${DAY}T09:00`);
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)?.description).toContain("Aucun e-mail n'est envoyé");
    const id = idOf(saved);
    expect(await mailJobsOf(id)).toBe(0);

    const detail = await page(location(saved));
    const text = plainSpaces(textOf(detail.document.querySelector("main")));
    expect(text).toContain("Aucune adresse");
    expect(text).toContain("donnez-le-lui par téléphone");
    expect(text).toContain("prise par téléphone, sans e-mail : rien n'est envoyé au client");
    const link = detail.document
      .querySelector('main a[href*="/reservation/"]')
      ?.getAttribute("href");
    expect(link).toMatch(/\/reservation\/[A-Za-z0-9_-]+$/);
    // The link opens the client's own page.
    const clientPath = new URL(link ?? "").pathname;
    const clientPage = await fetchPage(clientPath);
    expect(clientPage.status).toBe(200);
    expect(textOf(clientPage.document.querySelector("main"))).toContain("Portrait téléphone");
    // Cancelled from there, the page promises no e-mail: the studio is told.
    const cancelled = await postForm(clientPath, { intent: "cancel" });
    expect(cancelled.status).toBe(303);
    const told = await fetchPage(location(cancelled));
    expect(textOf(told.document.querySelector("main"))).toContain(
      "Votre séance est annulée. Le studio en est prévenu.",
    );
  });

  it("books silently with an address: the client gets no e-mail, another booking's does", async () => {
    const silent = await book(
      { name: "Paul Discret", email: "paul.discret@example.test", silent: true },
      `${DAY}T10:00`,
    );
    expect(silent.status).toBe(302);
    const silentId = idOf(silent);
    const told = await book(
      { name: "Anne Prévenue", email: "anne.prevenue@example.test" },
      `${DAY}T11:00`,
    );
    expect(told.status).toBe(302);
    await expect.poll(() => mail.mailsTo("anne.prevenue@example.test").length).toBe(1);
    expect(mail.mailsTo("paul.discret@example.test")).toEqual([]);
    expect(await mailJobsOf(silentId)).toBe(0);
    const detail = plainSpaces(
      textOf((await page(location(silent))).document.querySelector("main")),
    );
    expect(detail).toContain("paul.discret@example.test");
    expect(detail).toContain("Le site n'envoie aucun e-mail au client pour cette réservation.");
    expect(detail).toContain("prise par téléphone, sans e-mail au client");
    // Cancelling it, the owner is not promised an e-mail the site will not send.
    const cancelling = plainSpaces(
      textOf(
        (await page(`${location(silent)}?annuler`)).document.querySelector(
          "main form[aria-labelledby=confirmer]",
        ),
      ),
    );
    expect(cancelling).toContain(
      "Le créneau redevient libre. Le site n'envoie aucun e-mail au client pour cette réservation : prévenez-le vous-même.",
    );
    const toldCancelling = plainSpaces(
      textOf(
        (await page(`${location(told)}?annuler`)).document.querySelector(
          "main form[aria-labelledby=confirmer]",
        ),
      ),
    );
    expect(toldCancelling).toContain(
      "Le créneau redevient libre. Le client est prévenu par e-mail.",
    );
  });

  it("keeps an internal note for the owner: on the booking's page, never to the client", async () => {
    const note = "Cliente fidèle, offrir un tirage";
    const saved = await book(
      { name: "Inès Note", email: "ines.note@example.test", internalNote: note },
      `${DAY}T14:00`,
    );
    expect(saved.status).toBe(302);
    const detail = await page(location(saved));
    const noteField = () => detail.document.querySelector('textarea[name="internalNote"]');
    expect(noteField()?.textContent).toBe(note);
    expect(textOf(detail.document.querySelector('label[for="champ-internalNote"]'))).toBe(
      "Note interne",
    );
    await expect.poll(() => mail.mailsTo("ines.note@example.test").length).toBe(1);
    const [confirmation] = mail.mailsTo("ines.note@example.test");
    expect(confirmation?.text).not.toContain("tirage");
    expect(confirmation?.html).not.toContain("tirage");
    const link = detail.document
      .querySelector('main a[href*="/reservation/"]')
      ?.getAttribute("href");
    const clientPage = await fetchPage(new URL(link ?? "").pathname);
    expect(clientPage.html).not.toContain("tirage");

    // She rewrites it later on the booking's page; too long, it is refused with what she typed.
    const path = location(saved);
    const long = "y".repeat(2001);
    const refused = await postForm(
      path,
      { intent: "note", internalNote: long },
      { cookie: admin.cookie() },
    );
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.querySelector("main"))).toContain(
      "La note interne fait au plus 2 000 caractères.",
    );
    expect(refused.document.querySelector('textarea[name="internalNote"]')?.textContent).toBe(long);
    const rewritten = await postForm(
      path,
      { intent: "note", internalNote: "Rappeler la veille" },
      { cookie: admin.cookie() },
    );
    expect(flashedToast(rewritten.headers)?.title).toBe("Note enregistrée");
    const after = await page(path);
    expect(after.document.querySelector('textarea[name="internalNote"]')?.textContent).toBe(
      "Rappeler la veille",
    );
  });

  it("refuses bad input in French, keeping everything typed", async () => {
    const note = "x".repeat(2001);
    const refused = await postForm(
      formPath(),
      {
        studioId: limoges,
        sessionTypeId: typeId,
        slot: `${DAY}T15:00`,
        name: "",
        email: "pas-une-adresse",
        phone: "06 00 00 00 00",
        photographerId: marie,
        internalNote: note,
        silent: "on",
      },
      { cookie: admin.cookie() },
    );
    expect(refused.status).toBe(400);
    const text = textOf(refused.document.querySelector("main"));
    expect(text).toContain("Indiquez une adresse e-mail valide, ou laissez le champ vide.");
    expect(text).toContain("La note interne fait au plus 2 000 caractères.");
    expect(text).toContain("Veuillez indiquer votre nom.");
    const document = refused.document;
    expect(document.querySelector('[name="email"]')?.getAttribute("value")).toBe("pas-une-adresse");
    expect(document.querySelector('[name="internalNote"]')?.textContent).toBe(note);
    expect(document.querySelector('[name="silent"]')?.hasAttribute("checked")).toBe(true);
    expect(
      document.querySelector('[name="photographerId"] option[selected]')?.getAttribute("value"),
    ).toBe(marie);
    expect(
      document.querySelector(`input[name="slot"][value="${DAY}T15:00"]`)?.hasAttribute("checked"),
    ).toBe(true);
    const stored = await serverDatabase().execute(
      sql`select 1 from bookings where client_email = 'pas-une-adresse'`,
    );
    expect(stored.rows).toHaveLength(0);
  });
});

describe("the photographer of a phone booking", () => {
  const SECOND_DAY = "2031-03-11";
  const secondPath = `/admin/reservations/nouvelle?jour=${SECOND_DAY}`;
  const post = (fields: Record<string, string>, studioId = limoges) =>
    postForm(
      `${secondPath}&studio=${studioId}&seance=${typeId}`,
      {
        studioId,
        sessionTypeId: typeId,
        name: "Client Photographe",
        email: "",
        ...fields,
      },
      { cookie: admin.cookie() },
    );
  const photographerOf = async (bookingId: string) => {
    const rows = await serverDatabase().execute<{ photographer_id: string }>(
      sql`select photographer_id from bookings where id = ${bookingId}::uuid`,
    );
    return rows.rows[0]?.photographer_id;
  };

  it("lists the studio's photographers, the automatic choice first", async () => {
    const form = await page(formPath());
    const options = [...form.document.querySelectorAll('[name="photographerId"] option')].map(
      (option) => textOf(option),
    );
    expect(options).toEqual(["Choix automatique", "Claire", "Marie"]);
  });

  it("books the one chosen when she is free, and says why when she is not", async () => {
    // Marie, chosen at Brive where Sophie would have been the automatic choice.
    const first = await post({ slot: `${SECOND_DAY}T10:00`, photographerId: marie }, brive);
    expect(first.status).toBe(302);
    expect(await photographerOf(idOf(first))).toBe(marie);

    // At Limoges, the studio free, Marie is still at Brive.
    const busy = await post({ slot: `${SECOND_DAY}T10:30`, photographerId: marie });
    expect(busy.status).toBe(409);
    const text = plainSpaces(textOf(busy.document.querySelector("main")));
    expect(text).toContain("Marie n'est pas libre à cette heure");
    expect(text).toContain("Marie est au Studio de Brive de 10 h à 11 h");
    expect(
      busy.document.querySelector('[name="photographerId"] option[selected]')?.textContent,
    ).toBe("Marie");

    // Someone who does not photograph at this studio, or no one.
    const elsewhere = await post({ slot: `${SECOND_DAY}T10:30`, photographerId: sophie });
    expect(elsewhere.status).toBe(400);
    expect(textOf(elsewhere.document.querySelector("main"))).toContain(
      "Cette personne ne photographie pas dans ce studio",
    );
    const forged = await post({ slot: `${SECOND_DAY}T10:30`, photographerId: "pas-un-id" });
    expect(forged.status).toBe(400);

    const other = await post({ slot: `${SECOND_DAY}T10:30`, photographerId: claire });
    expect(other.status).toBe(302);
    expect(await photographerOf(idOf(other))).toBe(claire);
    // The automatic choice is online booking's (decision 0123): at Brive, Marie already there that day
    // rather than Sophie, who covers fewer studios.
    const automatic = await post({ slot: `${SECOND_DAY}T15:00`, photographerId: "" }, brive);
    expect(automatic.status).toBe(302);
    expect(await photographerOf(idOf(automatic))).toBe(marie);
  });
});

describe("a booking's history", () => {
  it("says « par vous » to the administrator who did it, and her address to another", async () => {
    const [request] = (
      await serverDatabase().execute<{ id: string }>(sql`
        insert into bookings (session_type_id, studio_id, photographer_id, starts_at, ends_at, state,
                              respond_by, client_name, client_email, consent_at, manage_token_hash)
        values (${typeId}::uuid, ${limoges}::uuid, ${claire}::uuid, '2031-03-18T09:00:00+01:00',
                '2031-03-18T10:00:00+01:00', 'pending', now() + interval '1 day', 'Demande Historique',
                'historique@example.test', now(), md5(random()::text) || md5(random()::text))
        returning id`)
    ).rows;
    const path = `/admin/reservations/${request?.id}`;
    const accepted = await postForm(path, { intent: "accept" }, { cookie: admin.cookie() });
    expect(flashedToast(accepted.headers)?.title).toBe("Demande acceptée");
    const mine = textOf((await page(path)).document.querySelector("main"));
    expect(mine).toContain("Demande acceptée par vous");

    const colleague = await createAccount();
    try {
      const theirs = await fetchPage(path, { cookie: await sessionCookieHeader(colleague) });
      expect(textOf(theirs.document.querySelector("main"))).toContain(
        `Demande acceptée par ${admin.account().email}`,
      );
    } finally {
      await deleteAccount(colleague);
    }
  });
});
