import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookings, photographers, sessionTypes, studios } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { formOf, intentButton, plainSpaces, typeInto } from "../support/admin-content";
import { flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

// The owner corrects a booking's client on its page, with JavaScript off: a name typed wrong, an address
// that never reached her, a name the invoices cannot print. Refused input comes back in French with what
// was typed; nobody else may post it.

const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const database = () => serverDatabase();
const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });
const typo = { name: `Léa Matin ${marker}`, email: `lea.matin-${marker}@exemple.test` };
let typeId = "";
let path = "";
let bookingId = "";

beforeAll(async () => {
  const [limoges] = await database()
    .select({ id: studios.id })
    .from(studios)
    .where(eq(studios.slug, "limoges"));
  const [photographer] = await database()
    .select({ id: photographers.id })
    .from(photographers)
    .where(eq(photographers.active, true));
  const [type] = await database()
    .insert(sessionTypes)
    .values({ slug: `coordonnees-${marker}`, name: `Séance ${marker}`, durationMinutes: 60 })
    .returning({ id: sessionTypes.id });
  typeId = type?.id ?? "";
  // A confirmed booking far ahead; a row without occupancies: other files' free times stay free.
  const [booking] = await database()
    .insert(bookings)
    .values({
      sessionTypeId: typeId,
      studioId: limoges?.id ?? "",
      photographerId: photographer?.id ?? "",
      startsAt: new Date("2033-05-10T08:00:00Z"),
      endsAt: new Date("2033-05-10T09:00:00Z"),
      state: "confirmed",
      source: "owner",
      clientName: typo.name,
      clientEmail: typo.email,
      clientPhone: "06 12 34 56 78",
      answers: {},
      manageTokenHash: randomBytes(32).toString("hex"),
    })
    .returning({ id: bookings.id });
  bookingId = booking?.id ?? "";
  path = `/admin/reservations/${bookingId}`;
});

afterAll(async () => {
  await database().delete(bookings).where(eq(bookings.sessionTypeId, typeId));
  await database().delete(sessionTypes).where(eq(sessionTypes.id, typeId));
});

const stored = async () =>
  (await database().select().from(bookings).where(eq(bookings.id, bookingId)))[0];

/** The client's details form, opened by « Modifier » as the page links it. */
async function clientForm() {
  const booking = await page(path);
  const open = booking.document.querySelector('main a[href*="coordonnees=1"]');
  expect(textOf(open)).toBe("Modifier les coordonnées du client");
  return formOf(
    await page(open?.getAttribute("href") ?? ""),
    "section[aria-labelledby=coordonnees] form",
  );
}

describe("the client's details on a booking's page", () => {
  it("opens a form prefilled with the client's details from « Modifier »", async () => {
    const form = await clientForm();
    const value = (name: string) => form.querySelector(`[name="${name}"]`)?.getAttribute("value");
    expect(value("name")).toBe(typo.name);
    expect(value("email")).toBe(typo.email);
    expect(value("phone")).toBe("06 12 34 56 78");
    expect(form.querySelector('[name="sendRecap"]')?.hasAttribute("checked")).toBe(true);
    expect(textOf(form.querySelector('label[for="champ-name"]'))).toBe("Nom");
    expect(textOf(intentButton(form, "client"))).toBe("Enregistrer les coordonnées");
    // Checked by the server, whose answer is in French under its field, not by the browser's bubble.
    expect(form.hasAttribute("novalidate")).toBe(true);
  });

  it("refuses a wrong e-mail and a name the invoices cannot print with a 400 in French, keeping what was typed", async () => {
    const typed = { name: `Léa ✨ ${marker}`, email: "lea.martin@", phone: "05 55 00 00 00" };
    const form = typeInto(await clientForm(), { ...typed, sendRecap: false });
    const answer = await pressButton(path, intentButton(form, "client"), {
      cookie: admin.cookie(),
    });
    expect(answer.status).toBe(400);
    const main = plainSpaces(textOf(answer.document.querySelector("main")));
    expect(main).toContain(
      "Ces caractères ne peuvent pas être imprimés sur la facture : ✨. Retirez-les ou remplacez-les.",
    );
    const emailError = answer.document.querySelector("#champ-email-erreur");
    expect(textOf(emailError)).toContain(
      "Indiquez une adresse e-mail valide, ou laissez le champ vide.",
    );
    const kept = formOf(answer, "section[aria-labelledby=coordonnees] form");
    const value = (name: string) => kept.querySelector(`[name="${name}"]`)?.getAttribute("value");
    expect([value("name"), value("email"), value("phone")]).toEqual([
      typed.name,
      typed.email,
      typed.phone,
    ]);
    expect(kept.querySelector('[name="sendRecap"]')?.hasAttribute("checked")).toBe(false);
    expect(await stored()).toMatchObject({ clientName: typo.name, clientEmail: typo.email });
  });

  it("refuses a post without an administrator's session", async () => {
    const anonymous = await postForm(path, {
      intent: "client",
      name: "Quelqu'un d'autre",
      email: "intrus@exemple.test",
      phone: "",
    });
    expect(anonymous.status).toBe(401);
    expect((await stored())?.clientName).toBe(typo.name);
  });

  it("saves a correction: back to the page with its toast, the new name and its history line", async () => {
    const fixed = { name: `Léa Martin ${marker}`, email: typo.email };
    const form = typeInto(await clientForm(), { name: fixed.name });
    const saved = await pressButton(path, intentButton(form, "client"), {
      cookie: admin.cookie(),
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(path);
    expect(flashedToast(saved.headers)?.title).toBe("Coordonnées enregistrées");
    const after = await page(path);
    expect(textOf(after.document.querySelector("main h1"))).toBe(fixed.name);
    expect(plainSpaces(textOf(after.document.querySelector("main")))).toContain(
      `Coordonnées du client corrigées par vous : nom « ${typo.name} » → « ${fixed.name} »`,
    );
    expect(await stored()).toMatchObject({ clientName: fixed.name, clientEmail: fixed.email });

    // The same again: nothing to record.
    const again = await pressButton(path, intentButton(await clientForm(), "client"), {
      cookie: admin.cookie(),
    });
    expect(flashedToast(again.headers)?.title).toBe("Aucune modification");
  });
});
