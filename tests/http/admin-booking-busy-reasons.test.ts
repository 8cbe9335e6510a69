import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { plainSpaces } from "../support/admin-content";
import { fetchPage, postForm, textOf } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

// Decision 0123: beside a day's free times, the owner reads why the other times are not free: where each
// photographer of the studio is, with the travel back. Her own server: the photographer added here would
// take bookings other files make.

useOwnServer();
const admin = useAdmin();

/** A Tuesday far ahead: the studios are open 9h–12h and 14h–18h. */
const DAY = "2031-01-07";
let typeId = "";
let ussel = "";
let brive = "";

beforeAll(async () => {
  const database = serverDatabase();
  const ids = await database.execute<{ id: string; slug: string }>(
    sql`select id, slug from studios where slug in ('ussel', 'brive')`,
  );
  ussel = ids.rows.find((row) => row.slug === "ussel")?.id ?? "";
  brive = ids.rows.find((row) => row.slug === "brive")?.id ?? "";
  await database.execute(sql`update photographers set name = 'Claire'`);
  await database.execute(sql`
    update travel_times set minutes = 75
    where (studio_a, studio_b) = (least(${ussel}::uuid, ${brive}::uuid), greatest(${ussel}::uuid, ${brive}::uuid))`);
  const types = await database.execute<{ id: string }>(sql`
    insert into session_types (slug, name, duration_minutes, minimum_notice_hours, step_minutes, horizon_days)
    values ('raisons-test', 'Portrait raisons', 75, 0, 15, 30) returning id`);
  typeId = types.rows[0]?.id ?? "";
  await database.execute(sql`
    insert into session_type_studios (session_type_id, studio_id)
    values (${typeId}::uuid, ${ussel}::uuid), (${typeId}::uuid, ${brive}::uuid)`);
});

describe("the owner's phone booking page", () => {
  it("says where the studio's photographer is when a time is not free", async () => {
    const booked = await postForm(
      `/admin/reservations/nouvelle?studio=${brive}&seance=${typeId}&jour=${DAY}`,
      {
        studioId: brive,
        sessionTypeId: typeId,
        slotTime: `${DAY}T10:00`,
        name: "Léa Martin",
        email: "lea@example.test",
        phone: "06 12 34 56 78",
      },
      { cookie: admin.cookie() },
    );
    expect(booked.status).toBe(302);
    const page = await fetchPage(
      `/admin/reservations/nouvelle?studio=${ussel}&seance=${typeId}&jour=${DAY}`,
      { cookie: admin.cookie() },
    );
    expect(page.status).toBe(200);
    const text = plainSpaces(textOf(page.document.querySelector("main")));
    expect(text).toContain("Ce qui occupe ce jour-là");
    expect(text).toContain(
      "Claire est au Studio de Brive de 10 h à 11 h 15 (1 h 15 de trajet jusqu'ici)",
    );
  });
});
