import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { activeVoucher } from "../support/admin-sales";
import { prepareDepositSite } from "../support/booking-deposits";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { fetchPage, postForm, textOf } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";

// A booking with a deposit, JavaScript off (decision 0186): the page says arrhes or acompte and what it
// means, the post makes the booking wait for its transfer on the order's page, with the amount the server
// computes; every refusal is French, at its field, nothing typed lost, never a 5xx. By card, the form posted
// twice leads both posts to the same checkout (the fake Stripe's).

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51BookingDepositTwice00000000" });
});
afterAll(async () => {
  await fake.close();
});
useOwnServer(() => ({ TRUST_PROXY: "loopback", ...siteStripeEnv(fake) }));
const admin = useAdmin();

const DAYS = "/reserver/brive/portrait-arrhes";
let visitor = 0;
const from = () => ({ headers: { "X-Forwarded-For": `203.0.113.${(++visitor % 250) + 1}` } });
const details = (overrides: Record<string, string> = {}) => ({
  name: "Élodie Françoise",
  email: `arrhes-${randomBytes(4).toString("hex")}@example.test`,
  phone: "06 12 34 56 78",
  consent: "on",
  site_web: "",
  ...overrides,
});

/** The session type's deposit as the file starts: 30 € of arrhes, by transfer or at the studio. */
const ARRHES_30 = {
  amount: "fixed",
  value: 3_000,
  priceCents: null,
  nature: "arrhes",
  methods: ["transfer", "studio"],
  transferHours: 48,
  refundAtOnce: false,
};

beforeAll(async () => {
  const database = serverDatabase();
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  await database.execute(sql`
    insert into session_types (slug, name, duration_minutes, minimum_notice_hours, step_minutes, horizon_days, deposit)
    values ('portrait-arrhes', 'Portrait arrhes', 30, 0, 30, 60, ${JSON.stringify(ARRHES_30)}::jsonb)`);
  await database.execute(sql`
    insert into session_type_studios (session_type_id, studio_id)
    select t.id, s.id from session_types t, studios s
    where t.slug = 'portrait-arrhes' and s.slug = 'brive'`);
  await setTransfer(true);
});

/** The owner's transfers on or off, her bank details given (the settings require them for transfers). */
async function setTransfer(on: boolean) {
  await serverDatabase().execute(sql`
    update site_documents set data = data || ${JSON.stringify({
      transfer: on,
      transferHolder: "Studio Lumière",
      transferIban: "FR7630006000011234567890189",
    })}::jsonb where key = 'payments'`);
}

async function freeTime(): Promise<string> {
  const today = isoDayInParis(new Date());
  for (let offset = 1; offset < 30; offset++) {
    const day = await fetchPage(`${DAYS}?jour=${addParisDays(today, offset)}`);
    const link = day.document.querySelector('a[href*="coordonnees?creneau="]');
    if (link) return link.getAttribute("href") ?? "";
  }
  throw new Error("no free time");
}

describe("a booking with arrhes", () => {
  it("says what is paid and what arrhes mean, and offers the methods the owner allows", async () => {
    const page = await fetchPage(await freeTime());
    expect(page.status).toBe(200);
    const text = textOf(page.document.querySelector("form"));
    expect(text).toContain("Arrhes de 30 €");
    expect(text).toContain("si le studio annule, il vous rend le double");
    expect(text).toContain("L214-1");
    const methods = [...page.document.querySelectorAll('input[name="paymentMethod"]')].map(
      (input) => input.getAttribute("value"),
    );
    expect(methods).toEqual(["transfer", "studio"]);
  });

  it("waits for its transfer on the order's page, at the server's amount whatever is posted", async () => {
    const fields = details({ paymentMethod: "transfer", amount: "1", amountCents: "100" });
    const answer = await postForm(await freeTime(), fields, from());
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/commande\/[A-Za-z0-9_-]+$/);
    const order = await fetchPage(location);
    expect(order.status).toBe(200);
    expect(textOf(order.document.body)).toContain("Arrhes : Portrait arrhes du");
    // Her booking's page says what the studio owes if it cancels as the arrhes' meaning does: twice.
    const bookingHref = [...order.document.querySelectorAll("a")]
      .find((link) => textOf(link) === "Voir ma réservation")
      ?.getAttribute("href");
    const booking = textOf((await fetchPage(bookingHref ?? "")).document.body);
    expect(booking).toContain("si le studio annule, il vous rend le double");
    expect(booking).toContain(
      "Annulée par le studio, elle vous est remboursée et le studio vous doit la même somme en plus : le double des arrhes.",
    );
    expect(booking).not.toContain("elle vous est remboursée en entier");
    const rows = await serverDatabase().execute<{
      state: string;
      amount: number;
      kind: string;
    }>(sql`
      select b.state, o.amount_cents as amount, o.kind from bookings b
      join orders o on o.id = b.deposit_order_id where b.client_email = ${fields.email}`);
    expect(rows.rows).toEqual([
      { state: "awaiting_payment", amount: 3_000, kind: "booking_deposit" },
    ]);
  });

  it("refuses a method the owner does not allow, in French, keeping what was typed", async () => {
    const fields = details({ paymentMethod: "cheque" });
    const answer = await postForm(await freeTime(), fields, from());
    expect(answer.status).toBe(400);
    expect(answer.html).toContain("Choisissez l&#x27;un des moyens de paiement proposés.");
    expect(answer.html).toContain(fields.email);
  });

  it("refuses a card while the owner accepts no cards, in French", async () => {
    const rule = {
      amount: "full",
      value: 0,
      priceCents: 12_000,
      nature: "acompte",
      methods: ["card", "transfer"],
      transferHours: 48,
      refundAtOnce: true,
    };
    await serverDatabase().execute(
      sql`update session_types set deposit = ${JSON.stringify(rule)}::jsonb where slug = 'portrait-arrhes'`,
    );
    try {
      const href = await freeTime();
      const form = await fetchPage(href);
      const text = textOf(form.document.querySelector("form"));
      expect(text).toContain("Acompte de 120 €");
      expect(text).toContain("engage définitivement");
      // The owner's payment settings accept no card: the page offers none, the server takes none.
      expect(form.document.querySelector('input[name="paymentMethod"][value="card"]')).toBeNull();
      const answer = await postForm(href, details({ paymentMethod: "card" }), from());
      expect(answer.status).toBe(400);
      expect(answer.html).toContain("Le paiement par carte n&#x27;est pas proposé pour le moment");
    } finally {
      await serverDatabase().execute(
        sql`update session_types set deposit = jsonb_set(deposit, '{methods}', '["transfer", "studio"]') where slug = 'portrait-arrhes'`,
      );
    }
  });

  it("refuses a transfer while the owner takes none: no order page with empty bank details", async () => {
    await setTransfer(false);
    try {
      const href = await freeTime();
      const form = await fetchPage(href);
      expect(
        form.document.querySelector('input[name="paymentMethod"][value="transfer"]'),
      ).toBeNull();
      const fields = details({ paymentMethod: "transfer" });
      const answer = await postForm(href, fields, from());
      expect(answer.status).toBe(400);
      expect(answer.html).toContain(
        "Le paiement par virement n&#x27;est pas proposé pour le moment : choisissez un autre moyen, ou appelez le studio.",
      );
      expect(answer.html).toContain(fields.email);
      const made = await serverDatabase().execute(
        sql`select id from bookings where client_email = ${fields.email}`,
      );
      expect(made.rows).toEqual([]);
    } finally {
      await setTransfer(true);
    }
  });

  it("whose ways of paying the owner all turned off: the page says to call the studio, the owner's settings warn her", async () => {
    // A time chosen while she took transfers, a page kept open.
    const href = await freeTime();
    // Cards off (the file's settings) and transfers turned off since the type was made.
    const rule = { ...ARRHES_30, methods: ["card", "transfer"] };
    await serverDatabase().execute(
      sql`update session_types set deposit = ${JSON.stringify(rule)}::jsonb where slug = 'portrait-arrhes'`,
    );
    await setTransfer(false);
    try {
      // Said before she chooses a day: no time offered that leads nowhere.
      const days = await fetchPage(DAYS);
      expect(days.document.querySelector('a[href*="coordonnees?creneau="]')).toBeNull();
      expect(textOf(days.document.querySelector("main"))).toContain(
        "Cette séance ne se réserve pas en ligne pour le moment",
      );
      const form = await fetchPage(href);
      const main = textOf(form.document.querySelector("main"));
      // No choice that every post would refuse (« choisissez un autre moyen »): what to do instead.
      expect(form.document.querySelector('input[name="paymentMethod"]')).toBeNull();
      expect(form.document.querySelector('input[name="email"]')).toBeNull();
      expect(main).toContain(
        "Cette séance ne se réserve pas en ligne pour le moment : les arrhes de 30 € demandées à la réservation ne peuvent pas être réglées sur le site.",
      );
      expect(main).toMatch(/Appelez le studio au \S/);
      const fields = details({ paymentMethod: "transfer" });
      const answer = await postForm(href, fields, from());
      expect(answer.status).toBe(409);
      expect(textOf(answer.document.querySelector("main"))).toContain(
        "Cette séance ne se réserve pas en ligne pour le moment",
      );
      const made = await serverDatabase().execute(
        sql`select id from bookings where client_email = ${fields.email}`,
      );
      expect(made.rows).toEqual([]);

      const settings = textOf(
        (
          await fetchPage("/admin/reglages/paiement", { cookie: admin.cookie() })
        ).document.querySelector("main"),
      );
      expect(settings).toContain(
        "« Portrait arrhes » demande des arrhes par carte ou par virement, que vous ne prenez pas en ce moment : elle ne se réserve plus en ligne (sa page invite à appeler le studio).",
      );
      // The same warning on the type's own page, where she edits its ways of paying.
      const type = await serverDatabase().execute<{ id: string }>(
        sql`select id from session_types where slug = 'portrait-arrhes'`,
      );
      const typePage = await fetchPage(`/admin/reservations/seances/${String(type.rows[0]?.id)}`, {
        cookie: admin.cookie(),
      });
      const warning = typePage.document.querySelector('main [role="status"]');
      expect(textOf(warning)).toBe(
        "Cette séance demande des arrhes par carte ou par virement, que vous ne prenez pas en ce moment : elle ne se réserve plus en ligne (sa page invite à appeler le studio). Acceptez l'un de ces moyens dans vos réglages de paiement, ou ajoutez « Au studio » aux moyens de cette séance ci-dessous.",
      );
      expect(warning?.querySelector('a[href="/admin/reglages/paiement"]')).not.toBeNull();
    } finally {
      await setTransfer(true);
      await serverDatabase().execute(
        sql`update session_types set deposit = ${JSON.stringify(ARRHES_30)}::jsonb where slug = 'portrait-arrhes'`,
      );
    }
  });

  it("« sur demande », asked by transfer, then transfers turned off: the owner is told before accepting, and the arrhes go to the studio", async () => {
    await serverDatabase().execute(
      sql`update session_types set mode = 'request', response_deadline_hours = 24 where slug = 'portrait-arrhes'`,
    );
    try {
      const fields = details({ paymentMethod: "transfer" });
      const asked = await postForm(await freeTime(), fields, from());
      expect([302, 303]).toContain(asked.status);
      const made = await serverDatabase().execute<{ id: string }>(
        sql`select id from bookings where client_email = ${fields.email}`,
      );
      const page = `/admin/reservations/${made.rows[0]?.id ?? ""}`;
      // Transfers turned off before she answers: her page says what accepting does instead.
      await setTransfer(false);
      const before = textOf(
        (await fetchPage(page, { cookie: admin.cookie() })).document.querySelector("main"),
      );
      expect(before).toContain(
        "La cliente a choisi de payer ses arrhes par virement, ce que vous ne prenez plus en ce moment (vos réglages de paiement) : en acceptant, la séance est confirmée et ses arrhes se règlent au studio.",
      );
      const accepted = await postForm(page, { intent: "accept" }, { cookie: admin.cookie() });
      expect([302, 303]).toContain(accepted.status);
      // No transfer asked with bank details the studio no longer gives: confirmed, paid at the studio.
      const state = await serverDatabase().execute<{ state: string }>(
        sql`select state from bookings where client_email = ${fields.email}`,
      );
      expect(state.rows[0]?.state).toBe("confirmed");
    } finally {
      await setTransfer(true);
      await serverDatabase().execute(
        sql`update session_types set mode = 'instant' where slug = 'portrait-arrhes'`,
      );
    }
  });

  it("refuses a time in the past in French, never a server error", async () => {
    const yesterday = addParisDays(isoDayInParis(new Date()), -1);
    const answer = await postForm(
      `/reserver/brive/portrait-arrhes/coordonnees?creneau=${yesterday}T10:00`,
      details({ paymentMethod: "transfer" }),
      from(),
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(textOf(answer.document.body)).toMatch(/passé|plus disponible/);
  });
});

describe("a booking whose arrhes an amount voucher pays (decision 0199)", () => {
  it("offers the code's field, takes the arrhes from the voucher and confirms at once; a short balance refused in French", async () => {
    // An earlier test left a 120 € acompte: this one's voucher pays the 30 € of arrhes.
    await serverDatabase().execute(
      sql`update session_types set deposit = ${JSON.stringify(ARRHES_30)}::jsonb where slug = 'portrait-arrhes'`,
    );
    const voucher = await activeVoucher("Élodie Françoise", 5_000);
    const code = formatVoucherCode(voucher.code);
    const href = await freeTime();
    const form = await fetchPage(href);
    const input = form.document.querySelector('input[name="voucherCode"]');
    expect(input).not.toBeNull();
    expect(
      textOf(
        form.document.getElementById(input?.getAttribute("aria-describedby")?.split(" ")[0] ?? ""),
      ),
    ).toContain("un bon d'un montant règle la somme demandée d'avance");

    const fields = details({ voucherCode: code });
    const answer = await postForm(href, fields, from());
    expect(answer.status, textOf(answer.document.querySelector("form"))).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/reservation\//);
    const page = textOf((await fetchPage(location)).document.querySelector("main"));
    expect(page.replace(/[\u00a0\u202f]/g, " ")).toContain(
      `Arrhes de 30 € réglées par le bon cadeau ${code}.`,
    );
    const [row] = (
      await serverDatabase().execute<{ state: string; balance: number; orders: number }>(sql`
        select b.state, v.balance_cents as balance,
          (select count(*)::int from orders o where o.id = b.deposit_order_id) as orders
        from bookings b, vouchers v where b.client_email = ${fields.email} and v.id = ${voucher.id}`)
    ).rows;
    expect(row).toEqual({ state: "confirmed", balance: 2_000, orders: 0 });

    // 20 € left: the next booking's 30 € are refused at the field, what was typed kept.
    const short = details({ voucherCode: code });
    const refused = await postForm(await freeTime(), short, from());
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.body).replace(/[\u00a0\u202f]/g, " ")).toContain(
      "Ce bon ne couvre pas les 30 € à régler d'avance : il ne reste que 20 € sur ce bon.",
    );
    expect(refused.document.querySelector('input[name="voucherCode"]')?.getAttribute("value")).toBe(
      code,
    );
    expect(refused.document.querySelector('input[name="email"]')?.getAttribute("value")).toBe(
      short.email,
    );
  });
});

describe("a booking with arrhes by card", () => {
  beforeAll(() => prepareDepositSite("probe-arrhes"));

  /** A free time of the card type's, its form's fields with the key read from the page. */
  async function cardForm(overrides: Record<string, string> = {}) {
    const today = isoDayInParis(new Date());
    let path = "";
    for (let offset = 1; offset < 40 && !path; offset++) {
      const day = await fetchPage(
        `/reserver/brive/probe-arrhes?jour=${addParisDays(today, offset)}`,
      );
      path =
        day.document.querySelector('a[href*="coordonnees?creneau="]')?.getAttribute("href") ?? "";
    }
    const form = await fetchPage(path);
    const cle = form.document.querySelector('input[name="cle"]')?.getAttribute("value") ?? "";
    return { path, fields: details({ paymentMethod: "card", cle, ...overrides }) };
  }

  const bookingsOf = async (email: string) =>
    (
      await serverDatabase().execute<{ state: string }>(
        sql`select state from bookings where client_email = ${email}`,
      )
    ).rows;

  it("leads both posts to the same checkout, with one booking waiting for its payment", async () => {
    const { path, fields } = await cardForm();
    const visitor = from();
    const first = await postForm(path, fields, visitor);
    const second = await postForm(path, fields, visitor);
    expect(first.status).toBe(303);
    expect(new URL(first.headers.get("location") ?? "").origin).toBe(fake.pageOrigin);
    expect({ status: second.status, location: second.headers.get("location") }).toEqual({
      status: 303,
      location: first.headers.get("location"),
    });
    expect(await bookingsOf(fields.email)).toEqual([{ state: "awaiting_payment" }]);
  });

  it("says a card payment taken for another total was received, never to pay or book again, before and after its window", async () => {
    const { path, fields } = await cardForm();
    const placed = await postForm(path, fields, from());
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    const orderPath = new URL(String(fake.session(sessionId)?.success_url)).pathname;
    // The provider took 1 € for arrhes of 30 €: held for the owner (decision 0172), nothing applied.
    await fake.pay(sessionId, { amountTotal: 100 });
    await expect
      .poll(async () => {
        const rows = await serverDatabase().execute<{ status: string }>(
          sql`select status from payment_attempts where provider_reference = ${sessionId}`,
        );
        return rows.rows[0]?.status;
      })
      .toBe("held");
    const held = PAYMENT_HELD_MESSAGE;
    const bookingHref =
      [...(await fetchPage(orderPath)).document.querySelectorAll("a")]
        .find((link) => textOf(link) === "Voir ma réservation")
        ?.getAttribute("href") ?? "";
    const readBoth = async () => ({
      order: textOf((await fetchPage(orderPath)).document.body),
      booking: textOf((await fetchPage(bookingHref)).document.body),
    });
    // The owner's booking page and her agenda's day: the money came and waits for her on the order.
    const [placedRow] = (
      await serverDatabase().execute<{ id: string; starts_at: string; order_id: string }>(
        sql`select id, starts_at::text, deposit_order_id::text as order_id from bookings
          where client_email = ${fields.email}`,
      )
    ).rows;
    const ownerPage = `/admin/reservations/${placedRow?.id ?? ""}`;
    const agendaDay = `/admin/reservations?vue=jour&date=${isoDayInParis(new Date(placedRow?.starts_at ?? ""))}`;
    const day = isoDayInParis(new Date(placedRow?.starts_at ?? ""));
    // Her list's « État » filter lists it under what its label says, and under no other.
    const filteredUnder = async () => {
      const list = (
        await fetchPage(`/admin/reservations?vue=liste&date=${day}`, { cookie: admin.cookie() })
      ).document;
      const options = [...list.querySelectorAll('select[name="etat"] option')]
        .map((option) => ({ value: option.getAttribute("value") ?? "", label: textOf(option) }))
        .filter((option) => option.value !== "");
      const under: string[] = [];
      for (const option of options) {
        const filtered = (
          await fetchPage(`/admin/reservations?vue=liste&date=${day}&etat=${option.value}`, {
            cookie: admin.cookie(),
          })
        ).document;
        if (filtered.querySelector(`a[href="${ownerPage}"]`)) under.push(option.label);
      }
      return under;
    };
    const readOwner = async (state: string) => {
      expect(await filteredUnder()).toEqual([state]);
      const page = (await fetchPage(ownerPage, { cookie: admin.cookie() })).document;
      const agenda = (await fetchPage(agendaDay, { cookie: admin.cookie() })).document;
      const line = textOf(agenda.querySelector(`a[href="${ownerPage}"]`) ?? agenda.body);
      expect(textOf(page.querySelector("#seance") ?? page.body)).toContain(state);
      expect(line).toContain(state);
      for (const text of [textOf(page.body), line]) {
        expect(text).not.toContain("paiement non reçu");
        expect(text).not.toContain("en attente de paiement");
        expect(text).not.toContain("non réglées à temps");
      }
      expect(textOf(page.body)).toContain("« Paiement à vérifier » : acceptez-le ou remboursez-le");
      expect(
        page.querySelector(`a[href="/admin/ventes/${placedRow?.order_id ?? ""}"]`)?.textContent,
      ).toBe("Voir la commande (accepter ou rembourser ce paiement)");
    };

    const waiting = await readBoth();
    await readOwner("En attente : paiement reçu, à vérifier");
    expect(waiting.booking).toContain(held);
    expect(waiting.booking).toContain("En attente : paiement reçu, à vérifier");
    expect(waiting.booking).not.toContain("Payer ou reprendre le paiement");
    expect(waiting.booking).not.toContain("à régler avant le");
    expect(waiting.order).toContain(held);
    expect(waiting.order).not.toContain("Payer par carte");

    // Its window closes before the owner decides: the booking lapses, the slot freed (the order's own
    // deadline too).
    await serverDatabase().execute(sql`
      update bookings set state = 'expired' where client_email = ${fields.email}`);
    await serverDatabase().execute(sql`
      delete from booking_occupancies where booking_id in
        (select id from bookings where client_email = ${fields.email})`);
    await serverDatabase().execute(sql`
      update orders set status = 'expired' where id in
        (select deposit_order_id from bookings where client_email = ${fields.email})`);
    const lapsed = await readBoth();
    for (const [page, text] of Object.entries(lapsed)) {
      expect(text, page).toContain(held);
      expect(text, page).not.toContain("débité");
      expect(text, page).not.toContain("paiement non reçu");
      expect(text, page).not.toContain("non réglées à temps");
      expect(text, page).not.toContain("Payer");
      expect(text, page).not.toContain("Choisir un autre créneau");
    }
    expect(lapsed.booking).toContain("Non confirmée : paiement reçu, à vérifier");
    await readOwner("Non confirmée : paiement reçu, à vérifier");
    // A form posted from an older page: refused with the same words, no second checkout.
    const sessions = fake.sessions().length;
    const again = await postForm(orderPath, { intent: "payer" });
    expect(again.status).toBe(409);
    expect(textOf(again.document.body)).toContain(held);
    expect(textOf(again.document.body)).not.toContain("débité");
    expect(fake.sessions()).toHaveLength(sessions);
  });

  it("leads two posts sent at once to the same checkout", async () => {
    const { path, fields } = await cardForm();
    const visitor = from();
    const [first, second] = await Promise.all([
      postForm(path, fields, visitor),
      postForm(path, fields, visitor),
    ]);
    expect(first?.status).toBe(303);
    expect({ status: second?.status, location: second?.headers.get("location") }).toEqual({
      status: 303,
      location: first?.headers.get("location"),
    });
    expect(await bookingsOf(fields.email)).toEqual([{ state: "awaiting_payment" }]);
  });
});
