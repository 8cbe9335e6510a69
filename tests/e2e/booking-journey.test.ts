import * as nodeIcal from "node-ical";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { clockFr } from "../../app/lib/booking/agenda-format";
import { slotLabelFr } from "../../app/lib/booking/words";
import { parisDateTimeToInstant } from "../../app/lib/dates";
import { useAdmin } from "../support/accounts";
import { firstFreeTime, insertSessionType, studioIds } from "../support/booking";
import { postForm } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { closeToasts, signedInPage } from "./support/admin";
import { axeViolations, hydrated, useBrowser } from "./support/browser";

/*
 * Online booking's journey (decisions 0113–0116), once, end to end: the owner creates a session type and turns booking on for Brive; a
 * visitor on a phone books it from the header's « Réserver » with the keyboard, gets the e-mail and its
 * .ics, moves the session from the e-mail's link, then cancels it, each of her steps without an axe-core
 * violation, while the owner sees each step in her agenda; the same booking with JavaScript off; a request
 * accepted; a booking taken by phone; the owner's calendar feed. The details of each page are checked
 * elsewhere: tests/e2e/admin-bookings (the owner on a phone), tests/http/booking-visitor and
 * tests/http/admin-bookings (every form and refusal without JavaScript). A server of the file's own, with
 * its own mailbox: turning booking on changes the header of every page.
 */

const { url, mailsTo } = useOwnServerWithMail();
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();

/** Everyone here is in France: the browsers' clocks read Paris time, as the pages' times do. */
const IN_PARIS = { timezoneId: "Europe/Paris" };
/** The owner's pages: nothing in the journey is refused, so not even a 4xx may reach the console. */
const OWNER = { ...IN_PARIS, allowConsole: [] };
const PHONE = {
  ...IN_PARIS,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
const TYPE = "Portrait en studio";
const REQUEST_TYPE = "Séance nouveau-né";
const VISITOR = { name: "Léa Martin", email: "lea.martin@example.test" };
const NO_SCRIPT_VISITOR = { name: "Hugo Lefebvre", email: "hugo.lefebvre@example.test" };
const REQUESTER = { name: "Camille Roux", email: "camille.roux@example.test" };
const CALLER = { name: "Paul Girard", email: "paul.girard@example.test" };

/** What the journey found on the way, for the steps after it. */
const seen = {
  /** The visitor's first free day, and the times booked (slot keys, Paris wall times). */
  firstDay: "",
  booked: "",
  movedTo: "",
  noScriptBooked: "",
  requested: "",
  byPhone: "",
  /** The UID of the visitor's event, as her e-mails' .ics give it. */
  uid: "",
};

beforeAll(async () => {
  // The request the owner accepts needs a type booked on request; the owner's own type form is the one
  // created in the browser below (the form's fields: tests/e2e/admin-bookings, tests/http/admin-bookings).
  const { brive } = await studioIds(serverDatabase());
  await insertSessionType(
    [brive],
    { name: REQUEST_TYPE, slug: "nouveau-ne", mode: "request", minimumNoticeHours: 24 },
    serverDatabase(),
  );
});

/** The calendar events of an .ics text, parsed as a calendar application would. */
function eventsOf(ics: string): nodeIcal.VEvent[] {
  return Object.values(nodeIcal.sync.parseICS(ics)).filter(
    (entry): entry is nodeIcal.VEvent => entry?.type === "VEVENT",
  );
}

/**
 * The e-mail `address` received with this subject (waited for: the outbox sends it a moment after the
 * page answered; two e-mails queued close together may come in either order), and the one event of its
 * `.ics`.
 */
async function mailed(address: string, subject: string) {
  await expect.poll(() => mailsTo(address).map((mail) => mail.subject)).toContain(subject);
  const mail = mailsTo(address).find((candidate) => candidate.subject === subject);
  const files = mail?.attachments.filter((file) => file.type === "text/calendar") ?? [];
  expect(files.map((file) => file.filename)).toEqual(["seance.ics"]);
  const events = eventsOf(files[0]?.text ?? "");
  expect(events).toHaveLength(1);
  return { text: mail?.text ?? "", event: events[0] };
}

/** The instant of a slot key (« 2026-12-03T10:00 », Paris wall time). */
const instantOf = (key: string) => parisDateTimeToInstant(key)?.getTime();
/** The Paris day of a slot key, and the agenda's address for it. */
const dayOf = (key: string) => key.slice(0, 10);
const agendaDay = (day: string) => `/admin/reservations?vue=jour&date=${day}`;
/** « 10 h 30 », as the agenda writes a slot key's time. */
const clockOf = (key: string) => clockFr(key.slice(11, 16)).replace(/\s/g, " ");
/** The value of a search parameter of a link. */
const paramOf = (href: string | null, name: string) =>
  new URL(href ?? "", "http://127.0.0.1").searchParams.get(name) ?? "";

/**
 * Follows a link or presses a button with the keyboard (focus, Enter), once a finger could tap it as well
 * (a trial tap: visible, enabled, not covered), and waits for the next page.
 */
async function pressEnter(page: Page, target: Locator) {
  await target.tap({ trial: true });
  const before = page.url();
  await target.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL((address) => address.toString() !== before);
  await hydrated(page);
}

/** The agenda's line of `client`'s booking on `day`, as the owner sees it (text, whitespace folded). */
async function agendaLine(owner: Page, day: string, client: string): Promise<string> {
  if (!owner.url().endsWith(agendaDay(day))) await owner.goto(agendaDay(day));
  const line = owner.getByRole("link", { name: new RegExp(`${client} · `) });
  await line.waitFor();
  return (await line.innerText()).replace(/\s+/g, " ");
}

describe("the booking journey", () => {
  it("the owner creates a session type, offered at Brive, and turns online booking on for Brive", async () => {
    const owner = await signedInPage(
      openPage,
      admin.account(),
      "/admin/reservations/seances/nouvelle",
      OWNER,
    );
    await owner.getByLabel("Nom de la séance", { exact: true }).fill(TYPE);
    await owner
      .getByLabel("Description", { exact: true })
      .fill("Une heure au studio, dix photos retouchées.");
    await owner.getByLabel("Prix", { exact: true }).fill("120 €");
    await owner.getByLabel("Studio d'Ussel", { exact: true }).uncheck();
    await owner.getByLabel("Studio de Limoges", { exact: true }).uncheck();
    // Clients may change their session online until 12 h before it (24 h of notice to book).
    await owner.getByLabel("Annulation en ligne", { exact: true }).fill("12");
    await owner.getByRole("button", { name: "Créer la séance" }).click();
    await owner.getByRole("heading", { level: 1, name: TYPE }).waitFor();
    await closeToasts(owner);
    // The type's own page after its creation, with its history (the new form's: admin-bookings).
    expect(await axeViolations(owner)).toEqual([]);

    await owner.goto("/admin/studios");
    await owner.getByRole("link", { name: "Modifier « Studio de Brive »" }).click();
    await owner.getByRole("heading", { level: 1, name: "Studio de Brive" }).waitFor();
    await owner.getByLabel("Réservation en ligne", { exact: true }).check();
    await owner.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => owner.getByText("Studio enregistré").count()).toBeGreaterThan(0);
  });

  it("a visitor on a phone books it from the header with the keyboard, moves it from the e-mail's link and cancels it, each step accessible; the owner sees each step", async () => {
    const visitor = await openPage("/", PHONE);
    await visitor.getByRole("button", { name: "Ouvrir le menu" }).tap();
    await pressEnter(
      visitor,
      visitor.locator("#menu-mobile").getByRole("link", { name: "Réserver" }),
    );
    await visitor.getByRole("heading", { level: 1, name: "Réserver une séance" }).waitFor();
    expect(new URL(visitor.url()).pathname).toBe("/reserver");
    expect(await axeViolations(visitor), "/reserver").toEqual([]);
    await pressEnter(
      visitor,
      visitor.locator("main").getByRole("link", { name: /Studio de Brive/ }),
    );
    expect(await axeViolations(visitor), "séances").toEqual([]);
    await pressEnter(visitor, visitor.getByRole("link", { name: new RegExp(TYPE) }));
    await visitor.waitForURL(/\/reserver\/brive\/portrait-en-studio$/);
    expect(await axeViolations(visitor), "jours").toEqual([]);
    const firstDay = visitor.locator('main a[href*="jour="]').first();
    seen.firstDay = paramOf(await firstDay.getAttribute("href"), "jour");
    await pressEnter(visitor, firstDay);
    const time = visitor.getByRole("link", { name: /, disponible$/ }).first();
    seen.booked = paramOf(await time.getAttribute("href"), "creneau");
    expect(dayOf(seen.booked)).toBe(seen.firstDay);
    expect(await time.getAttribute("aria-label")).toBe(`${slotLabelFr(seen.booked)}, disponible`);
    // A time is a target of at least 44 px on a phone.
    const box = await time.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(await axeViolations(visitor), "horaires").toEqual([]);
    await pressEnter(visitor, time);
    await visitor.getByRole("heading", { level: 1, name: "Réserver ce créneau" }).waitFor();
    expect(await axeViolations(visitor), "coordonnées").toEqual([]);
    await visitor.getByLabel("Nom et prénom").fill(VISITOR.name);
    await visitor.getByLabel("E-mail").fill(VISITOR.email);
    await visitor.getByLabel("Téléphone (facultatif)").fill("06 12 34 56 78");
    const consent = visitor.getByRole("checkbox", { name: /J'accepte les conditions/ });
    await consent.focus();
    await visitor.keyboard.press("Space");
    await expect.poll(() => consent.isChecked()).toBe(true);
    await pressEnter(visitor, visitor.getByRole("button", { name: "Confirmer la réservation" }));
    expect(new URL(visitor.url()).pathname).toMatch(/^\/reservation\/[\w-]{43}$/);
    await visitor.getByRole("status").getByText("Votre séance est réservée.").waitFor();
    const when = slotLabelFr(seen.booked, true);
    await expect.poll(() => visitor.locator("main").textContent()).toContain(`${when} (1\u00A0h)`);
    // The client's page, with the toast that says it is booked.
    expect(await axeViolations(visitor), "réservation").toEqual([]);

    // The e-mail: its subject says when, its .ics is one event, its link is the visitor's page.
    const booked = await mailed(VISITOR.email, `Votre séance est réservée : ${when}`);
    expect(booked.event).toMatchObject({ sequence: 0, status: "CONFIRMED" });
    expect(booked.event?.start.getTime()).toBe(instantOf(seen.booked));
    seen.uid = booked.event?.uid ?? "";
    expect(seen.uid).toMatch(/@127\.0\.0\.1:\d+$/);
    const link = /https?:\/\/\S+\/reservation\/[\w-]{43}/.exec(booked.text)?.[0];
    expect(link?.startsWith(url())).toBe(true);

    const owner = await signedInPage(openPage, admin.account(), agendaDay(seen.firstDay), OWNER);
    expect(await agendaLine(owner, seen.firstDay, VISITOR.name)).toMatch(
      new RegExp(`^${clockOf(seen.booked)} – .*${VISITOR.name} · ${TYPE}.*Confirmée$`),
    );

    // From the e-mail's link, to another day.
    await visitor.goto(link ?? "");
    await visitor.getByRole("link", { name: "Déplacer la séance" }).tap();
    await visitor.getByRole("heading", { name: "Déplacer la séance" }).waitFor();
    const otherDay = visitor.locator('main a[href*="jour="]').nth(1);
    const movedDay = paramOf(await otherDay.getAttribute("href"), "jour");
    await otherDay.tap();
    // The day's page loaded to its end: the last of its times is the last of the day, not of what the
    // browser has parsed so far.
    await visitor.waitForURL((address) => address.searchParams.get("jour") === movedDay);
    const lastTime = visitor.getByRole("link", { name: /, disponible$/ }).last();
    seen.movedTo = paramOf(await lastTime.getAttribute("href"), "creneau");
    expect(dayOf(seen.movedTo)).toBe(movedDay);
    // The move step's page (days and times as links).
    expect(await axeViolations(visitor), "déplacement").toEqual([]);
    await visitor.getByRole("link", { name: `${slotLabelFr(seen.movedTo)}, disponible` }).tap();
    // Nothing moves before she confirms (decision 0124).
    await visitor
      .getByRole("heading", { name: `Déplacer au ${slotLabelFr(seen.movedTo)} ?` })
      .waitFor();
    expect(await axeViolations(visitor), "confirmation du déplacement").toEqual([]);
    await visitor.getByRole("button", { name: "Confirmer" }).tap();
    await visitor.getByRole("status").getByText("Votre séance est déplacée.").waitFor();
    const movedWhen = slotLabelFr(seen.movedTo, true);
    await expect
      .poll(() => visitor.locator("main").textContent())
      .toContain(`${movedWhen} (1\u00A0h)`);

    const moved = await mailed(VISITOR.email, `Votre séance est déplacée : ${movedWhen}`);
    expect(moved.event).toMatchObject({ uid: seen.uid, sequence: 1, status: "CONFIRMED" });
    expect(moved.event?.start.getTime()).toBe(instantOf(seen.movedTo));

    await owner.reload();
    await owner.getByText("Aucune réservation.").waitFor();
    expect(await agendaLine(owner, movedDay, VISITOR.name)).toMatch(
      new RegExp(`^${clockOf(seen.movedTo)} – .*${VISITOR.name} · ${TYPE}.*Confirmée$`),
    );

    await pressEnter(visitor, visitor.getByRole("link", { name: "Annuler la séance" }));
    expect(await axeViolations(visitor), "annulation").toEqual([]);
    await pressEnter(visitor, visitor.getByRole("button", { name: "Oui, annuler ma séance" }));
    await visitor.getByRole("status").getByText("Votre séance est annulée.").waitFor();
    await expect.poll(() => visitor.locator("main").textContent()).toContain("Annulée");

    const cancelled = await mailed(VISITOR.email, `Séance annulée : ${movedWhen}`);
    expect(cancelled.event).toMatchObject({ uid: seen.uid, sequence: 2, status: "CANCELLED" });

    await owner.reload();
    expect(await agendaLine(owner, movedDay, VISITOR.name)).toMatch(/Annulée$/);
    await owner.getByRole("link", { name: new RegExp(`${VISITOR.name} · `) }).click();
    const history = owner.getByRole("region", { name: "Historique" });
    await history.getByText("Annulée par le client").waitFor();
    const [from, to] = [seen.booked, seen.movedTo].map((key) =>
      slotLabelFr(key, true).replace(/\s/g, " "),
    );
    await expect
      .poll(async () => (await history.innerText()).replace(/\s+/g, " "))
      .toContain(`Déplacée du ${from} au ${to} par le client`);
  });

  it("the same booking with JavaScript off", async () => {
    const page = await openPage("/", { ...IN_PARIS, javaScriptEnabled: false });
    await page.getByRole("banner").getByRole("link", { name: "Réserver", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Réserver une séance" }).waitFor();
    await page
      .locator("main")
      .getByRole("link", { name: /Studio de Brive/ })
      .click();
    await page.getByRole("link", { name: new RegExp(TYPE) }).click();
    await page.waitForURL(/\/reserver\/brive\/portrait-en-studio$/);
    await page.locator('main a[href*="jour="]').first().click();
    const time = page.getByRole("link", { name: /, disponible$/ }).first();
    seen.noScriptBooked = paramOf(await time.getAttribute("href"), "creneau");
    await time.click();
    await page.getByLabel("Nom et prénom").fill(NO_SCRIPT_VISITOR.name);
    await page.getByLabel("E-mail").fill(NO_SCRIPT_VISITOR.email);
    await page.getByRole("checkbox", { name: /J'accepte les conditions/ }).check();
    await page.getByRole("button", { name: "Confirmer la réservation" }).click();
    await page.getByRole("status").getByText("Votre séance est réservée.").waitFor();
    await expect
      .poll(() => page.locator("main").textContent())
      .toContain(slotLabelFr(seen.noScriptBooked, true));
    const { event } = await mailed(
      NO_SCRIPT_VISITOR.email,
      `Votre séance est réservée : ${slotLabelFr(seen.noScriptBooked, true)}`,
    );
    expect(event).toMatchObject({ sequence: 0, status: "CONFIRMED" });
  });

  it("the owner accepts a request and adds a booking taken by phone", async () => {
    // A visitor's request, posted as the booking pages' form would (those pages: the phone walk above and
    // tests/http/booking-visitor).
    const request = await firstFreeTime("/reserver/brive/nouveau-ne");
    seen.requested = request.key;
    const asked = await postForm(request.href, {
      name: REQUESTER.name,
      email: REQUESTER.email,
      consent: "on",
      site_web: "",
    });
    expect(asked.status).toBe(303);

    const owner = await signedInPage(openPage, admin.account(), "/admin/reservations", OWNER);
    const requests = owner.getByRole("region", { name: /Demandes à traiter/ });
    await requests.getByRole("link", { name: new RegExp(REQUESTER.name) }).click();
    await owner.getByRole("button", { name: "Accepter la demande" }).click();
    await owner.getByText("Demande acceptée par", { exact: false }).waitFor();
    const accepted = await mailed(
      REQUESTER.email,
      `Votre séance est confirmée : ${slotLabelFr(seen.requested, true)}`,
    );
    expect(accepted.event).toMatchObject({ sequence: 1, status: "CONFIRMED" });
    await closeToasts(owner);

    await owner.getByRole("link", { name: "Agenda", exact: true }).click();
    await owner.getByRole("link", { name: "Ajouter une réservation" }).click();
    await owner.getByRole("heading", { level: 1, name: "Ajouter une réservation" }).waitFor();
    await owner.getByLabel("Studio", { exact: true }).selectOption({ label: "Studio de Brive" });
    await owner.getByLabel("Séance", { exact: true }).selectOption({ label: TYPE });
    await owner.getByLabel("Jour", { exact: true }).fill(seen.firstDay);
    await owner.getByRole("button", { name: "Voir les horaires" }).click();
    const slot = owner.getByRole("radio").first();
    await slot.waitFor();
    seen.byPhone = (await slot.getAttribute("value")) ?? "";
    expect(dayOf(seen.byPhone)).toBe(seen.firstDay);
    await slot.check();
    await owner.getByLabel("Nom", { exact: true }).fill(CALLER.name);
    await owner.getByLabel("Téléphone", { exact: true }).fill("05 55 00 00 00");
    await owner.getByLabel("E-mail (facultatif)", { exact: true }).fill(CALLER.email);
    // The phone booking's page, with the day's free times (checked here only).
    expect(await axeViolations(owner)).toEqual([]);
    await owner.getByRole("button", { name: "Ajouter la réservation" }).click();
    await owner.getByRole("heading", { level: 1, name: CALLER.name }).waitFor();
    await owner.getByText(/Réservée par .* \(prise par téléphone\)/).waitFor();
    await mailed(CALLER.email, `Votre séance est réservée : ${slotLabelFr(seen.byPhone, true)}`);

    expect(await agendaLine(owner, dayOf(seen.requested), REQUESTER.name)).toMatch(/Confirmée$/);
    expect(await agendaLine(owner, seen.firstDay, CALLER.name)).toMatch(/Confirmée$/);
  });

  it("the owner's calendar feed lists every booking, the cancelled one as cancelled", async () => {
    const owner = await signedInPage(
      openPage,
      admin.account(),
      "/admin/reservations/reglages",
      OWNER,
    );
    await owner.getByRole("button", { name: "Générer un nouveau lien" }).click();
    const field = owner.getByRole("textbox", { name: /Copiez-le maintenant/ });
    await field.waitFor();
    const feedUrl = await field.inputValue();
    expect(feedUrl.startsWith(`${url()}/calendrier/`)).toBe(true);
    await closeToasts(owner);
    // The settings page, with its new feed address shown once (checked here only).
    expect(await axeViolations(owner)).toEqual([]);

    // What her phone's calendar fetches.
    const response = await fetch(feedUrl);
    expect(response.status).toBe(200);
    const events = eventsOf(await response.text());
    const byClient = (name: string) =>
      events.find((event) => String(event.summary).endsWith(`— ${name}`));
    expect(byClient(VISITOR.name)).toMatchObject({
      uid: seen.uid,
      sequence: 2,
      status: "CANCELLED",
    });
    expect(byClient(VISITOR.name)?.start.getTime()).toBe(instantOf(seen.movedTo));
    for (const [name, key] of [
      [NO_SCRIPT_VISITOR.name, seen.noScriptBooked],
      [REQUESTER.name, seen.requested],
      [CALLER.name, seen.byPhone],
    ] as const) {
      expect(byClient(name)?.status, name).toBe("CONFIRMED");
      expect(byClient(name)?.start.getTime(), name).toBe(instantOf(key));
    }
    expect(events).toHaveLength(4);
  });
});
