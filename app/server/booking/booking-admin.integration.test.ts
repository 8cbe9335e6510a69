import { eq } from "drizzle-orm";
import * as nodeIcal from "node-ical";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { client, studioIds, type SeededStudioIds } from "../../../tests/support/booking";
import {
  applyQuestionIntent,
  newSessionTypeValues,
  parseSessionTypeForm,
  questionField,
  sessionTypeFormValues,
  studioField,
} from "~/lib/booking/session-type-form";
import { db } from "../db/client.server";
import { contentRevisions } from "../db/schema";
import { loadRevisionHistory } from "../content/revision-history.server";
import { agendaBookings, bookingsCsv, bookingsForExport, ownerFreeSlots } from "./agenda.server";
import { cancelBooking, createBooking, moveBooking } from "./bookings.server";
import {
  calendarFeed,
  isCalendarFeedToken,
  renewCalendarFeed,
  revokeCalendarFeed,
} from "./calendar-feed.server";
import {
  findSessionType,
  restoreSessionType,
  saveSessionType,
  SessionTypeError,
  sessionTypeSubject,
  sessionTypeValue,
} from "./session-type-store.server";

useAppDatabase({ jobs: true });

const author = { id: "", name: "Sophie" };
const owner = { actor: "owner", userId: null, name: "Sophie" } as const;
let studio: SeededStudioIds = { ussel: "", brive: "", limoges: "" };
let studioList: string[] = [];

beforeAll(async () => {
  studio = await studioIds();
  studioList = [studio.ussel, studio.brive, studio.limoges];
});

/** A valid form for a new type, with `overrides`. */
function form(overrides: Record<string, string> = {}): Record<string, string> {
  return { ...newSessionTypeValues([studio.brive]), name: "Séance portrait", ...overrides };
}

const parse = (values: Record<string, string>) =>
  parseSessionTypeForm(values, { studioIds: studioList, photoIds: [] });

describe("the session type form", () => {
  it("keeps a new session type's defaults and derives the address from the name", () => {
    const parsed = parse(form());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      slug: "seance-portrait",
      minimumNoticeHours: 24,
      horizonDays: 90,
      stepMinutes: 30,
      mode: "instant",
      visibility: "public",
      studioIds: [studio.brive],
      bookableHours: null,
      depositText: null,
    });
  });

  it("answers each wrong field in French", () => {
    const parsed = parse({
      ...form({ name: "", durationMinutes: "1,5", horizonDays: "0", depositKind: "arrhes" }),
      [studioField(studio.brive)]: "",
      "hours-Monday": "9h–8h",
      questionCount: "1",
      [questionField(0, "kind")]: "choice",
      [questionField(0, "label")]: "Combien d'enfants ?",
      [questionField(0, "options")]: "un seul",
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      name: "Indiquez le nom de la séance",
      durationMinutes: "Un nombre entier, sans virgule",
      horizonDays: "Entre 1 et 730 jours",
      studios: "Cochez au moins un studio",
      depositText: "Indiquez le montant et comment le régler (exemple : 30 € au studio)",
      "hours-Monday": "Lundi : l'heure de fermeture doit suivre l'heure d'ouverture",
      [questionField(0, "options")]: "Au moins deux réponses, une par ligne",
    });
  });

  it("reads hours per weekday: empty keeps the studio's, « fermé » closes the day", () => {
    const parsed = parse(form({ "hours-Saturday": "fermé", "hours-Monday": "14h-18h" }));
    expect(parsed.ok && parsed.value.bookableHours).toEqual({
      Monday: [{ opens: "14:00", closes: "18:00" }],
      Saturday: [],
    });
  });

  it("adds, moves and removes questions keeping what was typed", () => {
    let values: Record<string, string> | null = form({ questionCount: "0" });
    values = applyQuestionIntent(values, "add-question");
    values = applyQuestionIntent(
      { ...values, [questionField(0, "label")]: "Prénom ?" },
      "add-question",
    );
    values = applyQuestionIntent(
      { ...values, [questionField(1, "label")]: "Animal ?" },
      "up-question-1",
    );
    expect(values?.[questionField(0, "label")]).toBe("Animal ?");
    expect(values?.[questionField(1, "label")]).toBe("Prénom ?");
    values = applyQuestionIntent(values ?? {}, "remove-question-0");
    expect(values?.questionCount).toBe("1");
    expect(values?.[questionField(0, "label")]).toBe("Prénom ?");
    expect(values?.name).toBe("Séance portrait");
    expect(applyQuestionIntent(values ?? {}, "remove-question-7")).toBeNull();
  });
});

describe("session types with revisions", () => {
  it("saves a version at each save and restores one, keeping the private link", async () => {
    const first = parse(
      form({
        name: "Séance naissance",
        visibility: "private",
        mode: "request",
        depositKind: "acompte",
        depositText: "50 € au studio",
        questionCount: "1",
        [questionField(0, "kind")]: "yes_no",
        [questionField(0, "label")]: "Premier enfant ?",
        [questionField(0, "required")]: "on",
      }),
    );
    if (!first.ok) throw new Error(JSON.stringify(first.errors));
    const id = await saveSessionType(null, first.value, author);
    const created = await findSessionType(id);
    expect(created?.privateToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(created?.depositText).toBe("Acompte : 50 € au studio");
    expect(created?.questions).toEqual([
      {
        id: "premier-enfant",
        kind: "yes_no",
        label: "Premier enfant ?",
        required: true,
        options: [],
      },
    ]);
    // The form shows what was stored, and saves it again unchanged.
    if (!created) throw new Error("not created");
    const values = sessionTypeFormValues(sessionTypeValue(created));
    expect(values.depositKind).toBe("acompte");
    const again = parse(values);
    expect(again.ok && again.value).toEqual(sessionTypeValue(created));

    const second = parse({
      ...values,
      durationMinutes: "90",
      [questionField(0, "label")]: "Aîné ?",
    });
    if (!second.ok) throw new Error("second save refused");
    await saveSessionType(id, second.value, { id: "", name: "Marie" });
    const changed = await findSessionType(id);
    // The answer's key stays when the question is reworded.
    expect(changed?.questions[0]).toMatchObject({ id: "premier-enfant", label: "Aîné ?" });

    const request = new Request("http://localhost/admin/reservations/seances/x");
    const history = await loadRevisionHistory(sessionTypeSubject(id), request, {
      normalize: (value) => value,
    });
    expect(history.revisions.map((revision) => revision.authorName)).toEqual(["Marie", "Sophie"]);
    expect(history.revisions[0]?.summary).toBe("Séance naissance modifiée");
    const firstRevision = history.revisions[1]?.id ?? "";
    const [stored] = await db()
      .select({ data: contentRevisions.data })
      .from(contentRevisions)
      .where(eq(contentRevisions.id, firstRevision));
    expect(JSON.stringify(stored?.data)).not.toContain(created?.privateToken ?? "none");

    expect(await restoreSessionType(id, firstRevision, author)).toBe(true);
    const restored = await findSessionType(id);
    expect(restored?.durationMinutes).toBe(60);
    expect(restored?.questions[0]?.label).toBe("Premier enfant ?");
    expect(restored?.privateToken).toBe(created?.privateToken);
    // Another type's revision is not this type's.
    expect(await restoreSessionType(id, id, author)).toBe(false);
  });

  it("refuses an address another type has, at the address field", async () => {
    const one = parse(form({ name: "Séance double", slug: "seance-double" }));
    if (!one.ok) throw new Error("refused");
    await saveSessionType(null, one.value, author);
    await expect(saveSessionType(null, one.value, author)).rejects.toBeInstanceOf(SessionTypeError);
  });
});

describe("the owner's calendar feed and the CSV export", () => {
  let typeId = "";
  let bookingId = "";
  let cancelledId = "";

  beforeAll(async () => {
    const parsed = parse(form({ name: "Séance famille", slug: "seance-famille" }));
    if (!parsed.ok) throw new Error("refused");
    typeId = await saveSessionType(null, parsed.value, author);
    const make = async (slot: string, name: string) =>
      createBooking({
        studioId: studio.brive,
        sessionTypeId: typeId,
        slot,
        client: { ...client, name },
        consentAt: null,
        by: owner,
      });
    bookingId = (await make("2030-06-04T10:00", '=Léa; "Martin"')).id;
    cancelledId = (await make("2030-06-05T10:00", "Paul Durand")).id;
    await moveBooking(bookingId, { slot: "2030-06-04T14:00" }, owner);
    await cancelBooking(cancelledId, owner, { message: "Empêchement" });
  });

  it("lists every booking with a stable UID, its SEQUENCE and CANCELLED once cancelled", async () => {
    const ics = await calendarFeed();
    const parsed = nodeIcal.sync.parseICS(ics);
    const events = Object.values(parsed).filter(
      (entry): entry is nodeIcal.VEvent => entry?.type === "VEVENT",
    );
    const moved = events.find((event) => event.uid === `${bookingId}@localhost:3000`);
    const cancelled = events.find((event) => event.uid === `${cancelledId}@localhost:3000`);
    expect(moved).toMatchObject({ sequence: 1, status: "CONFIRMED" });
    expect(moved?.start.toISOString()).toBe("2030-06-04T12:00:00.000Z");
    expect(cancelled).toMatchObject({ sequence: 1, status: "CANCELLED" });
    expect(ics).toContain("Studio de Brive");
  });

  it("opens with its current token only; a new link revokes the old", async () => {
    const first = await renewCalendarFeed(null);
    expect(await isCalendarFeedToken(first)).toBe(true);
    const second = await renewCalendarFeed(null);
    expect(await isCalendarFeedToken(first)).toBe(false);
    expect(await isCalendarFeedToken(second)).toBe(true);
    expect(await isCalendarFeedToken("x")).toBe(false);
    await revokeCalendarFeed();
    expect(await isCalendarFeedToken(second)).toBe(false);
  });

  it("exports the bookings as CSV in Paris time, formulas defused", async () => {
    const csv = bookingsCsv(await bookingsForExport());
    const lines = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      '"debut";"fin";"etat";"seance";"studio";"photographe";"client";"email";"telephone";"reponses";"origine";"creee_le"',
    );
    const moved = lines.find((line) => line.includes("Martin"));
    expect(moved).toContain(
      '"04/06/2030 14:00";"04/06/2030 15:00";"Confirmée";"Séance famille";"Studio de Brive"',
    );
    expect(moved).toContain('"\'=Léa; ""Martin"""');
    expect(lines.find((line) => line.includes("Paul Durand"))).toContain('"Annulée"');
  });

  it("shows the agenda's day and the free times to move to, the booking not in its own way", async () => {
    const day = await agendaBookings("2030-06-04", "2030-06-04");
    expect(day.map((row) => row.id)).toEqual([bookingId]);
    const slots = await ownerFreeSlots({
      studioId: studio.brive,
      sessionTypeId: typeId,
      day: "2030-06-04",
      exceptBookingId: bookingId,
      booking: { durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
    });
    expect(slots.map((slot) => slot.time)).toContain("14:00");
    const without = await ownerFreeSlots({
      studioId: studio.brive,
      sessionTypeId: typeId,
      day: "2030-06-04",
    });
    expect(without.map((slot) => slot.time)).not.toContain("14:00");
  });
});
