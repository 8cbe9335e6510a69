import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { firstFreeTime } from "../support/booking";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, metaContent, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { mailParts } from "../support/smtp-capture";
import { addParisDays } from "~/lib/booking/slots";
import { dayLabelFr, slotLabelFr } from "~/lib/booking/words";
import { isoDayInParis } from "~/lib/dates";

// The visitor's booking pages without JavaScript (decision 0115), on a server of the file's own:
// turning booking on for Brive changes the header of every page. Each step is a server-rendered light page;
// bad input of every kind is a French 4xx; the slot someone else took keeps what was typed. What a person
// sees and does in a browser (phone, keyboard, 44 px, axe): the visitor's walk in
// tests/e2e/booking-journey.test.ts.

const { received } = useOwnServerWithMail({
  // Each test posts from an address of its own (X-Forwarded-For), so the per-visitor limit is its own.
  TRUST_PROXY: "loopback",
});

const SECRET = "lien-prive-de-test-0123";
const PORTRAIT = "/reserver/brive/portrait-test";
let visitor = 0;
/** Headers of a visitor of its own (rate limits count per address). */
const from = () => ({ headers: { "X-Forwarded-For": `203.0.113.${++visitor}` } });
const uniqueEmail = () => `visiteur-${randomBytes(4).toString("hex")}@example.test`;
/** The key the form's page drew (hidden field `cle`). */
const formKeyAt = async (href: string) =>
  (await fetchPage(href)).document.querySelector('input[name="cle"]')?.getAttribute("value") ?? "";

beforeAll(async () => {
  const database = serverDatabase();
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  // Ussel books elsewhere: an address of its own (the seed's is a placeholder, not shown: decision 0126).
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{bookingUrl}', '"https://rendez-vous.studio-ussel.fr/"') where slug = 'ussel'`,
  );
  const types = await database.execute<{ id: string }>(sql`
    insert into session_types (slug, name, description, duration_minutes, minimum_notice_hours, step_minutes, horizon_days, cancellation_cutoff_hours, price_text, questions)
    values ('portrait-test', 'Portrait test', 'Une heure au studio.', 60, 0, 60, 30, 0, '120 €',
            '[{"id":"prenom-enfant","kind":"text","label":"Prénom de l''enfant","required":true,"options":[]}]'::jsonb)
    returning id`);
  const privateTypes = await database.execute<{ id: string }>(sql`
    insert into session_types (slug, name, duration_minutes, minimum_notice_hours, step_minutes, horizon_days, visibility, private_token, mode)
    values ('privee-test', 'Séance privée test', 60, 0, 60, 30, 'private', ${SECRET}, 'request')
    returning id`);
  await database.execute(sql`
    insert into session_type_studios (session_type_id, studio_id)
    select t.id, s.id from studios s, (values (${types.rows[0]?.id}::uuid), (${privateTypes.rows[0]?.id}::uuid)) as t(id)
    where s.slug = 'brive'`);
});

const mailsTo = (address: string) =>
  received().filter((mail) => mail.to.includes(address.toLowerCase()));

/** The script a light page ships: none of React Router's, within 5 KB. */
function expectLight(page: FetchedPage) {
  expect(page.html).not.toMatch(/rel="modulepreload"|type="module"|rr-scripts/);
  expect(page.html).not.toContain("__reactRouterContext");
  const bytes = [...page.document.querySelectorAll("script")]
    .filter((script) => script.getAttribute("type") !== "application/ld+json")
    .reduce((sum, script) => sum + Buffer.byteLength(script.textContent ?? ""), 0);
  expect(bytes).toBeLessThan(5 * 1024);
}

const details = (overrides: Record<string, string> = {}) => ({
  name: "Léa Martin",
  email: uniqueEmail(),
  phone: "06 12 34 56 78",
  "answers.prenom-enfant": "Jules",
  consent: "on",
  site_web: "",
  ...overrides,
});

describe("the way in", () => {
  it("the header's « Réserver » leads to /reserver, which lists only the studios with booking on", async () => {
    const home = await fetchPage("/");
    const reserve = [...home.document.querySelectorAll("header a")].filter(
      (link) => textOf(link) === "Réserver",
    );
    // The large screens' bar, the phone's bar beside the menu toggle (decision 0124), the phone's menu.
    expect(reserve.map((link) => link.getAttribute("href"))).toEqual([
      "/reserver",
      "/reserver",
      "/reserver",
    ]);
    const page = await fetchPage("/reserver");
    expect(page.status).toBe(200);
    expectLight(page);
    const links = [...page.document.querySelectorAll('main a[href^="/reserver/"]')];
    expect(links.map((link) => link.getAttribute("href"))).toEqual(["/reserver/brive"]);
  });

  it("Brive's page links to its booking pages and says so in its JSON-LD; Ussel keeps its external link", async () => {
    const brive = await fetchPage("/studio-brive");
    const booking = [...brive.document.querySelectorAll("main a")].find(
      (link) => textOf(link) === "Réserver en ligne",
    );
    expect(booking?.getAttribute("href")).toBe("/reserver/brive");
    const jsonLd = [...brive.document.querySelectorAll('script[type="application/ld+json"]')]
      .map((script) => JSON.parse(script.textContent ?? "{}") as Record<string, unknown>)
      .find((data) => data["@type"] === "LocalBusiness");
    expect(jsonLd?.potentialAction).toMatchObject({
      "@type": "ReserveAction",
      target: { "@type": "EntryPoint", urlTemplate: expect.stringMatching(/\/reserver\/brive$/) },
    });
    const ussel = await fetchPage("/studio-ussel");
    const external = [...ussel.document.querySelectorAll("main a")].find((link) =>
      textOf(link).startsWith("Réserver en ligne"),
    );
    expect(external?.getAttribute("href")).toMatch(/^https:\/\//);
  });

  it("lists the public session types, the private one only with its link; unknown or off studios are a French 404", async () => {
    const page = await fetchPage("/reserver/brive");
    expect(page.status).toBe(200);
    expectLight(page);
    expect(textOf(page.document.querySelector("main"))).toContain("Portrait test");
    expect(textOf(page.document.querySelector("main"))).not.toContain("Séance privée test");
    const withLink = await fetchPage(`/reserver/brive?lien=${SECRET}`);
    // The private link's page, like its next steps: kept by no shared cache, nor by the site's page cache.
    expect(withLink.headers.get("cache-control")).toBe("no-store");
    expect(metaContent(withLink.document, "robots")).toContain("noindex");
    const again = await fetchPage(`/reserver/brive?lien=${SECRET}`);
    expect(again.headers.get("x-page-cache")).not.toBe("hit");
    expect(textOf(withLink.document.querySelector("main"))).toContain("Séance privée test");
    expect(
      withLink.document.querySelector(`a[href="/reserver/brive/privee-test?lien=${SECRET}"]`),
    ).not.toBeNull();
    for (const path of [
      "/reserver/ussel",
      "/reserver/nulle-part",
      "/reserver/brive/privee-test",
      "/reserver/brive/privee-test?lien=faux-lien-0000",
      "/reserver/brive/inconnue",
      "/reserver/ussel/portrait-test",
    ]) {
      const missing = await fetchPage(path);
      expect(missing.status, path).toBe(404);
      expect(textOf(missing.document.querySelector("h1")), path).toBe("Page introuvable");
    }
    expect((await fetchPage(`/reserver/brive/privee-test?lien=${SECRET}`)).status).toBe(200);
  });
});

describe("choosing a day and a time", () => {
  it("shows a month of free days, then the day's times as links with their French names", async () => {
    const days = await fetchPage("/reserver/brive/portrait-test");
    expect(days.status).toBe(200);
    expect(days.headers.get("cache-control")).toBe("no-store");
    expectLight(days);
    // A calendar of the month (decision 0124): every day of it, the free ones as links to their times.
    const table = days.document.querySelector("main table");
    const month = textOf(days.document.getElementById("mois-titre"));
    expect(month).toMatch(/^[a-zéû]+ \d{4}$/);
    expect(table?.getAttribute("aria-labelledby")).toBe("mois-titre");
    expect([...(table?.querySelectorAll("th") ?? [])].map((cell) => textOf(cell))).toEqual([
      "lun.",
      "mar.",
      "mer.",
      "jeu.",
      "ven.",
      "sam.",
      "dim.",
    ]);
    const cells = [...(table?.querySelectorAll("td") ?? [])].filter((cell) => textOf(cell) !== "");
    expect(cells.length).toBeGreaterThanOrEqual(28);
    const dayLinks = [...days.document.querySelectorAll('main table a[href*="jour="]')];
    expect(dayLinks.length).toBeGreaterThan(0);
    const monthKey = new URL(dayLinks[0]?.getAttribute("href") ?? "", "http://x").searchParams
      .get("jour")
      ?.slice(0, 7);
    for (const link of dayLinks) {
      expect(link.getAttribute("href")).toContain(`jour=${monthKey}-`);
      expect(link.getAttribute("aria-label")).toMatch(
        /^(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) (1er|\d{1,2}) [a-zéû]+, \d+ horaires? libres?$/,
      );
    }
    // From this month to the 30-day horizon's month, each with links to the months beside it.
    const thisMonth = isoDayInParis(new Date()).slice(0, 7);
    const lastMonth = addParisDays(isoDayInParis(new Date()), 30).slice(0, 7);
    const first = await fetchPage(`/reserver/brive/portrait-test?mois=${thisMonth}`);
    expect(first.document.querySelector('a[aria-label^="Mois précédent"]')).toBeNull();
    const last = await fetchPage(`/reserver/brive/portrait-test?mois=${lastMonth}`);
    expect(last.document.querySelector('a[aria-label^="Mois suivant"]')).toBeNull();
    if (lastMonth !== thisMonth) {
      const next = first.document.querySelector('a[aria-label^="Mois suivant : "]');
      expect(next?.getAttribute("href")).toBe(`/reserver/brive/portrait-test?mois=${lastMonth}`);
      const previous = last.document.querySelector('a[aria-label^="Mois précédent : "]');
      expect(previous?.getAttribute("href")).toBe(
        `/reserver/brive/portrait-test?mois=${thisMonth}`,
      );
    }
    // Months out of reach show the nearest one; no real month is a page without a day chosen.
    for (const asked of ["1999-01", "9999-12", "2026-13", "0000-00"]) {
      const page = await fetchPage(`/reserver/brive/portrait-test?mois=${asked}`);
      expect(page.status, asked).toBe(200);
      expect(page.document.querySelector("main table"), asked).not.toBeNull();
    }
    const day = await fetchPage(dayLinks[0]?.getAttribute("href") ?? "");
    const times = [...day.document.querySelectorAll('a[href*="coordonnees?creneau="]')];
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) {
      expect(time.getAttribute("aria-label")).toMatch(
        /^(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) (1er|\d{1,2}) [a-zéû]+ à \d{1,2}\u00A0h(\u00A0\d\d)?, disponible$/,
      );
    }
    // Addresses that name no day are ignored, never an error.
    expect(
      (await fetchPage("/reserver/brive/portrait-test?du=2026-02-31&jour=n'importe")).status,
    ).toBe(200);
  });
});

describe("the details form without JavaScript", () => {
  it("books: 303 to the client's page, which shows the booking, never cached nor indexed; the e-mail brings its link", async () => {
    const { href } = await firstFreeTime(PORTRAIT);
    const form = await fetchPage(href);
    expect(form.status).toBe(200);
    expectLight(form);
    // The steps name the pages they lead to, the current one as its title says (decision 0125).
    const steps = [
      ...form.document.querySelectorAll('nav[aria-label="Étapes de la réservation"] li'),
    ].map((step) => textOf(step).replace(/^›\s*/, ""));
    expect(steps).toEqual([
      "Réserver une séance",
      "Studio de Brive",
      "Portrait test",
      "Réserver ce créneau",
    ]);
    expect(textOf(form.document.querySelector("h1"))).toBe("Réserver ce créneau");
    const first = form.document.querySelector('nav[aria-label="Étapes de la réservation"] a');
    const home = await fetchPage(first?.getAttribute("href") ?? "");
    expect(textOf(home.document.querySelector("h1"))).toBe("Réserver une séance");
    for (const name of ["name", "email", "phone", "answers.prenom-enfant", "consent", "site_web"]) {
      expect(
        form.document.querySelector(`form[method=post] [name="${name}"]`),
        name,
      ).not.toBeNull();
    }
    expect(
      form.document.querySelector('a[href="/mentions-legales#conditions-reservation"]'),
    ).not.toBeNull();
    const fields = details();
    const answer = await postForm(href, fields, from());
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/reservation\/[A-Za-z0-9_-]{43}\?nouvelle=1$/);
    const mine = await fetchPage(location);
    expect(mine.status).toBe(200);
    expectLight(mine);
    expect(mine.headers.get("cache-control")).toBe("no-store");
    expect(mine.headers.get("x-robots-tag")).toContain("noindex");
    expect(mine.headers.get("referrer-policy")).toBe("same-origin");
    expect(textOf(mine.document.querySelector("main"))).toContain("Votre séance est réservée.");
    expect(textOf(mine.document.querySelector("main"))).toContain("Léa Martin");
    await expect.poll(() => mailsTo(fields.email).length).toBe(1);
    expect(mailsTo(fields.email)[0]?.text).toContain(location.replace(/\?.*$/, ""));

    // « Ajouter à mon agenda »: the booking's own event, the e-mail's UID and SEQUENCE (decision 0124).
    const add = [...mine.document.querySelectorAll("main a")].find(
      (link) => textOf(link) === "Ajouter à mon agenda",
    );
    const icsPath = add?.getAttribute("href") ?? "";
    expect(icsPath).toBe(`${location.replace(/\?.*$/, "")}/seance.ics`);
    const ics = await fetch(new URL(icsPath, serverBaseUrl()));
    expect(ics.status).toBe(200);
    expect(ics.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(ics.headers.get("content-disposition")).toBe('attachment; filename="seance.ics"');
    expect(ics.headers.get("cache-control")).toBe("no-store");
    expect(ics.headers.get("x-robots-tag")).toContain("noindex");
    const calendar = await ics.text();
    expect(calendar).toContain("METHOD:PUBLISH\r\n");
    expect(calendar).toContain("STATUS:CONFIRMED\r\n");
    expect(calendar).toContain("SEQUENCE:0\r\n");
    expect(calendar).toContain("SUMMARY:Portrait test – Studio de Brive\r\n");
    expect(calendar).not.toContain("ATTENDEE");
    const mailed = mailParts(mailsTo(fields.email)[0]?.raw ?? "").attachments.find(
      (attachment) => attachment.filename === "seance.ics",
    );
    const uid = /UID:(.+)\r\n/.exec(calendar)?.[1];
    expect(uid).toBeTruthy();
    expect(mailed?.text).toContain(`UID:${uid}`);
    expectFileRefusal(await fetchPage(`/reservation/${"A".repeat(43)}/seance.ics`), 404);
  });

  it("answers bad input with a French 400 and every value typed, never a 5xx", async () => {
    const { href } = await firstFreeTime(PORTRAIT);
    const answer = await postForm(
      href,
      details({ name: "", email: "pas-une-adresse", "answers.prenom-enfant": "", consent: "" }),
      from(),
    );
    expect(answer.status).toBe(400);
    const main = textOf(answer.document.querySelector("main"));
    expect(main).toContain("Veuillez indiquer votre nom.");
    expect(main).toContain("Veuillez indiquer une adresse e-mail valide.");
    expect(main).toContain("Veuillez répondre à cette question.");
    expect(main).toContain("Veuillez accepter les conditions de réservation.");
    expect(answer.document.querySelector('input[name="email"]')?.getAttribute("value")).toBe(
      "pas-une-adresse",
    );
    expect(answer.document.querySelector('input[name="phone"]')?.getAttribute("value")).toBe(
      "06 12 34 56 78",
    );
    for (const creneau of [
      "2020-01-06T10:00",
      "n'importe-quoi",
      "2026-02-30T10:00",
      "2027-03-28T02:30",
    ]) {
      const path = `/reserver/brive/portrait-test/coordonnees?creneau=${encodeURIComponent(creneau)}`;
      const shown = await fetchPage(path);
      expect([400, 409], creneau).toContain(shown.status);
      const posted = await postForm(path, details(), from());
      expect([400, 409], creneau).toContain(posted.status);
      expect(textOf(posted.document.querySelector("[role=alert]")), creneau).not.toBe("");
    }
    const trap = await postForm(href, details({ site_web: "http://spam.example" }), from());
    expect(trap.status).toBe(400);
  });

  it("a slot someone else just took: « Ce créneau vient d'être réservé. », the next times to book in one click, nothing typed lost", async () => {
    const { href } = await firstFreeTime(PORTRAIT);
    expect((await postForm(href, details(), from())).status).toBe(303);
    const late = details({ name: "Hugo Lefebvre" });
    const taken = await postForm(href, late, from());
    expect(taken.status).toBe(409);
    expect(textOf(taken.document.querySelector("[role=alert]"))).toContain(
      "Ce créneau vient d'être réservé.",
    );
    expect(taken.document.querySelector('input[name="name"]')?.getAttribute("value")).toBe(
      "Hugo Lefebvre",
    );
    const alternatives = [...taken.document.querySelectorAll('button[name="creneau"]')];
    expect(alternatives.length).toBeGreaterThan(0);
    const next = alternatives[0]?.getAttribute("value") ?? "";
    const rebooked = await postForm(href, { ...late, creneau: next }, from());
    expect(rebooked.status).toBe(303);
  });

  it("her day filled up meanwhile: each next free time stands under a heading naming its day, which its button's name says too", async () => {
    const days = await fetchPage(PORTRAIT);
    const firstDay = days.document
      .querySelector('main table a[href*="jour="]')
      ?.getAttribute("href");
    const times = [
      ...(await fetchPage(firstDay ?? "")).document.querySelectorAll(
        'a[href*="coordonnees?creneau="]',
      ),
    ].map((link) => link.getAttribute("href") ?? "");
    expect(times.length).toBeGreaterThan(0);
    for (const href of times) expect((await postForm(href, details(), from())).status).toBe(303);
    const last = times.at(-1) ?? "";
    const takenDay = new URL(last, "http://x").searchParams.get("creneau")?.slice(0, 10);
    const taken = await postForm(last, details({ name: "Hugo Lefebvre" }), from());
    expect(taken.status).toBe(409);
    const section = taken.document.getElementById("autres-horaires")?.closest("section");
    expect(section?.querySelector("h3")?.id).toBe("autres-horaires");
    // What she sees above each hour, as the page reads from top to bottom: the day it books.
    let dayHeading = "";
    let choices = 0;
    for (const element of section?.querySelectorAll('h4, button[name="creneau"]') ?? []) {
      if (element.tagName === "H4") {
        dayHeading = textOf(element);
        continue;
      }
      choices += 1;
      const key = element.getAttribute("value") ?? "";
      expect(key.slice(0, 10)).not.toBe(takenDay);
      expect(dayHeading, key).toBe(dayLabelFr(key.slice(0, 10), true).replace(/\s/g, " "));
      expect(element.getAttribute("aria-label")).toBe(`${slotLabelFr(key)}, disponible`);
    }
    expect(choices).toBeGreaterThan(0);
  });

  it("the form posted twice books once and leads both posts to the client's page", async () => {
    const { href } = await firstFreeTime(PORTRAIT);
    const fields = details({ cle: await formKeyAt(href) });
    const visitor = from();
    const first = await postForm(href, fields, visitor);
    const second = await postForm(href, fields, visitor);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toMatch(/^\/reservation\/[A-Za-z0-9_-]{43}\?nouvelle=1$/);
    expect({ status: second.status, location: second.headers.get("location") }).toEqual({
      status: 303,
      location: first.headers.get("location"),
    });
    const rows = await serverDatabase().execute<{ state: string }>(
      sql`select state from bookings where client_email = ${fields.email}`,
    );
    expect(rows.rows).toEqual([{ state: "confirmed" }]);
    // One booking, one confirmation.
    await expect.poll(() => mailsTo(fields.email).length).toBe(1);
  });

  it("the key of a booked form posted with other details: refused in French, what was typed kept, never the first booking", async () => {
    const { href } = await firstFreeTime(PORTRAIT);
    const cle = await formKeyAt(href);
    const fields = details({ cle });
    expect((await postForm(href, fields, from())).status).toBe(303);
    const changed = { ...fields, name: "Hugo Lefebvre" };
    const refused = await postForm(href, changed, from());
    expect(refused.status).toBe(409);
    expect(refused.headers.get("location")).toBeNull();
    expect(textOf(refused.document.querySelector("[role=alert]"))).toContain(
      "Ce formulaire a déjà servi à une réservation",
    );
    expect(refused.document.querySelector('input[name="name"]')?.getAttribute("value")).toBe(
      "Hugo Lefebvre",
    );
    expect(refused.html).not.toMatch(/\/reservation\/[A-Za-z0-9_-]{43}/);
    // The page now holds a new key: sent again, it asks for a booking of its own.
    const newKey = refused.document.querySelector('input[name="cle"]')?.getAttribute("value");
    expect(newKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(newKey).not.toBe(cle);
  });

  it("a private session asked for through its link: a request, held for the studio's answer", async () => {
    const { href } = await firstFreeTime(`/reserver/brive/privee-test?lien=${SECRET}`);
    expect(href).toContain(`lien=${SECRET}`);
    const form = await fetchPage(href);
    expect(textOf(form.document.querySelector("h1"))).toBe("Demander ce créneau");
    const fields = details();
    const answer = await postForm(href, fields, from());
    expect(answer.status).toBe(303);
    const page = await fetchPage(answer.headers.get("location") ?? "");
    expect(textOf(page.document.querySelector("main"))).toContain(
      "Votre demande est envoyée au studio.",
    );
    expect(textOf(page.document.querySelector("main"))).toContain("Demande en attente");
    await expect
      .poll(() => mailsTo(fields.email).map((mail) => mail.subject.split(" :")[0]))
      .toEqual(["Demande de séance reçue"]);
    // Without its link, the same post finds no such session.
    const withoutLink = href.replace(/[?&]lien=[^&]+/, "");
    expect((await postForm(withoutLink, details(), from())).status).toBe(404);
  });

  it("limits bookings to come per e-mail address", async () => {
    const email = uniqueEmail();
    for (let index = 0; index < 3; index++) {
      const { href } = await firstFreeTime(PORTRAIT);
      const fields = details({ email, cle: await formKeyAt(href) });
      const booked = await postForm(href, fields, from());
      expect(booked.status).toBe(303);
      if (index === 2) {
        // The third's form posted again leads to its booking, not to « Au plus 3 réservations ».
        const again = await postForm(href, fields, from());
        expect({ status: again.status, location: again.headers.get("location") }).toEqual({
          status: 303,
          location: booked.headers.get("location"),
        });
      }
    }
    const { href } = await firstFreeTime(PORTRAIT);
    const refused = await postForm(href, details({ email }), from());
    expect(refused.status).toBe(429);
    expect(textOf(refused.document.querySelector("main"))).toContain(
      "Au plus 3 réservations à venir",
    );
  });

  it("refuses a POST where no form is (405)", async () => {
    expect((await postForm("/reserver", {}, from())).status).toBe(405);
    expect((await postForm("/reserver/brive/portrait-test", {}, from())).status).toBe(405);
  });
});

describe("the client's page /reservation/{token}", () => {
  async function booked(): Promise<{ path: string; email: string }> {
    const { href } = await firstFreeTime(PORTRAIT);
    const fields = details();
    const answer = await postForm(href, fields, from());
    return {
      path: (answer.headers.get("location") ?? "").replace(/\?.*$/, ""),
      email: fields.email,
    };
  }

  it("answers the same French 404 to any token that names no booking", async () => {
    for (const token of ["x", "A".repeat(43), `${"a".repeat(42)}_`, "../admin"]) {
      const page = await fetchPage(`/reservation/${encodeURIComponent(token)}`);
      expect(page.status, token).toBe(404);
      expect(textOf(page.document.querySelector("h1"))).toBe("Page introuvable");
    }
    expect(
      (await postForm(`/reservation/${"A".repeat(43)}`, { intent: "cancel" }, from())).status,
    ).toBe(404);
  });

  it("moves the booking to another free time (POST), then cancels it after a confirmation step", async () => {
    const { path, email } = await booked();
    const moving = await fetchPage(`${path}?deplacer=1`);
    // The month's last free day (its first may be today, with the booked time its only one left), else the
    // next month's.
    const lastDayOf = (page: FetchedPage) =>
      [...page.document.querySelectorAll('main table a[href*="jour="]')]
        .at(-1)
        ?.getAttribute("href");
    const nextMonth = moving.document
      .querySelector('a[aria-label^="Mois suivant"]')
      ?.getAttribute("href");
    const dayLink =
      (nextMonth ? lastDayOf(await fetchPage(nextMonth)) : undefined) ?? lastDayOf(moving) ?? "";
    const day = await fetchPage(dayLink);
    // A time is a link to a confirmation step (decision 0124); nothing is posted by choosing it.
    expect(day.document.querySelector('button[name="creneau"]')).toBeNull();
    const timeLinks = [...day.document.querySelectorAll('main a[href*="creneau="]')];
    expect(timeLinks.length).toBeGreaterThan(0);
    const timeHref = timeLinks.at(-1)?.getAttribute("href") ?? "";
    const target = new URL(timeHref, "http://x").searchParams.get("creneau") ?? "";
    const confirmStep = await fetchPage(timeHref);
    expectLight(confirmStep);
    const question = textOf(confirmStep.document.querySelector("#confirmer-titre"));
    expect(question).toBe(`Déplacer au ${slotLabelFr(target).replace(/\s/g, " ")} ?`);
    const confirmForm = confirmStep.document.querySelector("#confirmer form[method=post]");
    expect(confirmForm?.getAttribute("action")).toBe(path);
    expect(confirmForm?.querySelector('input[name="intent"]')?.getAttribute("value")).toBe("move");
    expect(confirmForm?.querySelector('input[name="creneau"]')?.getAttribute("value")).toBe(target);
    expect(textOf(confirmForm?.querySelector('button[type="submit"]'))).toBe("Confirmer");
    const back = [...(confirmForm?.querySelectorAll("a") ?? [])].find(
      (link) => textOf(link) === "Annuler",
    );
    expect(back?.getAttribute("href")).not.toContain("creneau=");
    // A time that is not one of the day's free times asks nothing: the day's times again.
    const forged = await fetchPage(`${dayLink}&creneau=2020-01-01T10:00`);
    expect(forged.document.querySelector("#confirmer")).toBeNull();
    expect(forged.document.querySelector('main a[href*="creneau="]')).not.toBeNull();
    // The booking's own confirmation is sent by the queue, in its own time; viewing the steps sends nothing
    // more (the list of subjects below is exact).
    await expect.poll(() => mailsTo(email).length).toBe(1);

    const moved = await postForm(path, { intent: "move", creneau: target }, from());
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe(`${path}?fait=deplacee`);
    await expect
      .poll(() => mailsTo(email).map((mail) => mail.subject.split(" :")[0]))
      .toEqual(["Votre séance est réservée", "Votre séance est déplacée"]);
    const badMove = await postForm(path, { intent: "move", creneau: "2020-01-01T10:00" }, from());
    expect(badMove.status).toBe(400);

    const confirm = await fetchPage(`${path}?annuler=1`);
    expect(
      confirm.document.querySelector('form[method=post] input[name="intent"][value="cancel"]'),
    ).not.toBeNull();
    const cancelled = await postForm(path, { intent: "cancel" }, from());
    expect(cancelled.status).toBe(303);
    const after = await fetchPage(`${path}?fait=annulee`);
    expect(textOf(after.document.querySelector("main"))).toContain("Annulée");
    // A way back: the same session's days, at the same studio.
    const rebook = [...after.document.querySelectorAll("main a")].find(
      (link) => textOf(link) === "Choisir un autre créneau pour cette séance",
    );
    expect(rebook?.getAttribute("href")).toBe("/reserver/brive/portrait-test");
    const again = await postForm(path, { intent: "cancel" }, from());
    expect(again.status).toBe(409);
    expect(textOf(again.document.querySelector("[role=alert]"))).toBe(
      "Cette réservation est déjà annulée ou terminée.",
    );
    expect((await postForm(path, { intent: "autre" }, from())).status).toBe(400);
  });
});
