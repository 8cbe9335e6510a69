import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import {
  formOf,
  labelled,
  storedDocument,
  typeInto,
  useDocumentsRestored,
  intentButton,
} from "../support/admin-content";
import { pressButton } from "../support/admin-forms";
import { firstFreeTime } from "../support/booking";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

// Impossible dates in addresses and forms (decision 0122): the days page and the move view without a chosen
// day, a slot in year 9999 refused in French before any query, the admin's agenda at today, a phone booking
// and the gendarmerie offer refused with a French message. Never a 500.

useOwnServer({ TRUST_PROXY: "loopback" });
const admin = useAdmin();
const original = useDocumentsRestored(["gendarmerie"] as const);

const TYPE = "dates-impossibles";
const DAYS_PAGE = `/reserver/brive/${TYPE}`;
let visitor = 0;
const from = () => ({ headers: { "X-Forwarded-For": `198.51.100.${++visitor}` } });
let typeId = "";
let brive = "";
let managePath = "";
let adminBookingPath = "";

const main = (page: FetchedPage) => textOf(page.document.querySelector("main"));

beforeAll(async () => {
  const database = serverDatabase();
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  const types = await database.execute<{ id: string }>(sql`
    insert into session_types (slug, name, description, duration_minutes, minimum_notice_hours, step_minutes, horizon_days, cancellation_cutoff_hours, price_text)
    values (${TYPE}, 'Dates impossibles', 'Une heure au studio.', 60, 0, 60, 30, 0, '120 €')
    returning id`);
  typeId = types.rows[0]?.id ?? "";
  const studios = await database.execute<{ id: string }>(
    sql`select id from studios where slug = 'brive'`,
  );
  brive = studios.rows[0]?.id ?? "";
  await database.execute(
    sql`insert into session_type_studios (session_type_id, studio_id) values (${typeId}::uuid, ${brive}::uuid)`,
  );
  const { href } = await firstFreeTime(DAYS_PAGE);
  const booked = await postForm(
    href,
    {
      name: "Léa Martin",
      email: `dates-${randomBytes(4).toString("hex")}@example.test`,
      phone: "06 12 34 56 78",
      consent: "on",
      site_web: "",
    },
    from(),
  );
  expect(booked.status).toBe(303);
  managePath = (booked.headers.get("location") ?? "").split("?")[0] ?? "";
  const [row] = (
    await database.execute<{ id: string }>(
      sql`select id from bookings where session_type_id = ${typeId}::uuid`,
    )
  ).rows;
  adminBookingPath = `/admin/reservations/${row?.id ?? ""}`;
});

const IMPOSSIBLE_DAYS = ["jour=2026-12-32", "du=2026-00-10", "jour=0000-00-00", "du=9999-12-31"];

describe("an impossible day in the address is no day chosen", () => {
  it.each(IMPOSSIBLE_DAYS)("the days page with %s", async (query) => {
    const page = await fetchPage(`${DAYS_PAGE}?${query}`);
    expect(page.status).toBe(200);
    // The next free days, and no day's times.
    expect(page.document.querySelector('a[href*="jour="]')).not.toBeNull();
    expect(page.document.querySelector('a[href*="coordonnees?creneau="]')).toBeNull();
  });

  it.each(IMPOSSIBLE_DAYS)("the client's move view with %s", async (query) => {
    const page = await fetchPage(`${managePath}?deplacer=1&${query}`);
    expect(page.status).toBe(200);
    expect(page.document.querySelector('a[href*="jour="]')).not.toBeNull();
  });

  it.each(["jour", "semaine", "liste"])(
    "the admin's agenda (%s) at 0001-01-01 and 9999-12-31",
    async (view) => {
      for (const date of ["0001-01-01", "9999-12-31", "2026-02-30"]) {
        const page = await fetchPage(`/admin/reservations?vue=${view}&date=${date}`, {
          cookie: admin.cookie(),
        });
        expect(page.status, date).toBe(200);
        expect(main(page)).not.toContain(date);
      }
    },
  );
});

describe("a time in year 9999 is refused in French", () => {
  const slot = "9999-12-31T10:00";

  it("on the details form, shown and posted", async () => {
    const path = `${DAYS_PAGE}/coordonnees?creneau=${slot}`;
    const shown = await fetchPage(path);
    expect(shown.status).toBe(400);
    expect(main(shown)).toContain("Cette date ou cette heure n'existe pas.");
    const posted = await postForm(
      path,
      {
        name: "Léa Martin",
        email: "annee-9999@example.test",
        phone: "06 12 34 56 78",
        consent: "on",
        site_web: "",
      },
      from(),
    );
    expect(posted.status).toBe(400);
    expect(main(posted)).toContain("Cette date ou cette heure n'existe pas.");
  });

  it("past the type's horizon, a real time is refused before anything is booked", async () => {
    const posted = await postForm(
      `${DAYS_PAGE}/coordonnees?creneau=2999-12-31T10:00`,
      {
        name: "Léa Martin",
        email: "annee-2999@example.test",
        phone: "06 12 34 56 78",
        consent: "on",
        site_web: "",
      },
      from(),
    );
    expect(posted.status).toBe(400);
    expect(main(posted)).toContain("trop loin dans le temps");
  });

  it("as a client's move", async () => {
    const moved = await postForm(managePath, { intent: "move", creneau: slot }, from());
    expect([400, 409]).toContain(moved.status);
    expect(main(moved)).toContain("Cette date ou cette heure n'existe pas.");
  });

  it("as a phone booking, and as the owner's move", async () => {
    const booking = await postForm(
      `/admin/reservations/nouvelle?studio=${brive}&seance=${typeId}`,
      {
        studioId: brive,
        sessionTypeId: typeId,
        slotTime: slot,
        name: "Paul Martin",
        email: "paul@example.test",
        phone: "06 00 00 00 00",
      },
      { cookie: admin.cookie() },
    );
    expect(booking.status).toBe(400);
    expect(main(booking)).toContain("Cette date ou cette heure n'existe pas.");
    // Posted from the move step (`?deplacer=1`), where the page says what went wrong.
    const moved = await postForm(
      `${adminBookingPath}?deplacer=1`,
      { intent: "move", slotTime: slot, studioId: brive },
      { cookie: admin.cookie() },
    );
    expect(moved.status).toBe(400);
    expect(main(moved)).toContain("Cette date ou cette heure n'existe pas.");
  });
});

describe("the gendarmerie offer's dates", () => {
  it("refuses 0000-00-00 with a French message, keeping what was typed", async () => {
    const form = formOf(await fetchPage("/admin/tarifs/gendarmerie", { cookie: admin.cookie() }));
    const nameOf = (label: string) => labelled(form, label).getAttribute("name") ?? "";
    const answer = await pressButton(
      "/admin/tarifs/gendarmerie",
      intentButton(
        typeInto(form, {
          [nameOf("Début de l'offre (facultatif)")]: "0000-00-00",
          [nameOf("Fin de l'offre, incluse (facultative)")]: "0000-00-00",
        }),
        "save",
      ),
      { cookie: admin.cookie() },
    );
    expect(answer.status).toBe(400);
    expect(main(answer)).toContain("Date invalide");
    expect((await storedDocument("gendarmerie")).offer).toEqual(original("gendarmerie").offer);
  });
});
