import { randomBytes } from "node:crypto";
import { eq, inArray, like } from "drizzle-orm";
import * as nodeIcal from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blockedPeriods,
  bookingCalendarFeeds,
  bookingExternalCalendars,
  bookings,
  contentRevisions,
  photographers,
  sessionTypes,
  studios,
  travelTimes,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { formOf, intentButton, typeInto } from "../support/admin-content";
import { flashedToast, pressButton } from "../support/admin-forms";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * The owner's booking pages as the server answers them with JavaScript off (decision 0116): session
 * types (validation, questions' list, revisions, private link), photographers and travel times, the
 * calendar feed, the agenda (phone booking, a slot taken, move, cancel, request accepted, time blocked),
 * the CSV export and the dashboard.
 */

const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const database = () => serverDatabase();
const adminPage = (path: string) => fetchPage(path, { cookie: admin.cookie() });
const post = (path: string, fields: Record<string, string>) =>
  postForm(path, fields, { cookie: admin.cookie() });

/** A Tuesday far ahead, different for each run: the studios are open 9h–12h and 14h–18h. */
const DAY = new Date(Date.UTC(2032, 0, 6) + Math.floor(Math.random() * 200) * 7 * 86_400_000)
  .toISOString()
  .slice(0, 10);
let limoges = "";
let brive = "";
let ussel = "";
const created: string[] = [];
const location = (page: FetchedPage) => page.headers.get("location") ?? "";

beforeAll(async () => {
  const rows = await database().select({ id: studios.id, slug: studios.slug }).from(studios);
  const idOf = (slug: string) => rows.find((row) => row.slug === slug)?.id ?? "";
  [limoges, brive, ussel] = [idOf("limoges"), idOf("brive"), idOf("ussel")];
});

afterAll(async () => {
  const types = await database()
    .select({ id: sessionTypes.id })
    .from(sessionTypes)
    .where(like(sessionTypes.name, `%${marker}%`));
  const ids = types.map((type) => type.id);
  if (ids.length > 0) {
    await database().delete(bookings).where(inArray(bookings.sessionTypeId, ids));
    await database().delete(sessionTypes).where(inArray(sessionTypes.id, ids));
    await database()
      .delete(contentRevisions)
      .where(
        inArray(
          contentRevisions.subject,
          ids.map((id) => `session-type:${id}`),
        ),
      );
  }
  await database()
    .delete(blockedPeriods)
    .where(like(blockedPeriods.label, `%${marker}%`));
  await database()
    .delete(photographers)
    .where(like(photographers.name, `%${marker}%`));
  await database().delete(bookingCalendarFeeds);
});

/** A new session type's form, valid, offered at Limoges only. */
async function newTypeForm(name: string, changes: Record<string, string | boolean> = {}) {
  const page = await adminPage("/admin/reservations/seances/nouvelle");
  expect(page.status).toBe(200);
  return typeInto(formOf(page, "main form[method=post]"), {
    name,
    [`studio-${limoges}`]: true,
    [`studio-${brive}`]: false,
    [`studio-${ussel}`]: false,
    minimumNoticeHours: "0",
    horizonDays: "730",
    ...changes,
  });
}

describe("/admin/reservations/seances", () => {
  it("refuses a wrong form with French messages, keeping everything typed", async () => {
    const form = await newTypeForm(`Séance ${marker}`, {
      durationMinutes: "une heure",
      [`studio-${limoges}`]: false,
      description: "Un portrait en studio",
      "hours-Monday": "25h-26h",
    });
    const answer = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(form, "save"),
      {
        cookie: admin.cookie(),
      },
    );
    expect(answer.status).toBe(400);
    const text = textOf(answer.document.querySelector("main"));
    expect(text).toContain("La séance n'est pas enregistrée : 3 champs sont à corriger.");
    expect(text).toContain("Durée : Un nombre entier, sans virgule");
    expect(text).toContain("Studios : Cochez au moins un studio");
    expect(text).toContain("Lundi : « 25h » n'est pas une heure : 25h n'existe pas");
    expect(answer.document.querySelector('[name="description"]')?.textContent).toBe(
      "Un portrait en studio",
    );
    expect(answer.document.querySelector('[name="name"]')?.getAttribute("value")).toBe(
      `Séance ${marker}`,
    );
  });

  it("refuses a name its invoices could not print, keeping what was typed", async () => {
    const name = `Séance ${marker} ✨`;
    const answer = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(await newTypeForm(name), "save"),
      { cookie: admin.cookie() },
    );
    expect(answer.status).toBe(400);
    expect(textOf(answer.document.querySelector("main"))).toContain(
      "Ces caractères ne peuvent pas être imprimés sur la facture : ✨. Retirez-les ou remplacez-les.",
    );
    expect(answer.document.querySelector('[name="name"]')?.getAttribute("value")).toBe(name);
    expect(await database().select().from(sessionTypes).where(eq(sessionTypes.name, name))).toEqual(
      [],
    );
  });

  it("adds a question row without saving, then creates the type with a version in its history", async () => {
    const form = await newTypeForm(`Séance famille ${marker}`);
    const more = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(form, "add-question"),
      { cookie: admin.cookie() },
    );
    expect(more.status).toBe(200);
    const withQuestion = typeInto(formOf(more, "main form[method=post]"), {
      "question-0-label": "Combien d'enfants ?",
      "question-0-kind": "choice",
      "question-0-options": "1\n2\n3 ou plus",
      "question-0-required": true,
    });
    expect(textOf(more.document.querySelector("main"))).toContain("Question 1");
    const saved = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(withQuestion, "save"),
      { cookie: admin.cookie() },
    );
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)?.title).toBe("Séance créée");
    const id = location(saved).split("/").pop() ?? "";
    created.push(id);
    const [type] = await database().select().from(sessionTypes).where(eq(sessionTypes.id, id));
    expect(type?.questions).toEqual([
      {
        id: "combien-d-enfants",
        kind: "choice",
        label: "Combien d'enfants ?",
        required: true,
        options: ["1", "2", "3 ou plus"],
      },
    ]);
    const page = await adminPage(location(saved));
    expect(textOf(page.document.querySelector("h1"))).toBe(`Séance famille ${marker}`);
    expect(textOf(page.document.querySelector("main"))).toContain("Historique de la séance");
    expect(page.html).toContain(`Séance famille ${marker} créée`);

    const list = await adminPage("/admin/reservations/seances");
    expect(textOf(list.document.querySelector("main"))).toContain(`Séance famille ${marker}`);
  });

  it("shows a private type's link, and restores an earlier version", async () => {
    const form = await newTypeForm(`Séance privée ${marker}`, { visibility: "private" });
    const saved = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(form, "save"),
      {
        cookie: admin.cookie(),
      },
    );
    const path = location(saved);
    const id = path.split("/").pop() ?? "";
    const page = await adminPage(path);
    const link = page.document.querySelector("#lien-prive-0")?.getAttribute("value") ?? "";
    const [type] = await database().select().from(sessionTypes).where(eq(sessionTypes.id, id));
    expect(link).toMatch(
      new RegExp(`^https?://[^/]+/reserver/limoges/${type?.slug}\\?lien=${type?.privateToken}$`),
    );

    const edited = typeInto(formOf(page, "main form[method=post][novalidate]"), {
      durationMinutes: "120",
    });
    const second = await pressButton(path, intentButton(edited, "save"), {
      cookie: admin.cookie(),
    });
    expect(second.status).toBe(302);
    const revisions = await database()
      .select({ id: contentRevisions.id, createdAt: contentRevisions.createdAt })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, `session-type:${id}`))
      .orderBy(contentRevisions.createdAt);
    expect(revisions).toHaveLength(2);
    const restored = await post(path, { intent: "restore", revision: revisions[0]?.id ?? "" });
    expect(flashedToast(restored.headers)?.title).toBe("Version restaurée");
    const [after] = await database().select().from(sessionTypes).where(eq(sessionTypes.id, id));
    expect(after?.durationMinutes).toBe(60);
    expect(after?.privateToken).toBe(type?.privateToken);
  });
  it("previews an unsaved version, and an earlier one, on the studio's booking page: the owner only", async () => {
    const form = await newTypeForm(`Séance aperçu ${marker}`, {
      description: "Portrait en lumière naturelle",
    });
    const saved = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(form, "save"),
      { cookie: admin.cookie() },
    );
    const path = location(saved);
    const id = path.split("/").pop() ?? "";
    created.push(id);
    const page = await adminPage(path);
    const photo = page.document.querySelector('[name="photoId"] option[value]:not([value=""])');
    const edited = typeInto(formOf(page, "main form[method=post][novalidate]"), {
      name: `Séance aperçu modifiée ${marker}`,
      visibility: "private",
      photoId: photo?.getAttribute("value") ?? "",
    });
    const previewed = await pressButton(path, intentButton(edited, "preview"), {
      cookie: admin.cookie(),
    });
    expect(previewed.status).toBe(302);
    const previewPath = location(previewed);
    expect(previewPath).toMatch(/^\/reserver\/limoges\?apercu=[0-9a-f-]{36}$/);

    const previewPage = await adminPage(previewPath);
    // The type's photo on its card (decorative: its name says what it is).
    expect(previewPage.document.querySelector("main li picture img")?.getAttribute("alt")).toBe("");
    const seen = textOf(previewPage.document.querySelector("body"));
    expect(seen).toContain(`Séance aperçu modifiée ${marker}`);
    expect(seen).toContain("Aperçu de cette séance (réservable par lien privé uniquement)");
    expect(seen).toContain(
      "Aperçu : modifications non enregistrées, visibles par vous uniquement.",
    );
    expect(seen).not.toContain(`Séance aperçu ${marker}Portrait`);
    const [stored] = await database().select().from(sessionTypes).where(eq(sessionTypes.id, id));
    expect(stored?.name).toBe(`Séance aperçu ${marker}`);
    // A visitor with the same address gets the page as it is (or no page, booking being off there).
    const visitor = await fetchPage(previewPath);
    expect(textOf(visitor.document.querySelector("body"))).not.toContain("modifiée");

    // Saved, the first version is seen from the history on the same page as it was.
    await pressButton(path, intentButton(edited, "save"), { cookie: admin.cookie() });
    const [first] = await database()
      .select({ id: contentRevisions.id })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, `session-type:${id}`))
      .orderBy(contentRevisions.createdAt)
      .limit(1);
    const history = await adminPage(`${path}?version=${first?.id}`);
    const link = [...history.document.querySelectorAll("main a")].find((anchor) =>
      textOf(anchor).startsWith("Voir la page Réserver du Studio de Limoges avec cette version"),
    );
    expect(link?.getAttribute("href")).toBe(`/reserver/limoges?apercu=${first?.id}`);
    const earlier = textOf(
      (await adminPage(link?.getAttribute("href") ?? "")).document.querySelector("main"),
    );
    expect(earlier).toContain(`Séance aperçu ${marker}`);
    expect(earlier).toContain("Portrait en lumière naturelle");
    expect(earlier).not.toContain("modifiée");
  });
});

describe("/admin/reservations/reglages", () => {
  it("saves travel times as the owner writes them, and refuses what is not a duration", async () => {
    const page = await adminPage("/admin/reservations/reglages");
    expect(page.status).toBe(200);
    const form = page.document.querySelector('button[value="save-travel"]')?.closest("form");
    const field = [...(form?.querySelectorAll("input") ?? [])].find((input) =>
      (input.getAttribute("name") ?? "").startsWith("travel-"),
    );
    const name = field?.getAttribute("name") ?? "";
    expect(textOf(form)).toMatch(/Ussel – Brive/);
    const bad = await pressButton(
      "/admin/reservations/reglages",
      intentButton(typeInto(form as Element, { [name]: "longtemps" }), "save-travel"),
      { cookie: admin.cookie() },
    );
    expect(bad.status).toBe(400);
    expect(textOf(bad.document.querySelector("main"))).toContain(
      "« longtemps » n'est pas une durée (exemple : 1 h 15 ou 75)",
    );
    const before = await database().select().from(travelTimes);
    const good = await pressButton(
      "/admin/reservations/reglages",
      intentButton(typeInto(form as Element, { [name]: "1 h 20" }), "save-travel"),
      { cookie: admin.cookie() },
    );
    expect(good.status).toBe(302);
    const again = await adminPage("/admin/reservations/reglages");
    expect(again.document.querySelector(`[name="${name}"]`)?.getAttribute("value")).toBe("1 h 20");
    // Put the figure back: other files compute slots with it.
    const [, a, b] = /^travel-(.{36})-(.{36})$/.exec(name) ?? [];
    const previous = before.find(
      (row) => (row.studioA === a && row.studioB === b) || (row.studioA === b && row.studioB === a),
    );
    if (previous) {
      await database()
        .update(travelTimes)
        .set({ minutes: previous.minutes })
        .where(eq(travelTimes.studioA, previous.studioA));
    }
  });

  it("adds a photographer, and takes her own calendar's address", async () => {
    const answer = await post("/admin/reservations/reglages", {
      intent: "add-photographer",
      name: `Marie ${marker}`,
      [`studio-${limoges}`]: "on",
    });
    expect(flashedToast(answer.headers)?.title).toBe("Photographe ajoutée");
    const empty = await post("/admin/reservations/reglages", {
      intent: "add-photographer",
      name: "",
    });
    expect(empty.status).toBe(400);
    expect(textOf(empty.document.querySelector("main"))).toContain("Indiquez un nom");
    const [marie] = await database()
      .select({ id: photographers.id })
      .from(photographers)
      .where(eq(photographers.name, `Marie ${marker}`));
    const save = (calendarUrl: string) =>
      // Unticked « Prend de nouvelles réservations »: not a photographer of the bookings below.
      post("/admin/reservations/reglages", {
        intent: "save-photographer",
        id: marie?.id ?? "",
        name: `Marie ${marker}`,
        [`studio-${limoges}`]: "on",
        calendarUrl,
      });
    const wrong = await save("file:///etc/passwd");
    expect(wrong.status).toBe(400);
    expect(textOf(wrong.document.querySelector("main"))).toContain(
      "Une adresse complète commençant par https:// ou webcal://",
    );
    const marieForm = wrong.document.querySelector(`form[aria-label="Marie ${marker}"]`);
    expect(marieForm?.querySelector('[name="calendarUrl"]')?.getAttribute("value")).toBe(
      "file:///etc/passwd",
    );
    expect((await save("webcal://127.0.0.1:9/agenda.ics")).status).toBe(302);
    const [calendar] = await database()
      .select()
      .from(bookingExternalCalendars)
      .where(eq(bookingExternalCalendars.photographerId, marie?.id ?? ""));
    expect(calendar?.url).toBe("https://127.0.0.1:9/agenda.ics");
    const [stored] = await database()
      .select({ active: photographers.active })
      .from(photographers)
      .where(eq(photographers.id, marie?.id ?? ""));
    expect(stored?.active).toBe(false);
  });

  it("orders the photographers, and deletes one added by mistake but never one with bookings", async () => {
    await post("/admin/reservations/reglages", {
      intent: "add-photographer",
      name: `Jeanne ${marker}`,
      [`studio-${brive}`]: "on",
    });
    const order = async () =>
      (
        await database()
          .select({ id: photographers.id, name: photographers.name })
          .from(photographers)
          .orderBy(photographers.position, photographers.createdAt)
      ).map((row) => row.name);
    const jeanne = (
      await database()
        .select({ id: photographers.id })
        .from(photographers)
        .where(eq(photographers.name, `Jeanne ${marker}`))
    )[0]?.id;
    const before = await order();
    expect(before.at(-1)).toBe(`Jeanne ${marker}`);
    const up = await post("/admin/reservations/reglages", { intent: "up", id: jeanne ?? "" });
    expect(flashedToast(up.headers)?.title).toBe("Ordre des photographes enregistré");
    expect((await order()).at(-2)).toBe(`Jeanne ${marker}`);
    const last = await post("/admin/reservations/reglages", {
      intent: "down",
      id:
        (
          await database()
            .select({ id: photographers.id })
            .from(photographers)
            .orderBy(photographers.position, photographers.createdAt)
        ).at(-1)?.id ?? "",
    });
    expect(flashedToast(last.headers)?.title).toBe("Cette photographe ne peut pas aller plus loin");

    // The page asks before deleting, without JavaScript too.
    const page = await adminPage(`/admin/reservations/reglages?supprimer-photographe=${jeanne}`);
    expect(textOf(page.document.querySelector('[role="alertdialog"]'))).toContain(
      "Supprimer cette photographe ?",
    );
    const deleted = await post("/admin/reservations/reglages", {
      intent: "delete-photographer",
      id: jeanne ?? "",
    });
    expect(flashedToast(deleted.headers)?.title).toBe("Photographe supprimée");
    expect(await order()).not.toContain(`Jeanne ${marker}`);

    // One with a booking stays (its history names her).
    await post("/admin/reservations/reglages", {
      intent: "add-photographer",
      name: `Lise ${marker}`,
      [`studio-${brive}`]: "on",
    });
    const [lise] = await database()
      .select({ id: photographers.id })
      .from(photographers)
      .where(eq(photographers.name, `Lise ${marker}`));
    const [type] = await database()
      .insert(sessionTypes)
      .values({ name: `Séance Lise ${marker}`, slug: `lise-${marker}`, durationMinutes: 60 })
      .returning({ id: sessionTypes.id });
    await database()
      .insert(bookings)
      .values({
        sessionTypeId: type?.id ?? "",
        studioId: brive,
        photographerId: lise?.id ?? "",
        startsAt: new Date(`${DAY}T07:00:00Z`),
        endsAt: new Date(`${DAY}T08:00:00Z`),
        state: "done",
        clientName: "Client de Lise",
        clientEmail: "lise@example.test",
        manageTokenHash: randomBytes(32).toString("hex"),
      });
    const refused = await post("/admin/reservations/reglages", {
      intent: "delete-photographer",
      id: lise?.id ?? "",
    });
    expect(flashedToast(refused.headers)?.title).toBe("Cette photographe a des réservations");
    expect(await order()).toContain(`Lise ${marker}`);
    // Gone again: the other files' bookings at Brive must not find a second photographer there.
    await database()
      .delete(bookings)
      .where(eq(bookings.photographerId, lise?.id ?? ""));
    await database()
      .delete(photographers)
      .where(eq(photographers.id, lise?.id ?? ""));
  });
});

describe("/admin/reservations: the agenda", () => {
  let typeId = "";
  let bookingPath = "";

  beforeAll(async () => {
    const form = await newTypeForm(`Séance agenda ${marker}`);
    const saved = await pressButton(
      "/admin/reservations/seances/nouvelle",
      intentButton(form, "save"),
      {
        cookie: admin.cookie(),
      },
    );
    typeId = location(saved).split("/").pop() ?? "";
  });

  // Where the page's form posts: its own address, with the studio, the type and the day chosen.
  const phoneBooking = (slot: string, name: string) =>
    post(`/admin/reservations/nouvelle?studio=${limoges}&seance=${typeId}&jour=${DAY}`, {
      studioId: limoges,
      sessionTypeId: typeId,
      slot,
      name,
      email: "client@example.test",
      phone: "06 00 00 00 00",
    });

  it("adds a booking taken by phone from the free times of the chosen day", async () => {
    // The type (Limoges only) asked for at another studio: the page says where it is offered.
    const elsewhere = await adminPage(
      `/admin/reservations/nouvelle?studio=${brive}&seance=${typeId}&jour=${DAY}`,
    );
    const alert = elsewhere.document.querySelector("[role=alert]");
    expect(textOf(alert)).toContain("Cette séance n'est pas proposée dans ce studio");
    expect(alert?.querySelector("a")?.getAttribute("href")).toBe(
      `/admin/reservations/nouvelle?studio=${limoges}&seance=${typeId}&jour=${DAY}`,
    );
    // Asked without a studio, it opens at the studio offering it.
    const withoutStudio = await adminPage(
      `/admin/reservations/nouvelle?seance=${typeId}&jour=${DAY}`,
    );
    expect(
      withoutStudio.document
        .querySelector('select[name="studio"] option[selected]')
        ?.getAttribute("value"),
    ).toBe(limoges);

    const page = await adminPage(
      `/admin/reservations/nouvelle?studio=${limoges}&seance=${typeId}&jour=${DAY}`,
    );
    expect(page.status).toBe(200);
    const slots = [...page.document.querySelectorAll('input[name="slot"]')].map((input) =>
      input.getAttribute("value"),
    );
    expect(slots).toContain(`${DAY}T10:00`);
    const form = typeInto(formOf(page, "main form[method=post]"), {
      name: `Léa ${marker}`,
      email: "lea@example.test",
    });
    form.querySelector(`input[value="${DAY}T10:00"]`)?.setAttribute("checked", "");
    // Without JavaScript the form posts to the page's own address, the choices of step 1 included.
    expect(form.getAttribute("action")).toContain(`seance=${typeId}`);
    const saved = await pressButton(
      "/admin/reservations/nouvelle",
      form.querySelector("button[type=submit]") ?? undefined,
      {
        cookie: admin.cookie(),
      },
    );
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)?.title).toBe("Réservation ajoutée");
    bookingPath = location(saved);
    const detail = await adminPage(bookingPath);
    const text = textOf(detail.document.querySelector("main"));
    expect(text).toContain(`Léa ${marker}`);
    expect(text).toContain("Confirmée");
    expect(text).toMatch(/Réservée par .* \(prise par téléphone\)/);

    const week = await adminPage(`/admin/reservations?vue=semaine&date=${DAY}`);
    expect(textOf(week.document.querySelector("main"))).toContain(`Léa ${marker}`);
    // « Maintenant » marks today only, among its bookings (decision 0125).
    expect(week.document.getElementById("maintenant")).toBeNull();
    const today = await adminPage("/admin/reservations?vue=jour");
    expect(textOf(today.document.getElementById("maintenant"))).toMatch(
      /^Maintenant · \d{1,2} h( \d\d)?$/,
    );
    // The week grid (decision 0125): a colour per studio, named in a legend and in each booking; each
    // hour of a day a link to add a booking there.
    const legend = week.document.querySelector('ul[aria-label="Couleurs des studios"]');
    expect(textOf(legend)).toContain("Studio de Limoges");
    const block = [...week.document.querySelectorAll('a[href^="/admin/reservations/"]')].find(
      (link) => textOf(link).includes(`Léa ${marker}`) && link.closest("li.absolute"),
    );
    expect(textOf(block)).toMatch(/^Studio de Limoges 10 h/);
    const addAt = week.document.querySelector(
      `a[href="/admin/reservations/nouvelle?jour=${DAY}&heure=11%3A00"]`,
    );
    expect(addAt?.getAttribute("aria-label")).toMatch(/^Réserver le .* à 11\u00A0h$/);
    // The form opens on that hour: the free time chosen, or typed as another time.
    const prefilled = await adminPage(
      `/admin/reservations/nouvelle?studio=${limoges}&seance=${typeId}&jour=${DAY}&heure=11:00`,
    );
    expect(
      prefilled.document
        .querySelector(`input[name="slot"][value="${DAY}T11:00"]`)
        ?.hasAttribute("checked"),
    ).toBe(true);
    const taken = await adminPage(
      `/admin/reservations/nouvelle?studio=${limoges}&seance=${typeId}&jour=${DAY}&heure=10:00`,
    );
    expect(taken.document.querySelector('input[name="slotTime"]')?.getAttribute("value")).toBe(
      `${DAY}T10:00`,
    );
    const list = await adminPage(`/admin/reservations?vue=liste&date=${DAY}`);
    expect(textOf(list.document.querySelector("main"))).toContain(`Léa ${marker}`);
  });

  it("answers a taken slot in French with a 409, keeping what was typed", async () => {
    const taken = await phoneBooking(`${DAY}T10:00`, `Paul ${marker}`);
    expect(taken.status).toBe(409);
    expect(textOf(taken.document.querySelector("main"))).toContain(
      "Ce créneau vient d'être réservé.",
    );
    expect(taken.document.querySelector('[name="name"]')?.getAttribute("value")).toBe(
      `Paul ${marker}`,
    );
    const gap = await phoneBooking(`${DAY}T25:00`, `Paul ${marker}`);
    expect(gap.status).toBe(400);
    expect(textOf(gap.document.querySelector("main"))).toContain(
      "Cette date ou cette heure n'existe pas.",
    );
  });

  it("moves a booking to a free time, and cancels it with a message after a confirmation", async () => {
    const moving = await adminPage(`${bookingPath}?deplacer=1&jour=${DAY}`);
    const times = [...moving.document.querySelectorAll('input[name="slot"]')].map((input) =>
      input.getAttribute("value"),
    );
    // Its own time is free for itself.
    expect(times).toContain(`${DAY}T10:00`);
    const moved = await post(bookingPath, {
      intent: "move",
      slot: `${DAY}T15:00`,
      studioId: limoges,
    });
    expect(moved.status).toBe(302);
    expect(flashedToast(moved.headers)?.title).toBe("Réservation déplacée");
    const [row] = await database()
      .select()
      .from(bookings)
      .where(eq(bookings.id, bookingPath.split("/").pop() ?? ""));
    expect(row?.icsSequence).toBe(1);

    const confirm = await adminPage(`${bookingPath}?annuler=1`);
    expect(textOf(confirm.document.querySelector("main"))).toContain("Annuler cette réservation ?");
    const cancelled = await post(bookingPath, {
      intent: "cancel",
      message: "Studio fermé ce jour-là",
    });
    expect(flashedToast(cancelled.headers)?.title).toBe("Réservation annulée");
    const after = textOf((await adminPage(bookingPath)).document.querySelector("main"));
    expect(after).toContain("Annulée");
    expect(after).toContain("Studio fermé ce jour-là");
    expect(after).toMatch(/Déplacée du .* au .*/);
    const again = await post(bookingPath, { intent: "cancel" });
    expect(again.status).toBe(409);
  });

  it("lists a request to answer, and accepts it", async () => {
    const [request] = await database()
      .insert(bookings)
      .values({
        sessionTypeId: typeId,
        studioId: limoges,
        photographerId:
          (
            await database()
              .select({ id: photographers.id })
              .from(photographers)
              .where(eq(photographers.active, true))
          )[0]?.id ?? "",
        startsAt: new Date(`${DAY}T14:00:00+01:00`),
        endsAt: new Date(`${DAY}T15:00:00+01:00`),
        state: "pending",
        respondBy: new Date(Date.now() + 86_400_000),
        clientName: `Demande ${marker}`,
        clientEmail: "demande@example.test",
        answers: {},
        consentAt: new Date(),
        manageTokenHash: randomBytes(32).toString("hex"),
      })
      .returning({ id: bookings.id, photographerId: bookings.photographerId });
    const agenda = await adminPage("/admin/reservations");
    const requests = agenda.document.querySelector('[aria-labelledby="demandes"]');
    expect(textOf(requests)).toContain(`Demande ${marker}`);
    expect(textOf(requests)).toMatch(
      /Répondre avant le [a-z]+ (1er|\d{1,2}) [a-zéû]+ \d{4} à \d{1,2} h/,
    );
    // A session of today, on the dashboard (a row without occupancies: other files' free times stay).
    const now = new Date();
    await database()
      .insert(bookings)
      .values({
        sessionTypeId: typeId,
        studioId: limoges,
        photographerId: request?.photographerId ?? "",
        startsAt: now,
        endsAt: new Date(now.getTime() + 60_000),
        state: "confirmed",
        clientName: `Aujourd'hui ${marker}`,
        clientEmail: "jour@example.test",
        manageTokenHash: randomBytes(32).toString("hex"),
      });
    const dashboard = await adminPage("/admin/dashboard");
    const bookingsCard = dashboard.document.querySelector('[aria-labelledby="reservations-titre"]');
    expect(textOf(bookingsCard)).toMatch(/demandes? attend/);
    expect(
      textOf(bookingsCard?.querySelector('[aria-labelledby="reservations-aujourdhui"]')),
    ).toContain(`Aujourd'hui ${marker}`);
    const accepted = await post(`/admin/reservations/${request?.id}`, { intent: "accept" });
    expect(flashedToast(accepted.headers)?.title).toBe("Demande acceptée");
    const [row] = await database()
      .select()
      .from(bookings)
      .where(eq(bookings.id, request?.id ?? ""));
    expect(row?.state).toBe("confirmed");
  });

  it("blocks time off, refuses it over a booking, and gives it back after a confirmation", async () => {
    const over = await post("/admin/reservations", {
      intent: "block",
      label: `Congés ${marker}`,
      studioId: limoges,
      photographerId: "",
      start: `${DAY}T13:00`,
      end: `${DAY}T16:00`,
    });
    expect(over.status).toBe(409);
    expect(textOf(over.document.querySelector("main"))).toContain(
      "Une réservation occupe déjà ce moment",
    );
    const wrong = await post("/admin/reservations", {
      intent: "block",
      label: `Congés ${marker}`,
      studioId: limoges,
      photographerId: "",
      start: `${DAY}T17:00`,
      end: `${DAY}T16:00`,
    });
    expect(wrong.status).toBe(400);
    expect(textOf(wrong.document.querySelector("main"))).toContain("La fin doit suivre le début.");
    const blocked = await post("/admin/reservations", {
      intent: "block",
      label: `Congés ${marker}`,
      studioId: limoges,
      photographerId: "",
      start: `${DAY}T08:00`,
      end: `${DAY}T09:30`,
    });
    expect(flashedToast(blocked.headers)?.title).toBe("Période bloquée");
    const day = await adminPage(`/admin/reservations?vue=jour&date=${DAY}`);
    expect(textOf(day.document.querySelector("main"))).toContain(`Congés ${marker}`);
    const [period] = await database()
      .select()
      .from(blockedPeriods)
      .where(eq(blockedPeriods.label, `Congés ${marker}`));
    const ask = await adminPage(`/admin/reservations?vue=jour&date=${DAY}&debloquer=${period?.id}`);
    expect(textOf(ask.document.querySelector('[role="alertdialog"]'))).toContain(
      "Débloquer cette période ?",
    );
    const freed = await post("/admin/reservations", { intent: "unblock", id: period?.id ?? "" });
    expect(flashedToast(freed.headers)?.title).toBe("Période débloquée");
  });

  it("exports the bookings as CSV", async () => {
    const response = await fetchPage("/admin/reservations/export.csv", { cookie: admin.cookie() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="reservations-/,
    );
    expect(response.html).toContain(`Demande ${marker}`);
  });
});

describe("the owner's calendar feed", () => {
  it("is made on the settings page, serves every booking, and a new link revokes the old", async () => {
    const made = await post("/admin/reservations/reglages", { intent: "renew-feed" });
    expect(made.status).toBe(200);
    const url = made.document.querySelector("#lien-agenda")?.getAttribute("value") ?? "";
    expect(url).toMatch(/\/calendrier\/[A-Za-z0-9_-]{43}\.ics$/);
    const path = new URL(url).pathname;
    const feed = await fetchPage(path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const events = Object.values(nodeIcal.sync.parseICS(feed.html)).filter(
      (entry): entry is nodeIcal.VEvent => entry?.type === "VEVENT",
    );
    const cancelled = events.find((event) => String(event.summary).includes(`Léa ${marker}`));
    expect(cancelled?.status).toBe("CANCELLED");
    expect(cancelled?.sequence).toBe(2);

    const settings = await adminPage("/admin/reservations/reglages");
    expect(textOf(settings.document.querySelector("main"))).toContain(
      "Un lien est actif depuis le",
    );
    expect(settings.html).not.toContain(path);
    await post("/admin/reservations/reglages", { intent: "renew-feed" });
    expectFileRefusal(await fetchPage(path), 404);
    expectFileRefusal(await fetchPage("/calendrier/pas-un-jeton.ics"), 404);
  });
});
