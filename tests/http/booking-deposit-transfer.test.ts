import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { instantLabelFr } from "../../app/lib/booking/words";
import { isoDayInParis } from "../../app/lib/dates";
import { beforeAll, describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { flashedToast } from "../support/admin-forms";
import { firstFreeTime } from "../support/booking";
import { confirmationWithInvoice, prepareDepositSite } from "../support/booking-deposits";
import { fetchPage, postForm, textOf } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { ensurePdfTools } from "../support/pdf-tools";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * A booking's deposit by transfer with JavaScript off (decision 0186), over HTTP: the booking waits on its
 * order's page, the owner marks the transfer received, and the confirmation e-mail links the « facture
 * d'acompte », whose PDF is read as text. By card on a phone: tests/e2e/booking-deposit-journey.test.ts.
 */

beforeAll(() => ensurePdfTools());
const { mailsTo } = useOwnServerWithMail();
const admin = useAdmin();
const TYPE_SLUG = "portrait-arrhes-virement";

beforeAll(() => prepareDepositSite(TYPE_SLUG));

describe("a booking with a deposit", () => {
  it("by transfer with JavaScript off: waiting on its order's page, confirmed once the owner marks it paid", async () => {
    const email = "hugo.virement@example.test";
    // Waiting for its transfer (the helper checks the booking's state) on its order's page.
    const { orderId, orderPage, page } = await waitingForTransfer(email, "Hugo Lefèvre");
    expect(orderPage.status).toBe(200);
    expect(orderPage.html).toContain("Virement");
    expect(orderPage.html).toContain("Votre réservation est confirmée dès sa réception.");
    expect(orderPage.html).not.toContain("Le bon est émis");
    // What to pay, to whom and by when, by e-mail too (the page may be closed before she pays), once.
    await expect.poll(() => mailsTo(email).length).toBe(1);
    const [waiting] = mailsTo(email);
    const [order] = (
      await serverDatabase().execute<{ reference: string; payBy: Date }>(sql`
        select transfer_reference as reference, pay_by as "payBy" from orders where id = ${orderId}::uuid`)
    ).rows;
    expect(waiting?.subject).toMatch(/^Réglez votre virement pour confirmer votre séance \(/);
    const waitingText = (waiting?.text ?? "").replace(/[\u00a0\u202f]/g, " ");
    expect(waitingText).toContain(
      `Faites un virement de 40 € avant le ${instantLabelFr(new Date(order?.payBy ?? 0)).replace(/[\u00a0\u202f]/g, " ")} :`,
    );
    expect(waitingText).toContain("IBAN : FR76 3000 6000 0112 3456 7890 189");
    // Her booking's page gives the same deadline.
    expect(textOf((await fetchPage(page)).document.body).replace(/[\u00a0\u202f]/g, " ")).toContain(
      `En attente de paiement (à régler avant le ${instantLabelFr(new Date(order?.payBy ?? 0)).replace(/[\u00a0\u202f]/g, " ")}, sinon le créneau est libéré)`,
    );
    expect(waitingText).toContain(`Référence à indiquer : ${order?.reference}`);
    expect(waitingText).toMatch(
      /Ces informations et l'état de votre paiement : \S+\/commande\/[\w-]+/,
    );

    // The owner's confirmation and toast say what a deposit's payment does (no voucher is issued).
    const asked = await fetchPage(`/admin/ventes/${orderId}?payer=transfer`, {
      cookie: admin.cookie(),
    });
    const confirming = textOf(asked.document.querySelector("#marquer-paye")?.parentElement);
    expect(confirming).toContain(
      "La réservation est confirmée, sauf si elle a été annulée ou son créneau donné à un autre client entre-temps : le paiement est alors à rendre.",
    );
    expect(confirming).not.toContain("bon cadeau");
    const paid = await postForm(
      `/admin/ventes/${orderId}`,
      { intent: "mark-paid", means: "transfer" },
      { cookie: admin.cookie() },
    );
    expect(paid.status).toBe(302);
    expect(flashedToast(paid.headers)).toMatchObject({
      title: "Commande payée",
      description: expect.stringMatching(
        /^Le paiement est enregistré ; la réservation est confirmée,/,
      ),
    });
    const { pdf } = await confirmationWithInvoice(mailsTo, email);
    expect(pdf).toContain("Facture d'acompte");
    expect(pdf).toContain("Hugo Lefèvre");
  });

  it("writes the first of a month « 1er » on its order's page: the order's day and its invoice's", async () => {
    const { orderId, orderPath } = await waitingForTransfer("ines.premier@example.test");
    const paid = await postForm(
      `/admin/ventes/${orderId}`,
      { intent: "mark-paid", means: "transfer" },
      { cookie: admin.cookie() },
    );
    expect(paid.status).toBe(302);
    await serverDatabase().transaction(async (tx) => {
      const firstOfDecember = "2026-12-01T10:00:00Z";
      await tx.execute(
        sql`update orders set created_at = ${firstOfDecember} where id = ${orderId}`,
      );
      // An invoice is immutable once issued (decision 0177): its trigger is off for this one change.
      await tx.execute(sql`alter table invoices disable trigger invoices_immutable`);
      await tx.execute(
        sql`update invoices set issued_at = ${firstOfDecember} where order_id = ${orderId}`,
      );
      await tx.execute(sql`alter table invoices enable trigger invoices_immutable`);
    });
    const text = textOf((await fetchPage(orderPath)).document.body);
    expect(text).toContain("Commande du 1er décembre 2026");
    expect(text).toMatch(/Facture d'acompte F-\d{4}-\d{6} \(PDF\) du 1er décembre 2026,/);
  });

  it("lists its invoices on the owner's booking page, and its balance once recorded in place of the form, then what of it was refunded", async () => {
    const { bookingId, orderId } = await waitingForTransfer("ines.solde@example.test");
    const page = `/admin/reservations/${bookingId}`;
    await postForm(
      `/admin/ventes/${orderId}`,
      { intent: "mark-paid", means: "transfer" },
      { cookie: admin.cookie() },
    );
    const balance = { intent: "balance", amount: "90", means: "cash" };
    expect((await postForm(page, balance, { cookie: admin.cookie() })).status).toBe(302);
    // The same entry again (a second click) finds the first; another amount is refused, in French.
    expect((await postForm(page, balance, { cookie: admin.cookie() })).status).toBe(302);
    const other = await postForm(page, { ...balance, amount: "80" }, { cookie: admin.cookie() });
    expect(other.status).toBe(409);
    expect(other.html).toMatch(
      /Le solde de cette séance est déjà enregistré : 90\s€ réglés le (?:1er|\d{1,2}) \S+ \d{4}, espèces\. Pour le corriger, ouvrez sa commande\./,
    );

    const { document } = await fetchPage(page, { cookie: admin.cookie() });
    const links = [...document.querySelectorAll('a[href^="/admin/factures/"]')];
    expect(links.map((link) => textOf(link))).toEqual([
      expect.stringMatching(/^Facture d'acompte F-\d{4}-\d{6}$/),
      expect.stringMatching(/^Facture de solde F-\d{4}-\d{6}$/),
    ]);
    for (const link of links) {
      const pdf = await fetch(new URL(link.getAttribute("href") ?? "", serverBaseUrl()), {
        headers: { Cookie: admin.cookie() },
      });
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
    }
    const balanceSection = document.querySelector('section[aria-labelledby="solde"]');
    expect(textOf(balanceSection)).toMatch(/Solde enregistré : 90\s€ réglés le .+, espèces\./);
    expect(balanceSection?.querySelector('button[value="balance"]')).toBeNull();

    // 20 € of it given back in cash: the sentence says so once the owner has given them.
    const balanceOrderId = /\/admin\/ventes\/([0-9a-f-]{36})/.exec(
      balanceSection?.innerHTML ?? "",
    )?.[1];
    const sale = `/admin/ventes/${balanceOrderId ?? ""}`;
    const refund = { intent: "refund", amount: "20", reason: "Geste commercial" };
    expect((await postForm(sale, refund, { cookie: admin.cookie() })).status).toBe(302);
    const [toGiveBack] = (
      await serverDatabase().execute<{ id: string }>(
        sql`select id from refunds where order_id = ${balanceOrderId ?? null}`,
      )
    ).rows;
    const given = { intent: "refunded-offline", id: toGiveBack?.id ?? "" };
    expect((await postForm(sale, given, { cookie: admin.cookie() })).status).toBe(302);
    const after = await fetchPage(page, { cookie: admin.cookie() });
    expect(textOf(after.document.querySelector('section[aria-labelledby="solde"]'))).toMatch(
      /Solde enregistré : 90\s€ réglés le .+, espèces, dont 20\s€ remboursés depuis\./,
    );

    // Cancelled, the booking's page still shows the balance and its order: the rest may be the owner's to
    // give back.
    const asked = await fetchPage(`${page}?annuler`, { cookie: admin.cookie() });
    expect(textOf(asked.document.querySelector('form[aria-labelledby="confirmer"]'))).toMatch(
      /Solde enregistré : 90\s€ .+ L'annulation ne le rembourse pas : rendez ce qui est dû depuis la commande du solde\./,
    );
    const cancel = { intent: "cancel", message: "" };
    expect((await postForm(page, cancel, { cookie: admin.cookie() })).status).toBe(302);
    const cancelled = await fetchPage(page, { cookie: admin.cookie() });
    const stillThere = cancelled.document.querySelector('section[aria-labelledby="solde"]');
    expect(textOf(stillThere)).toContain("Solde enregistré : 90");
    expect(stillThere?.querySelector(`a[href="${sale}"]`)).not.toBeNull();
  });
});

/** A booking waiting for its transfer, made through the page, with its order's id and its own page. */
async function waitingForTransfer(email: string, name = "Inès Moreau") {
  const { href } = await firstFreeTime(`/reserver/brive/${TYPE_SLUG}`);
  const posted = await postForm(href, {
    name,
    email,
    phone: "",
    consent: "on",
    site_web: "",
    paymentMethod: "transfer",
  });
  expect(posted.status).toBe(303);
  const orderPath = posted.headers.get("location") ?? "";
  const orderPage = await fetchPage(orderPath);
  const [row] = (
    await serverDatabase().execute<{ bookingId: string; orderId: string; state: string }>(sql`
      select b.id as "bookingId", o.id as "orderId", b.state from bookings b
      join orders o on o.id = b.deposit_order_id where b.client_email = ${email}`)
  ).rows;
  expect(row?.state).toBe("awaiting_payment");
  const bookingPage = [...orderPage.document.querySelectorAll("a")]
    .find((link) => textOf(link) === "Voir ma réservation")
    ?.getAttribute("href");
  expect(bookingPage).toMatch(/^\/reservation\/[A-Za-z0-9_-]+$/);
  return {
    bookingId: row?.bookingId ?? "",
    orderId: row?.orderId ?? "",
    page: bookingPage ?? "",
    orderPath,
    orderPage,
  };
}

async function stateAndOrder(bookingId: string) {
  const [row] = (
    await serverDatabase().execute<{ state: string; order: string }>(sql`
      select b.state, o.status as order from bookings b join orders o on o.id = b.deposit_order_id
      where b.id = ${bookingId}::uuid`)
  ).rows;
  return row;
}

describe("a booking waiting for its deposit", () => {
  it("is cancelled by its client from her page, told first that nothing more is asked", async () => {
    const { bookingId, page } = await waitingForTransfer("ines.renonce@example.test");
    const shown = await fetchPage(page);
    const offered = [...shown.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Annuler la séance",
    );
    expect(offered?.getAttribute("href")).toContain("annuler=1");
    const asked = await fetchPage(offered?.getAttribute("href") ?? "");
    const confirmation = textOf(asked.document.querySelector('section[aria-labelledby="annuler"]'));
    expect(confirmation).toContain(
      "Vos arrhes ne sont pas encore payées : elles ne vous seront plus demandées, et un paiement qui arriverait encore vous serait remboursé.",
    );
    const cancelled = await postForm(page, { intent: "cancel" });
    expect(cancelled.status).toBe(303);
    // Her order cancelled by the job queued with the cancellation: no « Payer » any more.
    await expect
      .poll(() => stateAndOrder(bookingId))
      .toEqual({
        state: "cancelled",
        order: "cancelled",
      });
  });

  it("is cancelled by the owner from its page, told what becomes of the deposit", async () => {
    const { bookingId } = await waitingForTransfer("ines.studio-annule@example.test");
    const here = `/admin/reservations/${bookingId}`;
    const shown = await fetchPage(here, { cookie: admin.cookie() });
    expect(shown.status).toBe(200);
    const offered = [...shown.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Annuler la réservation…",
    );
    expect(offered?.getAttribute("href")).toContain("annuler=1");
    const asked = await fetchPage(offered?.getAttribute("href") ?? "", {
      cookie: admin.cookie(),
    });
    expect(textOf(asked.document.querySelector('form[aria-labelledby="confirmer"]'))).toContain(
      "Les arrhes ne sont pas encore payées : la commande est annulée et plus rien n'est demandé à la cliente ; un paiement qui arriverait encore lui serait remboursé.",
    );
    const cancelled = await postForm(
      here,
      { intent: "cancel", message: "" },
      { cookie: admin.cookie() },
    );
    expect(cancelled.status).toBe(302);
    await expect
      .poll(() => stateAndOrder(bookingId))
      .toEqual({
        state: "cancelled",
        order: "cancelled",
      });
  });
});

/** A booking made online whose 40 € of arrhes by transfer the owner marked received. */
async function paidByTransfer(email: string) {
  const waiting = await waitingForTransfer(email);
  const paid = await postForm(
    `/admin/ventes/${waiting.orderId}`,
    { intent: "mark-paid", means: "transfer" },
    { cookie: admin.cookie() },
  );
  expect(paid.status).toBe(302);
  return waiting;
}

const spaced = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

describe("a booking whose arrhes were paid by transfer, cancelled", () => {
  it("by the owner: told before she confirms what becomes of the 40 € and that 80 € are owed, then who gives what back", async () => {
    const { bookingId, orderId } = await paidByTransfer("lou.annulation@example.test");
    const here = `/admin/reservations/${bookingId}`;
    const asked = await fetchPage(`${here}?annuler=1`, { cookie: admin.cookie() });
    expect(spaced(textOf(asked.document.querySelector("main")))).toContain(
      "Les 40,00 € payés sont à lui rendre par vous : la commande vous le rappelle, cliquez sur « Remboursé » une fois rendus. Ce sont des arrhes : la loi (article L214-1 du Code de la consommation) vous oblige à lui rendre le double, 80 € en tout, soit 40 € de plus à lui verser vous-même.".replace(
        "40,00 €",
        "40 €",
      ),
    );

    const cancelled = await postForm(
      here,
      { intent: "cancel", message: "" },
      {
        cookie: admin.cookie(),
      },
    );
    expect(cancelled.status).toBe(302);
    await expect
      .poll(
        async () =>
          (
            await serverDatabase().execute<{ status: string; cents: number }>(
              sql`select status, amount_cents as cents from refunds where order_id = ${orderId}::uuid`,
            )
          ).rows,
      )
      .toEqual([{ status: "to_refund_offline", cents: 4_000 }]);
    const after = spaced(
      textOf((await fetchPage(here, { cookie: admin.cookie() })).document.querySelector("main")),
    );
    expect(after).toContain("40 € à rembourser par vous");
    // Nothing is refunded by the site: she hands back the 40 € and 40 € more.
    expect(after).toContain(
      "la loi (article L214-1 du Code de la consommation) vous oblige à rendre le double, soit 80 €. Rendez-lui les 40 € payés (ci-dessus) et 40 € de plus.",
    );
    expect(after).not.toContain("lui sont remboursés");
  });

  it("by the client in time: her cancellation e-mail says the studio refunds her arrhes, not that she loses them", async () => {
    const email = "ines.annulation@example.test";
    const { page } = await paidByTransfer(email);
    const asked = await fetchPage(`${page}?annuler=1`);
    expect(spaced(textOf(asked.document.body))).toContain(
      "Le studio vous rembourse vos arrhes de 40 € et vous le confirme par e-mail.",
    );
    expect((await postForm(page, { intent: "cancel" })).status).toBe(303);
    await expect
      .poll(() => mailsTo(email).filter((mail) => mail.subject.startsWith("Séance annulée")).length)
      .toBe(1);
    const text = spaced(
      mailsTo(email).find((mail) => mail.subject.startsWith("Séance annulée"))?.text ?? "",
    );
    expect(text).toContain("Arrhes payées : 40 €");
    expect(text).toContain(
      "Le studio vous rembourse vos arrhes de 40 € et vous le confirme par e-mail.",
    );
    expect(text).not.toContain("si vous annulez, vous les perdez");
  });
});

describe("a booking whose deposit never came", () => {
  it("reads « Non confirmée : paiement non reçu » to the owner wherever she reads its state, a request left unanswered still « Demande expirée »", async () => {
    const lapsed = await waitingForTransfer("lina.impayee@example.test", "Lina Roux");
    // Its window closes unpaid, as the booking's five-minute job does it (releaseUnpaidBooking; the job
    // itself: app/server/booking/deposits.integration.test.ts): its time freed, expired, one history line.
    await serverDatabase().transaction(async (tx) => {
      const id = lapsed.bookingId;
      await tx.execute(sql`delete from booking_occupancies where booking_id = ${id}::uuid`);
      await tx.execute(sql`update bookings set state = 'expired' where id = ${id}::uuid`);
      await tx.execute(sql`insert into booking_events (booking_id, kind, actor, detail)
        values (${id}::uuid, 'expired', 'system', '{"unpaid": true}'::jsonb)`);
    });
    // A request of the same day, an hour later, left unanswered: no deposit was ever ordered for it.
    const requestId = randomBytes(16).toString("hex");
    const [request] = (
      await serverDatabase().execute<{ id: string; startsAt: Date }>(sql`
        insert into bookings (session_type_id, studio_id, photographer_id, starts_at, ends_at, state,
          client_name, client_email, manage_token_hash)
        select session_type_id, studio_id, photographer_id, starts_at + interval '1 hour',
          ends_at + interval '1 hour', 'expired', 'Rémi Attente',
          'remi.attente@example.test', ${createHash("sha256").update(requestId).digest("hex")}
        from bookings where id = ${lapsed.bookingId}::uuid
        returning id, starts_at as "startsAt"`)
    ).rows;
    await serverDatabase().execute(sql`insert into booking_events (booking_id, kind, actor)
      values (${request?.id ?? null}::uuid, 'expired', 'system')`);

    // Its page: the state by its title, and the history's line.
    const page = await fetchPage(`/admin/reservations/${lapsed.bookingId}`, {
      cookie: admin.cookie(),
    });
    expect(textOf(page.document.querySelector("h2#seance"))).toBe(
      "La séance Non confirmée : paiement non reçu",
    );
    const history = textOf(page.document.querySelector('section[aria-labelledby="historique"]'));
    expect(history).toContain(
      "Non confirmée : paiement non reçu avant la date limite (le client est prévenu)",
    );
    expect(textOf(page.document.querySelector("main"))).not.toContain("Demande expirée");
    const asked = await fetchPage(`/admin/reservations/${request?.id}`, {
      cookie: admin.cookie(),
    });
    expect(textOf(asked.document.querySelector("h2#seance"))).toBe("La séance Demande expirée");
    expect(textOf(asked.document.querySelector('section[aria-labelledby="historique"]'))).toContain(
      "Demande expirée sans réponse avant la date limite (le client est prévenu)",
    );

    // The agenda's list, and its filter: each lapse by its own name.
    const day = isoDayInParis(new Date(request?.startsAt ?? 0));
    const listed = async (etat = "") => {
      const list = await fetchPage(
        `/admin/reservations?vue=liste&date=${day}${etat ? `&etat=${etat}` : ""}`,
        { cookie: admin.cookie() },
      );
      expect(list.status).toBe(200);
      return {
        lines: [...list.document.querySelectorAll('ul[aria-label="Réservations"] li')]
          .map((line) => textOf(line))
          .filter((line) => /Lina Roux|Rémi Attente/.test(line)),
        options: [...list.document.querySelectorAll('select[name="etat"] option')].map((option) => [
          option.getAttribute("value"),
          textOf(option),
        ]),
      };
    };
    const all = await listed();
    expect(all.lines).toEqual([
      expect.stringMatching(/Lina Roux .*Non confirmée : paiement non reçu$/),
      expect.stringMatching(/Rémi Attente .*Demande expirée$/),
    ]);
    expect(all.options).toContainEqual(["expired", "Demande expirée"]);
    expect(all.options).toContainEqual(["unpaid", "Non confirmée : paiement non reçu"]);
    expect((await listed("unpaid")).lines).toEqual([
      expect.stringMatching(/Lina Roux .*Non confirmée : paiement non reçu$/),
    ]);
    expect((await listed("expired")).lines).toEqual([
      expect.stringMatching(/Rémi Attente .*Demande expirée$/),
    ]);

    // The CSV export says the same.
    const csv = await (
      await fetch(new URL("/admin/reservations/export.csv", serverBaseUrl()), {
        headers: { Cookie: admin.cookie() },
      })
    ).text();
    const rowOf = (email: string) => csv.split("\r\n").find((row) => row.includes(email)) ?? "";
    expect(rowOf("lina.impayee@example.test")).toContain('"Non confirmée : paiement non reçu"');
    expect(rowOf("remi.attente@example.test")).toContain('"Demande expirée"');

    // Her own page says it as the owner's do.
    expect(textOf((await fetchPage(lapsed.page)).document.body)).toContain(
      "Non confirmée : paiement non reçu",
    );
  });
});
