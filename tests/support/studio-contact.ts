import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import type { StudioData } from "../../app/content/schemas";
import { parisToday } from "../../app/lib/dates";
import { listStudios, saveStudio } from "../../app/server/content/content-store.server";
import { closeDatabase, connectDatabase, db } from "../../app/server/db/client.server";
import { contactMessages, rateLimits, redirects } from "../../app/server/db/schema";
import { startServerProcess, type ServerProcess } from "./server-process";
import {
  closeServerDatabase,
  serverCaughtUp,
  serverDatabase,
  targetServer,
} from "./server-under-test";

/**
 * The fields of a server-rendered contact form, as a visitor meets them: name, label text (with its
 * required mark) and whether it is required. The spam trap, hidden from everyone, is left out.
 */
export function formFields(document: Document): Array<readonly [string, string, boolean]> {
  return [...document.querySelectorAll("form[method=post] :is(input, select, textarea)")]
    .filter((control) => !control.closest("[aria-hidden=true]"))
    .map((control) => {
      const label = document.querySelector(`label[for="${control.getAttribute("id")}"]`);
      return [
        control.getAttribute("name") ?? "",
        (label?.textContent ?? "").trim(),
        control.hasAttribute("required"),
      ] as const;
    });
}

/** The values of a select's options in a server-rendered contact form, in order. */
export function optionValues(document: Document, name: string): string[] {
  return [...document.querySelectorAll(`form[method=post] select[name=${name}] option`)].map(
    (option) => option.getAttribute("value") ?? "",
  );
}

/**
 * The contact messages a test file sends to the suite's server: each from an e-mail address of its own
 * (`uniqueEmail`), removed afterwards. The contact limit of the loopback address is cleared before each
 * test, so that the file's sendings never stop one another.
 */
export function useContactMessages() {
  const createdEmails: string[] = [];
  const clearContactRateLimits = () =>
    serverDatabase().delete(rateLimits).where(like(rateLimits.key, "contact:%"));
  beforeEach(clearContactRateLimits);
  afterAll(async () => {
    for (const email of createdEmails) {
      await serverDatabase().delete(contactMessages).where(eq(contactMessages.email, email));
    }
    await clearContactRateLimits();
    await closeServerDatabase();
  });
  return {
    /** A unique address per submission, so each test finds (and removes) its own rows. */
    uniqueEmail() {
      const email = `e2e-contact-${randomBytes(5).toString("hex")}@example.org`;
      createdEmails.push(email);
      return email;
    },
    /** What the server stored from `email`. */
    storedMessages: (email: string) =>
      serverDatabase().select().from(contactMessages).where(eq(contactMessages.email, email)),
  };
}

/** An ISO date `days` after today in Paris. */
function inDays(days: number): string {
  const date = new Date(`${parisToday()}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The closure of the added studio still to come (a past one is stored too, and must say nothing). */
export const tulleClosure = { from: inDays(10), to: inDays(20), label: "congés de Tulle" };

async function tulle(): Promise<StudioData> {
  const brive = (await listStudios()).find((studio) => studio.slug === "brive");
  if (!brive) throw new Error("brive not seeded");
  return {
    ...brive.data,
    name: "Studio de Tulle",
    city: "Tulle",
    description: "Au cœur de Tulle, un studio pour les portraits et les familles.",
    address: { street: "3 quai de la Corrèze", postalCode: "19000", city: "Tulle" },
    phone: "05 36 49 10 04",
    email: "tulle@example.com",
    bookingUrl: "https://rendez-vous.studio-tulle.fr/",
    hours: { Wednesday: [{ opens: "10:00", closes: "17:30" }] },
    closures: [{ from: inDays(-30), to: inDays(-20), label: "passée" }, tulleClosure],
    geo: { latitude: 45.2658, longitude: 1.7722 },
    contactForm: {
      shootingTypes: [
        { value: "portrait-canin", label: "Portrait canin" },
        { value: "famille", label: "Famille" },
      ],
      sources: [{ value: "radio", label: "Radio locale" }],
      telephone: "optional",
      sourceRequired: true,
    },
  };
}

/** A visitor's message to the added studio, the source it requires aside, and the row it must become. */
export const messageToTulle = {
  fields: {
    shootingType: "portrait-canin",
    prenom: "Jeanne",
    nom: "Tulliste",
    email: "jeanne.tulliste@example.org",
    message: "Une séance avec notre chien ?",
  },
  source: "radio",
  stored: { studio: "tulle", shootingType: "portrait-canin", source: "radio", telephone: null },
};

/** The messages stored from `messageToTulle`'s address (the app's `db()`: the added studio's database). */
export const storedMessagesToTulle = () =>
  db().select().from(contactMessages).where(eq(contactMessages.email, messageToTulle.fields.email));

/**
 * Decision 0070: a fourth studio, Tulle, added as the admin saves one (`saveStudio`), with two rows of the
 * `redirects` table, on a server and database of the file's own: on the suite's shared server it would
 * show in the menus and JSON-LD other files compare exactly. The app's `db()` (for the content store), the
 * page helpers of `html.ts` and `serverDatabase()` target that server and its database.
 */
export function useAddedStudio() {
  let server: ServerProcess | undefined;
  let tulleId = "";
  beforeAll(async () => {
    server = await startServerProcess(inject("adminDatabaseUrl"));
    await targetServer(server);
    connectDatabase(server.databaseUrl);
    tulleId = await saveStudio(null, "tulle", await tulle(), { id: "", name: "Test" });
    // Every studio books on a site of its own: the seed's addresses are placeholders, which the pages
    // do not show (decision 0126).
    for (const studio of await listStudios()) {
      if (studio.slug === "tulle") continue;
      const bookingUrl = `https://rendez-vous.studio-${studio.slug}.fr/`;
      await saveStudio(
        studio.id,
        studio.slug,
        { ...studio.data, bookingUrl },
        { id: "", name: "Test" },
      );
    }
    await db()
      .insert(redirects)
      .values([
        { fromPath: "/ancien-studio-tulle", toPath: "/studio-tulle" },
        { fromPath: "/anciens/tulle", toPath: "/contact-studio-tulle" },
      ]);
    await caughtUp();
  }, 120_000);
  afterAll(async () => {
    await closeServerDatabase();
    await closeDatabase();
    await server?.stop();
  });
  const url = () => {
    if (!server) throw new Error("server not started");
    return server.baseUrl;
  };
  /**
   * A change made through the app's `db()` (the content store's) reaches the server by PostgreSQL's
   * notification, as another process's would (decision 0093): wait until it has.
   */
  const caughtUp = () => serverCaughtUp();
  return { url, tulleId: () => tulleId, caughtUp };
}
