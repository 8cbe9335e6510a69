import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { DepositRule } from "~/lib/booking/deposit";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { useAppDatabase } from "../../../tests/support/database";
import { completeLegal } from "../../../tests/support/seller";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { bookingEvents, bookings, invoices, orders } from "../db/schema";
import { markPaidOffline } from "../payments/orders.server";
import { correctBookingClient, createBooking } from "./bookings.server";
import { createDepositOrder, recordBalancePaid } from "./deposits.server";
import { clientBookingEmail } from "./emails.server";
import { BookingRefusedError } from "./refusals.server";
import { purgeOldBookings } from "./retention.server";
import { MAX_ACTIVE_BOOKINGS_PER_EMAIL } from "./visitor.server";

// The owner corrects a booking's client (her name, e-mail, phone) on the booking's page: checked as her
// phone booking is, written with a history line that keeps before and after, followed by the orders not
// paid yet (never by an issued invoice), and a new address sent the booking's recap once.

useAppDatabase({ jobs: true });

const RULE: DepositRule = {
  amount: "fixed",
  value: 3_000,
  priceCents: null,
  nature: "acompte",
  methods: ["transfer"],
  transferHours: 24,
  refundAtOnce: false,
};
const owner = { actor: "owner", userId: null, name: "sophie@studio.example" } as const;
const typo = { name: "Léa Matin", email: "lea.matin@exemple.test", phone: "06 12 34 56 78" };

let brive = "";
let typeId = "";
let depositType = "";
/** A distinct hour from 3 days on (12 a day). */
const nextSlot = distinctSlots(3);

beforeAll(async () => {
  provideSiteOrderKinds();
  await saveDocument("legal", completeLegal, { id: "", name: "Camille" }, "test");
  ({ brive } = await studioIds());
  typeId = await insertSessionType([brive], { bookableHours: EVERY_DAY, stepMinutes: 60 });
  depositType = await insertSessionType([brive], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    deposit: RULE,
  });
});

/** A booking the owner took by phone, confirmed, with the client's details as typed then. */
const ownerBooking = (client = typo, notifyClient = true) =>
  createBooking({
    studioId: brive,
    sessionTypeId: typeId,
    slot: nextSlot(),
    client,
    consentAt: null,
    by: owner,
    notifyClient,
  });

/** A client's booking waiting for her deposit by transfer, with its order. */
async function awaitingDeposit(email: string) {
  const made = await createBooking({
    studioId: brive,
    sessionTypeId: depositType,
    slot: nextSlot(),
    client: { ...typo, email },
    consentAt: new Date(),
    paymentMethod: "transfer",
  });
  const { orderId } = await createDepositOrder({ bookingId: made.id, method: "transfer" });
  return { id: made.id, orderId };
}

const rowOf = async (bookingId: string) =>
  (await db().select().from(bookings).where(eq(bookings.id, bookingId)))[0];

const correctionsOf = (bookingId: string) =>
  db()
    .select()
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, "client_changed")));

/** The recaps queued about a booking, as the addresses they were queued for. */
async function recapsOf(bookingId: string): Promise<string[]> {
  const result = await db().execute<{ to: string }>(sql`
    select data->>'to' as to from pgboss.job
    where name = 'mail' and data->>'kind' = 'booking-client' and data->>'event' = 'recap'
      and data->>'bookingId' = ${bookingId} order by created_on`);
  return result.rows.map((row) => row.to);
}

async function buyerOf(orderId: string) {
  const [order] = await db()
    .select({ name: orders.buyerName, email: orders.buyerEmail, phone: orders.buyerPhone })
    .from(orders)
    .where(eq(orders.id, orderId));
  return order;
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("the owner corrects a booking's client", () => {
  it("writes the new details and a history line keeping before and after", async () => {
    const made = await ownerBooking();
    const corrected = await correctBookingClient(
      made.id,
      { name: " Léa Martin ", email: typo.email, phone: "05 55 12 34 56" },
      owner,
    );
    expect(corrected).toMatchObject({ changed: true, emailChanged: false, recapTo: null });
    expect(await rowOf(made.id)).toMatchObject({
      clientName: "Léa Martin",
      clientEmail: typo.email,
      clientPhone: "05 55 12 34 56",
    });
    const [event] = await correctionsOf(made.id);
    expect(event).toMatchObject({ actor: "owner", actorName: owner.name });
    expect(event?.detail).toEqual({
      before: typo,
      after: { name: "Léa Martin", email: typo.email, phone: "05 55 12 34 56" },
    });
  });

  it("changes nothing and records nothing when the details typed are the same", async () => {
    const made = await ownerBooking();
    const again = await correctBookingClient(
      made.id,
      { name: `  ${typo.name}`, email: `${typo.email} `, phone: typo.phone },
      owner,
      { sendRecap: true },
    );
    expect(again.changed).toBe(false);
    expect(await correctionsOf(made.id)).toEqual([]);
    expect(await recapsOf(made.id)).toEqual([]);
  });

  it("refuses with the phone booking's rules, per field in French, changing nothing", async () => {
    const made = await ownerBooking();
    const refused = await refusalOf(
      correctBookingClient(made.id, { name: "", email: "lea@", phone: "0".repeat(31) }, owner),
    );
    expect(refused).toBeInstanceOf(BookingRefusedError);
    expect((refused as BookingRefusedError).fieldErrors).toEqual({
      name: "Veuillez indiquer votre nom.",
      email: "Indiquez une adresse e-mail valide, ou laissez le champ vide.",
      phone: "Ce numéro de téléphone est trop long.",
    });
    const unprintable = await refusalOf(
      correctBookingClient(made.id, { ...typo, name: "Léa ✨ Martin" }, owner),
    );
    expect((unprintable as BookingRefusedError).fieldErrors).toEqual({
      name: "Ces caractères ne peuvent pas être imprimés sur la facture : ✨. Retirez-les ou remplacez-les.",
    });
    expect(await rowOf(made.id)).toMatchObject({ clientName: typo.name, clientEmail: typo.email });
    expect(await correctionsOf(made.id)).toEqual([]);
  });

  it("takes an address that has its visitor limit of bookings to come, and an empty one", async () => {
    const busy = `occupee-${randomUUID()}@exemple.test`;
    for (let made = 0; made < MAX_ACTIVE_BOOKINGS_PER_EMAIL; made++) {
      await ownerBooking({ ...typo, email: busy });
    }
    const made = await ownerBooking();
    await correctBookingClient(made.id, { ...typo, email: busy }, owner);
    expect((await rowOf(made.id))?.clientEmail).toBe(busy);
    // No address: the site no longer writes to the client about it.
    await correctBookingClient(made.id, { ...typo, email: "" }, owner, { sendRecap: true });
    expect(await rowOf(made.id)).toMatchObject({ clientEmail: "", clientMail: false });
    expect(await recapsOf(made.id)).toEqual([]);
  });

  it("refuses an unknown booking and one the retention erased", async () => {
    const unknown = await refusalOf(correctBookingClient(randomUUID(), typo, owner));
    expect((unknown as BookingRefusedError).code).toBe("not_found");
    const made = await ownerBooking();
    await db().execute(
      sql`update bookings set starts_at = now() - interval '19 months 1 hour', ends_at = now() - interval '19 months', updated_at = now() - interval '19 months' where id = ${made.id}::uuid`,
    );
    expect(await purgeOldBookings(db())).toBe(1);
    const erased = await refusalOf(
      correctBookingClient(made.id, { ...typo, name: "Léa Martin" }, owner),
    );
    expect((erased as BookingRefusedError).code).toBe("not_found");
    expect(await rowOf(made.id)).toBeUndefined();
  });
});

describe("the orders of a corrected booking", () => {
  it("gives an unpaid deposit's order the new buyer, whose invoice then names her", async () => {
    const { id, orderId } = await awaitingDeposit(`acompte-${randomUUID()}@exemple.test`);
    const fixed = { name: "Léa Martin", email: `lea-${randomUUID()}@exemple.test`, phone: "" };
    await correctBookingClient(id, fixed, owner);
    expect(await buyerOf(orderId)).toEqual(fixed);

    await markPaidOffline(orderId, "transfer");
    const [invoice] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(invoice?.buyer).toMatchObject({ name: "Léa Martin", email: fixed.email });
  });

  it("gives a paid order the new address for its refunds' e-mails, its name and invoice as they are", async () => {
    const { id, orderId } = await awaitingDeposit(`paye-${randomUUID()}@exemple.test`);
    await markPaidOffline(orderId, "transfer");
    const buyer = await buyerOf(orderId);
    const [issued] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    const corrected = {
      ...typo,
      name: "Léa Martin",
      email: `corrige-${randomUUID()}@exemple.test`,
    };
    await correctBookingClient(id, corrected, owner);
    expect((await rowOf(id))?.clientName).toBe("Léa Martin");
    expect(await buyerOf(orderId)).toEqual({ ...buyer, email: corrected.email });
    const [kept] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(kept?.buyer).toEqual(issued?.buyer);
    expect(kept?.buyer.name).toBe(typo.name);
  });

  it("refuses to empty the address of a booking waiting for its payment", async () => {
    const email = `attente-${randomUUID()}@exemple.test`;
    const { id, orderId } = await awaitingDeposit(email);
    const refused = await refusalOf(correctBookingClient(id, { ...typo, email: "" }, owner));
    expect((refused as BookingRefusedError).fieldErrors.email).toMatch(
      /^Un paiement de cette réservation est attendu/,
    );
    expect((await rowOf(id))?.clientEmail).toBe(email);
    expect((await buyerOf(orderId))?.email).toBe(email);
  });

  it("lets the balance of a booking taken without an address be recorded once it has one", async () => {
    const made = await ownerBooking({ ...typo, email: "" }, false);
    const balance = { bookingId: made.id, amountCents: 9_000, means: "cash" } as const;
    await expect(recordBalancePaid(balance)).rejects.toThrow(
      "Ajoutez d'abord l'adresse e-mail du client (« Modifier les coordonnées du client ») : la facture lui est adressée.",
    );
    await correctBookingClient(made.id, typo, owner);
    const { orderId } = await recordBalancePaid(balance);
    const [invoice] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(invoice?.buyer).toMatchObject({ name: typo.name, email: typo.email });
  });
});

describe("the recap to a corrected address", () => {
  it("is queued once for two identical submits, with the booking's link, to the new address", async () => {
    const made = await ownerBooking();
    const fixed = { ...typo, email: `lea.martin-${randomUUID()}@exemple.test` };
    const answers = await Promise.all([
      correctBookingClient(made.id, fixed, owner, { sendRecap: true }),
      correctBookingClient(made.id, fixed, owner, { sendRecap: true }),
    ]);
    expect(answers.map((answer) => answer.recapTo).sort()).toEqual([fixed.email, null].sort());
    // A third post later: still nothing new.
    await correctBookingClient(made.id, fixed, owner, { sendRecap: true });
    expect(await recapsOf(made.id)).toEqual([fixed.email]);
    const [event] = await correctionsOf(made.id);
    expect(event?.detail.recapTo).toBe(fixed.email);
    expect((await correctionsOf(made.id)).length).toBe(1);

    const mail = await clientBookingEmail({ bookingId: made.id, event: "recap", to: fixed.email });
    expect(mail?.to).toBe(fixed.email);
    expect(mail?.subject).toMatch(/^Récapitulatif de votre réservation : /);
    expect(mail?.text).toContain("Le studio a corrigé vos coordonnées");
    expect(mail?.text).toMatch(/Voir, déplacer ou annuler votre séance .*\/reservation\/\S+/);
  });

  it("is not queued unless asked, and a silent booking's is: the site then writes to the client", async () => {
    const made = await ownerBooking();
    const notAsked = await correctBookingClient(
      made.id,
      { ...typo, email: `non-${randomUUID()}@exemple.test` },
      owner,
      { sendRecap: false },
    );
    expect(notAsked).toMatchObject({ changed: true, emailChanged: true, recapTo: null });
    expect(await recapsOf(made.id)).toEqual([]);

    const silent = await ownerBooking(typo, false);
    expect((await rowOf(silent.id))?.clientMail).toBe(false);
    const email = `silencieuse-${randomUUID()}@exemple.test`;
    await correctBookingClient(silent.id, { ...typo, email }, owner, { sendRecap: true });
    expect(await recapsOf(silent.id)).toEqual([email]);
    expect((await rowOf(silent.id))?.clientMail).toBe(true);
    expect(
      (await clientBookingEmail({ bookingId: silent.id, event: "recap", to: email }))?.to,
    ).toBe(email);
    // Corrected again since: the earlier recap has nothing left to say.
    await correctBookingClient(silent.id, typo, owner, { sendRecap: false });
    expect(
      await clientBookingEmail({ bookingId: silent.id, event: "recap", to: email }),
    ).toBeNull();
  });

  it("carries the payment link of a booking waiting for its deposit", async () => {
    const { id, orderId } = await awaitingDeposit(`lien-${randomUUID()}@exemple.test`);
    const email = `paiement-${randomUUID()}@exemple.test`;
    await correctBookingClient(id, { ...typo, email }, owner, { sendRecap: true });
    const mail = await clientBookingEmail({ bookingId: id, event: "recap", to: email });
    expect(mail?.text).toMatch(
      /Pour confirmer votre séance, réglez le paiement demandé .*\/commande\//,
    );
    expect((await buyerOf(orderId))?.email).toBe(email);
  });
});
