import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { insertSessionVoucher, voucherState } from "../support/booking-vouchers";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { mailParts } from "../support/smtp-capture";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { formatVoucherCode, generateVoucherCode } from "~/lib/vouchers/code";
import { VOUCHER_CODE_RATE_LIMIT } from "~/server/booking/visitor-form.server";

// A session voucher redeemed on the booking form, with JavaScript off (decision 0170): in the booking's own
// transaction, refused in French at the field with everything typed kept, once whatever the race, given
// back by a cancellation in time; wrong codes limited per visitor address.

const { received } = useOwnServerWithMail({
  // Each post comes from an address of its own (X-Forwarded-For): the per-visitor limits are its own.
  TRUST_PROXY: "loopback",
});
const admin = useAdmin();

const DAYS = "/reserver/brive/portrait-bon";
let visitor = 0;
const from = (address = `198.51.100.${(++visitor % 250) + 1}`) => ({
  headers: { "X-Forwarded-For": address },
});
const uniqueEmail = () => `bon-${randomBytes(4).toString("hex")}@example.test`;
const details = (overrides: Record<string, string> = {}) => ({
  name: "Élodie Françoise",
  email: uniqueEmail(),
  phone: "06 12 34 56 78",
  consent: "on",
  site_web: "",
  ...overrides,
});

const ids = { portrait: "", other: "", brive: "", limoges: "" };

beforeAll(async () => {
  const database = serverDatabase();
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  const studios = await database.execute<{ id: string; slug: string }>(
    sql`select id, slug from studios`,
  );
  ids.brive = studios.rows.find((row) => row.slug === "brive")?.id ?? "";
  ids.limoges = studios.rows.find((row) => row.slug === "limoges")?.id ?? "";
  const types = await database.execute<{ id: string; slug: string }>(sql`
    insert into session_types (slug, name, duration_minutes, minimum_notice_hours, step_minutes, horizon_days, cancellation_cutoff_hours)
    values ('portrait-bon', 'Portrait bon', 30, 0, 30, 60, 0),
           ('autre-bon', 'Séance Iris', 30, 0, 30, 60, 0)
    returning id, slug`);
  ids.portrait = types.rows.find((row) => row.slug === "portrait-bon")?.id ?? "";
  ids.other = types.rows.find((row) => row.slug === "autre-bon")?.id ?? "";
  await database.execute(sql`
    insert into session_type_studios (session_type_id, studio_id)
    select t.id, s.id from session_types t, studios s
    where t.slug in ('portrait-bon', 'autre-bon') and s.slug = 'brive'`);
});

/** The details form's addresses of the first `count` free times, walking the free days in order. */
async function freeTimes(count: number): Promise<string[]> {
  const hrefs: string[] = [];
  const today = isoDayInParis(new Date());
  for (let offset = 0; offset < 60 && hrefs.length < count; offset++) {
    const day = await fetchPage(`${DAYS}?jour=${addParisDays(today, offset)}`);
    for (const link of day.document.querySelectorAll('a[href*="coordonnees?creneau="]')) {
      const href = link.getAttribute("href") ?? "";
      if (!hrefs.includes(href)) hrefs.push(href);
      if (hrefs.length === count) break;
    }
  }
  if (hrefs.length < count) throw new Error(`only ${hrefs.length} free times`);
  return hrefs;
}

const voucher = (options: Partial<Parameters<typeof insertSessionVoucher>[0]> = {}) =>
  insertSessionVoucher(
    { sessionTypeId: ids.portrait, studioId: ids.brive, ...options },
    serverDatabase(),
  );

const bookingsOf = async (email: string) =>
  (
    await serverDatabase().execute<{ id: string }>(
      sql`select id from bookings where client_email = ${email}`,
    )
  ).rows;

const fieldOf = (page: FetchedPage, name: string) =>
  page.document.querySelector(`[name="${name}"]`)?.getAttribute("value");

const mailsTo = (address: string) =>
  received().filter((mail) => mail.to.includes(address.toLowerCase()));

describe("the gift voucher's code on the booking form", () => {
  it("is offered only while a session voucher could pay this session", async () => {
    const [href = ""] = await freeTimes(1);
    await serverDatabase().execute(
      sql`update vouchers set status = 'cancelled' where session_type_id = ${ids.portrait}::uuid and status = 'active'`,
    );
    const without = await fetchPage(href);
    expect(without.document.querySelector('input[name="voucherCode"]')).toBeNull();
    await voucher();
    const form = await fetchPage(href);
    const input = form.document.querySelector('input[name="voucherCode"]');
    expect(input).not.toBeNull();
    const label = form.document.querySelector(`label[for="${input?.getAttribute("id")}"]`);
    expect(textOf(label)).toBe("Code du bon cadeau (facultatif)");
  });

  it("books with a valid code: the voucher used by that booking, « Réglée par bon cadeau » on its page and in its e-mail", async () => {
    const { id, code } = await voucher();
    const [href = ""] = await freeTimes(1);
    const fields = details({ voucherCode: code.toLowerCase().replaceAll("-", " ") });
    const answer = await postForm(href, fields, from());
    expect(answer.status).toBe(303);
    const [booking] = await bookingsOf(fields.email);
    const state = await voucherState(id, serverDatabase());
    expect(state.status).toBe("used");
    expect(state.balanceCents).toBe(0);
    expect(state.uses.map((use) => [use.bookingId, use.by, use.cancelledAt])).toEqual([
      [booking?.id, "client", null],
    ]);
    const page = await fetchPage(answer.headers.get("location") ?? "");
    expect(textOf(page.document.querySelector("main"))).toContain(`Réglée par bon cadeau ${code}`);
    await expect.poll(() => mailsTo(fields.email).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const [mail] = mailsTo(fields.email);
    expect(mailParts(mail?.raw ?? "").text).toContain(`Réglée par bon cadeau ${code}`);
    // The owner's e-mail and her booking's page say it too.
    const ownerMail = () =>
      received().find(
        (each) =>
          !each.to.includes(fields.email) && mailParts(each.raw).text.includes(fields.email),
      );
    await expect.poll(ownerMail, { timeout: 15_000 }).toBeDefined();
    expect(mailParts(ownerMail()?.raw ?? "").text).toContain(`Réglée par bon cadeau ${code}`);
    const agenda = await fetchPage(`/admin/reservations/${booking?.id}`, {
      cookie: admin.cookie(),
    });
    expect(agenda.status).toBe(200);
    expect(textOf(agenda.document.querySelector("main"))).toContain(
      `Réglée par bon cadeau ${code}`,
    );
  });

  it("refuses a code of another session, another studio, expired, used, unknown or mistyped: a French reason at the field, no booking, nothing typed lost", async () => {
    const yesterday = addParisDays(isoDayInParis(new Date()), -1);
    const cases: [string, string][] = [
      [
        (await voucher({ sessionTypeId: ids.other })).code,
        "Ce bon offre une autre séance (Séance Iris)",
      ],
      [
        (await voucher({ studioId: ids.limoges })).code,
        "Ce bon n'est valable que dans un autre studio",
      ],
      [(await voucher({ expiresOn: yesterday })).code, "Ce bon a expiré le"],
      [(await voucher({ status: "expired", expiresOn: yesterday })).code, "Ce bon a expiré le"],
      [(await voucher({ status: "used" })).code, "Ce bon a déjà été utilisé."],
      [(await voucher({ status: "cancelled" })).code, "Ce bon a été annulé."],
      ["0000-0000-0000", "Ce code ne correspond à aucun bon cadeau"],
      ["7K3Q-M2XD-9PT", "Ce code est incomplet"],
    ];
    const [href = ""] = await freeTimes(1);
    for (const [code, reason] of cases) {
      const fields = details({ voucherCode: code });
      const answer = await postForm(href, fields, from());
      expect(answer.status, code).toBe(400);
      const input = answer.document.querySelector('input[name="voucherCode"]');
      expect(input?.getAttribute("value"), code).toBe(code);
      expect(input?.getAttribute("aria-invalid"), code).toBe("true");
      // The reason is the field's own error, tied to it for assistive technologies.
      const described = (input?.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .map((id) => textOf(answer.document.getElementById(id)))
        .join(" ");
      expect(described, code).toContain(reason);
      for (const name of ["name", "email", "phone"]) {
        expect(fieldOf(answer, name), `${code} ${name}`).toBe(fields[name as keyof typeof fields]);
      }
      expect(await bookingsOf(fields.email), code).toEqual([]);
    }
    // The time stayed free for a booking without a code.
    expect((await postForm(href, details(), from())).status).toBe(303);
  });

  it("a slot someone else just took leaves the voucher untouched", async () => {
    const { id, code } = await voucher();
    const [href = ""] = await freeTimes(1);
    expect((await postForm(href, details(), from())).status).toBe(303);
    const late = await postForm(href, details({ voucherCode: code }), from());
    expect(late.status).toBe(409);
    expect(fieldOf(late, "voucherCode")).toBe(code);
    const state = await voucherState(id, serverDatabase());
    expect(state.status).toBe("active");
    expect(state.uses).toEqual([]);
  });

  it(`after ${VOUCHER_CODE_RATE_LIMIT.limit} wrong codes from one address: a French 429, even for a right one`, async () => {
    const address = "192.0.2.77";
    const [href = ""] = await freeTimes(1);
    for (let attempt = 0; attempt < VOUCHER_CODE_RATE_LIMIT.limit; attempt++) {
      const wrong = await postForm(href, details({ voucherCode: "0000-0000-0000" }), from(address));
      expect(wrong.status).toBe(400);
    }
    const { id, code } = await voucher();
    const fields = details({ voucherCode: code });
    const limited = await postForm(href, fields, from(address));
    expect(limited.status).toBe(429);
    expect(textOf(limited.document.querySelector("main"))).toContain(
      "Trop de codes de bon cadeau erronés depuis cette connexion",
    );
    expect(fieldOf(limited, "voucherCode")).toBe(code);
    expect(fieldOf(limited, "name")).toBe(fields.name);
    expect((await voucherState(id, serverDatabase())).status).toBe("active");
    // Another visitor is not held back, and a booking without a code is not either.
    expect((await postForm(href, details(), from(address))).status).toBe(303);
    const [other = ""] = await freeTimes(1);
    expect((await postForm(other, details({ voucherCode: code }), from())).status).toBe(303);
  });

  it(`${VOUCHER_CODE_RATE_LIMIT.limit} made-up codes looked up when 40 come at once from one address, the others a French 429`, async () => {
    const address = "192.0.2.78";
    const [href = ""] = await freeTimes(1);
    const guesses = Array.from({ length: 40 }, () => formatVoucherCode(generateVoucherCode()));
    const answers = await Promise.all(
      guesses.map((code) => postForm(href, details({ voucherCode: code }), from(address))),
    );
    const statuses = answers.map((answer) => answer.status);
    const lookedUp = answers.filter((answer) =>
      textOf(answer.document.querySelector("main")).includes(
        "Ce code ne correspond à aucun bon cadeau",
      ),
    );
    expect(lookedUp).toHaveLength(VOUCHER_CODE_RATE_LIMIT.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      40 - VOUCHER_CODE_RATE_LIMIT.limit,
    );
    for (const [index, answer] of answers.entries()) {
      if (answer.status !== 429) continue;
      expect(textOf(answer.document.querySelector("main"))).toContain(
        "Trop de codes de bon cadeau erronés depuis cette connexion",
      );
      expect(fieldOf(answer, "voucherCode")).toBe(guesses[index]);
    }
    // The refused ones counted, the others given back: the counter is at the limit, not beyond.
    const counter = await serverDatabase().execute<{ count: number }>(
      sql`select count from rate_limits where key = ${`booking-voucher:${address}`}`,
    );
    expect(counter.rows[0]?.count).toBe(VOUCHER_CODE_RATE_LIMIT.limit);
  });

  it("a right code's count is given back: it never brings the address nearer the limit", async () => {
    const address = "192.0.2.79";
    const hrefs = await freeTimes(2);
    for (let attempt = 1; attempt < VOUCHER_CODE_RATE_LIMIT.limit; attempt++) {
      const wrong = await postForm(
        hrefs[0] ?? "",
        details({ voucherCode: "0000-0000-0000" }),
        from(address),
      );
      expect(wrong.status).toBe(400);
    }
    const { code } = await voucher();
    expect(
      (await postForm(hrefs[1] ?? "", details({ voucherCode: code }), from(address))).status,
    ).toBe(303);
    // The limit's last wrong code is still looked up.
    const last = await postForm(
      hrefs[0] ?? "",
      details({ voucherCode: "0000-0000-0000" }),
      from(address),
    );
    expect(last.status).toBe(400);
  });

  it("the QR code printed on a voucher leads to its session's booking page, vouchers on sale or not; a guess to the contacts", async () => {
    // Vouchers are not on sale on this site: the order form is a 404.
    expect((await fetchPage("/bons-cadeaux")).status).toBe(404);
    const { code } = await voucher({ studioId: null });
    // voucherPdfOf prints `${site}/bons-cadeaux?code=${code}` as the QR code's link.
    const scanned = await fetchPage(`/bons-cadeaux?code=${code}`, from());
    expect(scanned.status).toBe(303);
    expect(scanned.headers.get("location")).toBe(DAYS);
    const [href = ""] = await freeTimes(1);
    const form = await fetchPage(href);
    expect(form.document.querySelector('[name="voucherCode"]')).not.toBeNull();

    const guess = await fetchPage(
      `/bons-cadeaux?code=${formatVoucherCode(generateVoucherCode())}`,
      from(),
    );
    expect(guess.status).toBe(303);
    expect(guess.headers.get("location")).toBe("/contact");
    expect((await fetchPage("/contact")).status).toBe(200);
  });

  it("50 bookings of different times at once with one code: exactly one booking uses it", async () => {
    const { id, code } = await voucher();
    const hrefs = await freeTimes(50);
    const emails = hrefs.map(() => uniqueEmail());
    const answers = await Promise.all(
      hrefs.map((href, index) =>
        postForm(href, details({ email: emails[index] ?? "", voucherCode: code }), from()),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    for (const answer of answers.filter((page) => page.status === 400)) {
      expect(textOf(answer.document.querySelector("main"))).toContain("Ce bon a déjà été utilisé.");
    }
    const made = await serverDatabase().execute<{ id: string }>(
      sql`select id from bookings where client_email in ${sql.raw(`(${emails.map((email) => `'${email}'`).join(", ")})`)}`,
    );
    expect(made.rows).toHaveLength(1);
    const state = await voucherState(id, serverDatabase());
    expect(state.status).toBe("used");
    expect(state.uses.map((use) => use.bookingId)).toEqual([made.rows[0]?.id]);
  });

  it("cancelling the booking in time from the client's page gives the voucher back", async () => {
    const { id, code } = await voucher();
    const [href = ""] = await freeTimes(1);
    const booked = await postForm(href, details({ voucherCode: code }), from());
    expect(booked.status).toBe(303);
    const path = new URL(booked.headers.get("location") ?? "", "http://x").pathname;
    expect((await voucherState(id, serverDatabase())).status).toBe("used");
    const cancelled = await postForm(path, { intent: "cancel" }, from());
    expect(cancelled.status).toBe(303);
    const state = await voucherState(id, serverDatabase());
    expect(state.status).toBe("active");
    expect(state.balanceCents).toBe(15_000);
    expect(state.uses).toHaveLength(1);
    expect(state.uses[0]?.cancelledAt).not.toBeNull();
    const page = await fetchPage(path);
    expect(textOf(page.document.querySelector("main"))).not.toContain("Réglée par bon cadeau");
    // Usable again for another booking.
    const [again = ""] = await freeTimes(1);
    expect((await postForm(again, details({ voucherCode: code }), from())).status).toBe(303);
  });
});
