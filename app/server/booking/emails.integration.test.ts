import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  client,
  insertSessionType,
  studioIds,
  type SeededStudioIds,
} from "../../../tests/support/booking";
import { mailAttachments, startSmtpCapture } from "../../../tests/support/smtp-capture";
import { db } from "../db/client.server";
import { bookingReminders, bookings, invoices } from "../db/schema";
import { startWorkers } from "../boot/jobs.server";
import { purgeOldBookings } from "./retention.server";
import { issueInvoice } from "../invoices/issue.server";
import { invoiceSellerForTests } from "../../../tests/support/seller";
import {
  acceptRequest,
  cancelBooking,
  createBooking,
  declineRequest,
  expireLapsedRequests,
  findBookingByManageToken,
  moveBooking,
  type NewBooking,
} from "./bookings.server";
import { parisDateTimeInputValue } from "~/lib/dates";
import { clientBookingEmail } from "./emails.server";
import { loadDocument, saveDocument } from "../content/content-store.server";
import { sendDueReminders } from "./reminders.server";

// The e-mails of online booking as they leave through the queue to a real SMTP server on loopback: what
// the client and the owner read, the `.ics` (UID, SEQUENCE, STATUS, CRLF, folding), the personal link of
// every e-mail, reminders sent once, and the retention of bookings.

useAppDatabase({ jobs: true });

let capture: Awaited<ReturnType<typeof startSmtpCapture>>;
let studio: SeededStudioIds = { ussel: "", brive: "", limoges: "" };
let portrait = "";
let request = "";
const owner = { actor: "owner", userId: null, name: "Sophie" } as const;
/** Monday 4 January 2027, 09:00 in Paris. */
const NOW = new Date("2027-01-04T08:00:00Z");
const HOUR = 3_600_000;

beforeAll(async () => {
  capture = await startSmtpCapture();
  await startWorkers({
    mail: { url: capture.smtpUrl, from: "Studio <site@example.com>", ratePerMinute: 6000 },
    photoWorkers: 0,
  });
  studio = await studioIds();
  portrait = await insertSessionType([studio.brive], { name: "Séance portrait" });
  request = await insertSessionType([studio.brive], {
    name: "Séance nouveau-né",
    mode: "request",
    responseDeadlineHours: 24,
  });
});
afterAll(async () => {
  await capture.close();
});

let counter = 0;
const uniqueClient = () => ({ ...client, email: `client-${++counter}@example.test` });
const book = (slot: string, overrides: Partial<NewBooking> = {}) =>
  createBooking({
    studioId: studio.brive,
    sessionTypeId: portrait,
    slot,
    client: uniqueClient(),
    consentAt: NOW,
    now: NOW,
    ...overrides,
  });

const mailsTo = (address: string) => capture.received.filter((mail) => mail.to.includes(address));

/** The unfolded properties of the single VEVENT of an `.ics`, and the file's own lines. */
function readIcs(text: string) {
  expect(text).toMatch(/\r\n$/);
  const lines = text.split("\r\n").slice(0, -1);
  for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  const unfolded = text.replace(/\r\n /g, "").split("\r\n");
  const property = (name: string) =>
    unfolded
      .find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`))
      ?.replace(/^[^:]+:/, "");
  return { property, unfolded };
}

function icsOf(mail: { raw: string }) {
  const [ics] = mailAttachments(mail.raw).filter((file) => file.type === "text/calendar");
  expect(ics?.filename).toBe("seance.ics");
  return readIcs(ics?.text ?? "");
}

describe("a booking's e-mails", () => {
  it("tell the client (details, address, phone, link, .ics) and the owner, once each", async () => {
    const made = await book("2027-01-12T10:00");
    const email =
      (await db().select().from(bookings).where(eq(bookings.id, made.id)))[0]?.clientEmail ?? "";
    await expect.poll(() => mailsTo(email).length).toBe(1);
    const [mail] = mailsTo(email);
    expect(mail?.subject).toBe("Votre séance est réservée : mardi 12 janvier 2027 à 10\u00A0h");
    expect(mail?.text).toContain("Séance : Séance portrait (1\u00A0h)");
    expect(mail?.text).toContain("Où : Studio de Brive");
    expect(mail?.text).toContain("Téléphone du studio :");
    expect(mail?.text).toContain(
      `Voir, déplacer ou annuler votre séance (jusqu'au dimanche 10 janvier 2027 à 10\u00A0h) : http://localhost:3000/reservation/${made.manageToken}`,
    );
    expect(mail?.text).toContain(
      "Le fichier joint ajoute la séance à votre agenda (et la met à jour).",
    );
    // The seller, under the client's e-mail (decision 0176).
    expect(mail?.text).toContain(
      "Studio Photo Exemple SARL, Société à responsabilité limitée (SARL) au capital de 1 000 €, 19 rue du 4 Septembre, 19200 Ussel · RCS Brive 000 000 000 · SIRET 000 000 000 00000 · TVA non applicable, art. 293 B du CGI",
    );
    expect(mail?.html).toContain("TVA non applicable, art. 293 B du CGI");
    const ics = icsOf(mail ?? { raw: "" });
    expect(ics.property("ATTENDEE")).toMatch(/^mailto:client-\d+@example\.test$/i);
    expect(ics.property("UID")).toBe(`${made.id}@localhost:3000`);
    expect(ics.property("SEQUENCE")).toBe("0");
    expect(ics.property("STATUS")).toBe("CONFIRMED");
    expect(ics.property("METHOD")).toBe("REQUEST");
    expect(ics.property("DTSTART")).toBe("20270112T090000Z");
    expect(ics.property("DTEND")).toBe("20270112T100000Z");
    expect(ics.property("SUMMARY")).toBe("Séance portrait – Studio de Brive");
    // The owner is told of each booking made by a client, at the studio's address.
    await expect
      .poll(
        () =>
          capture.received.filter((each) =>
            each.subject.startsWith("Nouvelle réservation : Léa Martin, mardi 12 janvier"),
          ).length,
      )
      .toBe(1);
  });

  it("move: the same UID, SEQUENCE + 1, the same personal link; cancel: STATUS:CANCELLED", async () => {
    const made = await book("2027-01-13T10:00");
    const email = (await findBookingByManageToken(made.manageToken))?.clientEmail ?? "";
    await expect.poll(() => mailsTo(email).length).toBe(1);
    await moveBooking(made.id, { slot: "2027-01-13T15:00" }, { actor: "client" }, NOW);
    await expect.poll(() => mailsTo(email).length).toBe(2);
    const moved = mailsTo(email)[1];
    expect(moved?.subject).toBe("Votre séance est déplacée : mercredi 13 janvier 2027 à 15\u00A0h");
    expect(moved?.text).toContain(`/reservation/${made.manageToken}`);
    const movedIcs = icsOf(moved ?? { raw: "" });
    expect(movedIcs.property("UID")).toBe(`${made.id}@localhost:3000`);
    expect(movedIcs.property("SEQUENCE")).toBe("1");
    expect(movedIcs.property("DTSTART")).toBe("20270113T140000Z");
    // The owner reads the old time beside the new one, a link to that booking, and its .ics (decision 0125).
    const ownerSubject =
      "Réservation déplacée par le client : Léa Martin, mercredi 13 janvier 2027 à 15\u00A0h";
    await expect
      .poll(() => capture.received.filter((each) => each.subject === ownerSubject).length)
      .toBe(1);
    const ownerMail = capture.received.find((each) => each.subject === ownerSubject);
    expect(ownerMail?.text).toContain(
      "Quand : mercredi 13 janvier 2027 à 15\u00A0h (au lieu du mercredi 13 janvier 2027 à 10\u00A0h)",
    );
    expect(ownerMail?.text).toContain(
      `La réservation : http://localhost:3000/admin/reservations/${made.id}`,
    );
    expect(ownerMail?.html).toContain(`href="http://localhost:3000/admin/reservations/${made.id}"`);
    const ownerIcs = icsOf(ownerMail ?? { raw: "" });
    expect(ownerIcs.property("UID")).toBe(`${made.id}@localhost:3000`);
    expect(ownerIcs.property("METHOD")).toBe("PUBLISH");
    expect(ownerIcs.property("DTSTART")).toBe("20270113T140000Z");

    await cancelBooking(made.id, { actor: "client" }, { now: NOW });
    await expect.poll(() => mailsTo(email).length).toBe(3);
    const cancelled = mailsTo(email)[2];
    expect(cancelled?.subject).toBe("Séance annulée : mercredi 13 janvier 2027 à 15\u00A0h");
    const cancelledIcs = icsOf(cancelled ?? { raw: "" });
    expect(cancelledIcs.property("SEQUENCE")).toBe("2");
    expect(cancelledIcs.property("STATUS")).toBe("CANCELLED");
    expect(cancelledIcs.property("METHOD")).toBe("CANCEL");
    await expect
      .poll(
        () =>
          capture.received.filter((each) =>
            each.subject.startsWith("Réservation annulée par le client"),
          ).length,
      )
      .toBe(1);
  });

  it("a request: received (TENTATIVE), accepted (CONFIRMED, SEQUENCE 1); another declined with the owner's message", async () => {
    const asked = await book("2027-01-14T10:00", { sessionTypeId: request });
    const email = (await findBookingByManageToken(asked.manageToken))?.clientEmail ?? "";
    await expect.poll(() => mailsTo(email).length).toBe(1);
    expect(mailsTo(email)[0]?.subject).toBe(
      "Demande de séance reçue : jeudi 14 janvier 2027 à 10\u00A0h",
    );
    expect(icsOf(mailsTo(email)[0] ?? { raw: "" }).property("STATUS")).toBe("TENTATIVE");
    // The owner's e-mail leads to that request, to accept or decline it there (decision 0125).
    const ownerSubject =
      "Nouvelle demande de séance (à accepter ou refuser) : Léa Martin, jeudi 14 janvier 2027 à 10\u00A0h";
    await expect
      .poll(() => capture.received.filter((each) => each.subject === ownerSubject).length)
      .toBe(1);
    const ownerMail = capture.received.find((each) => each.subject === ownerSubject);
    const admin = `http://localhost:3000/admin/reservations/${asked.id}`;
    expect(ownerMail?.text).toContain(`Accepter : ${admin}\nRefuser : ${admin}?refuser=1`);
    expect(ownerMail?.html).toContain(`href="${admin}"`);
    expect(ownerMail?.html).toContain(`href="${admin}?refuser=1"`);
    expect(icsOf(ownerMail ?? { raw: "" }).property("STATUS")).toBe("TENTATIVE");
    await acceptRequest(asked.id, owner, NOW);
    await expect.poll(() => mailsTo(email).length).toBe(2);
    expect(mailsTo(email)[1]?.subject).toBe(
      "Votre séance est confirmée : jeudi 14 janvier 2027 à 10\u00A0h",
    );
    const accepted = icsOf(mailsTo(email)[1] ?? { raw: "" });
    expect(accepted.property("STATUS")).toBe("CONFIRMED");
    expect(accepted.property("SEQUENCE")).toBe("1");

    const other = await book("2027-01-15T10:00", { sessionTypeId: request });
    const otherEmail = (await findBookingByManageToken(other.manageToken))?.clientEmail ?? "";
    await declineRequest(other.id, owner, { message: "Le studio est fermé ce jour-là.", now: NOW });
    await expect.poll(() => mailsTo(otherEmail).length).toBe(2);
    const declined = mailsTo(otherEmail)[1];
    expect(declined?.subject).toBe("Votre demande de séance n'a pas pu être acceptée");
    expect(declined?.text).toContain("Message du studio : « Le studio est fermé ce jour-là. »");
    expect(icsOf(declined ?? { raw: "" }).property("STATUS")).toBe("CANCELLED");
  });

  it("a request left unanswered expires at its deadline: the client (CANCELLED, with a way back) and the owner are told once", async () => {
    const asked = await book("2027-01-19T10:00", { sessionTypeId: request });
    const email = (await findBookingByManageToken(asked.manageToken))?.clientEmail ?? "";
    await expect.poll(() => mailsTo(email).length).toBe(1);
    // An hour before its deadline nothing happens; just after it, it expires, once.
    expect(await expireLapsedRequests(new Date(NOW.getTime() + 23 * HOUR))).toBe(0);
    const lapsedAt = new Date(NOW.getTime() + 24 * HOUR + 60_000);
    expect(await expireLapsedRequests(lapsedAt)).toBe(1);
    expect(await expireLapsedRequests(lapsedAt)).toBe(0);

    await expect.poll(() => mailsTo(email).length).toBe(2);
    const expired = mailsTo(email)[1];
    expect(expired?.subject).toBe("Votre demande de séance n'a pas reçu de réponse à temps");
    expect(expired?.text).toContain(
      "Le studio n'a pas pu répondre à temps à votre demande du mardi 19 janvier 2027 à 10\u00A0h",
    );
    expect(expired?.text).toContain("État : Demande expirée");
    expect(expired?.text).toContain("Le fichier joint retire la séance de votre agenda.");
    const ics = icsOf(expired ?? { raw: "" });
    expect(ics.property("STATUS")).toBe("CANCELLED");
    expect(ics.property("SEQUENCE")).toBe("1");
    await expect
      .poll(() =>
        capture.received.filter((each) =>
          each.subject.startsWith("Demande expirée sans réponse : "),
        ),
      )
      .toHaveLength(1);
    // Too late to accept it: the owner reads why.
    await expect(acceptRequest(asked.id, owner, lapsedAt)).rejects.toMatchObject({
      code: "expired",
      status: 409,
    });
    const stored = await findBookingByManageToken(asked.manageToken);
    expect(stored?.state).toBe("expired");
  });

  it("past the online cut-off, the link only shows the session; a late request is answered before it starts", async () => {
    // Taken by phone for tomorrow (the cut-off is 48 h): the client calls to change it.
    const tomorrow = new Date(Date.now() + 26 * HOUR);
    const slot = parisDateTimeInputValue(tomorrow).slice(0, 11) + "10:00";
    const email = `bientot-${++counter}@example.test`;
    await createBooking({
      studioId: studio.brive,
      sessionTypeId: portrait,
      slot,
      client: { ...client, email },
      consentAt: null,
      by: owner,
    });
    await expect.poll(() => mailsTo(email).length).toBe(1);
    const soon = mailsTo(email)[0];
    expect(soon?.text).toMatch(
      /Voir votre séance \(pour la modifier, appelez le studio au [^)]+\) : http/,
    );
    expect(soon?.text).not.toContain("déplacer ou annuler");
    expect(soon?.html).toContain("Voir ma séance");

    // A request 13 h ahead, its type's deadline 24 h: the answer comes before the session starts.
    const asked = await book("2027-01-27T10:00", {
      sessionTypeId: request,
      now: new Date("2027-01-26T20:00:00Z"),
    });
    const askedEmail = (await findBookingByManageToken(asked.manageToken))?.clientEmail ?? "";
    await expect.poll(() => mailsTo(askedEmail).length).toBe(1);
    expect(mailsTo(askedEmail)[0]?.text).toContain(
      "Le studio vous répond avant le début de la séance ; ce créneau vous est réservé d'ici là.",
    );
  });

  it("give the session's price and « ce qui est compris »: its price card's when it is that card's offer (decision 0127)", async () => {
    const linked = await insertSessionType([studio.brive], {
      name: "Séance famille du tarif",
      priceText: "129 €",
      includedText: "Ce que le type disait",
    });
    const prices = await loadDocument("prices");
    const card = prices.tabs[0]?.cards.find((candidate) => candidate.title === "Séance Famille");
    if (!card) throw new Error("no « Séance Famille » card");
    card.sessionType = linked;
    await saveDocument("prices", prices, { id: "", name: "Test" }, "Carte liée");
    const booked = await book("2027-01-28T10:00", { sessionTypeId: linked });
    const email = (await findBookingByManageToken(booked.manageToken))?.clientEmail ?? "";
    await expect.poll(() => mailsTo(email).length).toBe(1);
    const text = mailsTo(email)[0]?.text ?? "";
    expect(text).toContain("Tarif : 79\u00a0€");
    expect(text).toContain(
      "Ce qui est compris : Séance de 45 min à 1 h en studio ; Un tirage papier 20x30 cm offert ; Découverte de vos photos 10 jours après la séance",
    );
    expect(text).not.toContain("129 €");

    // A type no card names keeps what the owner typed on it.
    const own = await insertSessionType([studio.brive], {
      priceText: "45 €",
      includedText: "Une heure au studio\n5 photos retouchées",
    });
    const other = await book("2027-01-28T14:00", { sessionTypeId: own });
    const otherEmail = (await findBookingByManageToken(other.manageToken))?.clientEmail ?? "";
    await expect.poll(() => mailsTo(otherEmail).length).toBe(1);
    expect(mailsTo(otherEmail)[0]?.text).toContain("Tarif : 45 €");
    expect(mailsTo(otherEmail)[0]?.text).toContain(
      "Ce qui est compris : Une heure au studio ; 5 photos retouchées",
    );
  });

  it("escapes text and folds long lines in the .ics", async () => {
    const email = `long-${++counter}@example.test`;
    const made = await book("2027-01-26T10:00", {
      client: {
        name: "Zoé; Martin, « la grande » avec un nom très long pour plier la ligne",
        email,
        phone: "",
      },
    });
    await expect.poll(() => mailsTo(email).length).toBe(1);
    const ics = icsOf(mailsTo(email)[0] ?? { raw: "" });
    expect(ics.property("DESCRIPTION")).toContain("Téléphone du studio :");
    expect(ics.property("DESCRIPTION")).toContain("\\n");
    expect(ics.property("LOCATION")).toContain("\\,");
    expect(ics.property("URL")).toBe(`http://localhost:3000/reservation/${made.manageToken}`);
  });
});

describe("reminders", () => {
  it("go 48 h and 2 h before a confirmed session, each once; never for one cancelled or made inside the window", async () => {
    const soon = await book("2027-01-20T10:00");
    const gone = await book("2027-01-20T14:00");
    await cancelBooking(gone.id, owner, { now: NOW });
    const lateNow = new Date("2027-01-19T10:00:00Z");
    const late = await book("2027-01-20T16:00", { now: lateNow });
    const email = (await findBookingByManageToken(soon.manageToken))?.clientEmail ?? "";
    const lateEmail = (await findBookingByManageToken(late.manageToken))?.clientEmail ?? "";

    // 47 h before the first: its 48 h reminder, once however many runs.
    const at48 = new Date(soon.startsAt.getTime() - 47 * HOUR);
    expect(await sendDueReminders(at48)).toBe(1);
    expect(await sendDueReminders(at48)).toBe(0);
    await expect
      .poll(() => mailsTo(email).map((mail) => mail.subject))
      .toContain("Rappel : votre séance approche (mercredi 20 janvier 2027 à 10\u00A0h)");
    // 1 h 30 before: the 2 h one; the late booking (made 22 h before) gets only its own 2 h one later.
    const at2 = new Date(soon.startsAt.getTime() - 1.5 * HOUR);
    expect(await sendDueReminders(at2)).toBe(1);
    expect(await sendDueReminders(at2)).toBe(0);
    await expect
      .poll(() => mailsTo(email).filter((mail) => mail.subject.startsWith("Rappel")).length)
      .toBe(2);
    const rows = await db()
      .select()
      .from(bookingReminders)
      .where(eq(bookingReminders.bookingId, gone.id));
    expect(rows).toEqual([]);
    expect(await sendDueReminders(new Date(late.startsAt.getTime() - 1.5 * HOUR))).toBe(1);
    await expect
      .poll(() => mailsTo(lateEmail).map((mail) => mail.subject))
      .toEqual([
        "Votre séance est réservée : mercredi 20 janvier 2027 à 16\u00A0h",
        "Rappel : votre séance aujourd'hui (mercredi 20 janvier 2027 à 16\u00A0h)",
      ]);
  });

  it("says nothing when the booking was cancelled or moved after its reminder was queued", async () => {
    const made = await book("2027-01-21T10:00");
    const job = {
      bookingId: made.id,
      event: "reminder-48h" as const,
      startsAt: made.startsAt.toISOString(),
    };
    expect(await clientBookingEmail(job)).not.toBeNull();
    await moveBooking(made.id, { slot: "2027-01-21T11:00" }, owner, NOW);
    expect(await clientBookingEmail(job)).toBeNull();
    await cancelBooking(made.id, owner, { now: NOW });
    expect(
      await clientBookingEmail({
        ...job,
        startsAt: new Date(made.startsAt.getTime() + HOUR).toISOString(),
      }),
    ).toBeNull();
  });
});

describe("a booking the owner takes without e-mail (decision 0138)", () => {
  it("sends its client nothing: no confirmation, no reminder, nothing when it is moved or cancelled", async () => {
    const silent = await book("2027-02-16T10:00", {
      by: owner,
      consentAt: null,
      notifyClient: false,
    });
    const silentEmail = (await findBookingByManageToken(silent.manageToken))?.clientEmail ?? "";
    const withoutAddress = await book("2027-02-16T14:00", {
      by: owner,
      consentAt: null,
      client: { name: "Jeanne Sans-Mail", email: "", phone: "05 55 00 00 00" },
    });
    const told = await book("2027-02-16T16:00", { by: owner, consentAt: null });
    const toldEmail = (await findBookingByManageToken(told.manageToken))?.clientEmail ?? "";

    // The reminders of that day: only the booking that e-mails its client has one.
    expect(await sendDueReminders(new Date(told.startsAt.getTime() - 47 * HOUR))).toBe(1);
    await moveBooking(silent.id, { slot: "2027-02-16T11:00" }, owner, NOW);
    await cancelBooking(withoutAddress.id, owner, { now: NOW });
    for (const id of [silent.id, withoutAddress.id]) {
      expect(
        await clientBookingEmail({ bookingId: id, event: "booked" }),
        "nothing to write to this client",
      ).toBeNull();
    }
    await expect
      .poll(() => mailsTo(toldEmail).filter((mail) => mail.subject.startsWith("Rappel")).length)
      .toBe(1);
    expect(mailsTo(silentEmail)).toEqual([]);
  });
});

describe("retention", () => {
  it("erases bookings 18 months after their session, with their history, and keeps the others", async () => {
    const old = await book("2027-01-22T10:00");
    const kept = await book("2027-01-22T14:00");
    await db().execute(
      sql`update bookings set starts_at = now() - interval '19 months 1 hour', ends_at = now() - interval '19 months', updated_at = now() - interval '19 months' where id = ${old.id}::uuid`,
    );
    expect(await purgeOldBookings(db())).toBe(1);
    expect(await findBookingByManageToken(old.manageToken)).toBeNull();
    expect((await findBookingByManageToken(kept.manageToken))?.id).toBe(kept.id);
    const events = await db().execute<{ count: number }>(
      sql`select count(*)::int as count from booking_events where booking_id = ${old.id}::uuid`,
    );
    expect(events.rows[0]?.count).toBe(0);
  });

  it("keeps a booking's invoices, with their own copy of the client, when the booking is erased", async () => {
    const old = await book("2027-01-23T10:00");
    const invoice = await db().transaction((tx) =>
      issueInvoice(tx, {
        kind: "sale",
        bookingId: old.id,
        serviceDate: "2027-01-23",
        seller: invoiceSellerForTests,
        buyer: { name: "Inès Bonnet", email: "ines@example.test", address: null },
        lines: [{ label: "Séance portrait", quantity: 1, unitPriceCents: 15_000, vatRate: null }],
        paymentTerms: "Payée au studio.",
      }),
    );
    await db().execute(
      sql`update bookings set starts_at = now() - interval '19 months 1 hour', ends_at = now() - interval '19 months', updated_at = now() - interval '19 months' where id = ${old.id}::uuid`,
    );
    expect(await purgeOldBookings(db())).toBe(1);
    expect(await findBookingByManageToken(old.manageToken)).toBeNull();
    // Kept 10 years (decision 0177): the invoice, its client as invoiced, the booking's id as a reference.
    const [kept] = await db().select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(kept).toMatchObject({
      bookingId: old.id,
      buyer: { name: "Inès Bonnet", email: "ines@example.test" },
      ttcCents: 15_000,
    });
  });
});
