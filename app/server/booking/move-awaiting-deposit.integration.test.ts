import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DepositRule } from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { addParisDays } from "~/lib/booking/slots";
import { isoDayInParis } from "~/lib/dates";
import { EVERY_DAY, insertSessionType, studioIds } from "../../../tests/support/booking";
import { useAppDatabase } from "../../../tests/support/database";
import { memoryCardProvider } from "../../../tests/support/payments";
import { completeLegal } from "../../../tests/support/seller";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { bookings, orders } from "../db/schema";
import { createBooking, moveBooking } from "./bookings.server";
import { clientBookingEmail } from "./emails.server";
import { createDepositOrder } from "./deposits.server";

// A booking whose deposit is still awaited, moved (decision 0186): moved sooner than the deadline she was
// given, the deadline becomes the new start and the « moved » e-mail says it again with how to pay; moved
// once its window closed (before the sweep expires it), the move is refused.

useAppDatabase({ jobs: true });
const card = memoryCardProvider();

// A 96-hour transfer window: booked 6 days ahead, the deadline is 4 days from now.
const RULE: DepositRule = {
  amount: "fixed",
  value: 3_000,
  priceCents: null,
  nature: "arrhes",
  methods: ["card", "transfer"],
  transferHours: 96,
  refundAtOnce: false,
};

let brive = "";
let depositType = "";

beforeAll(async () => {
  card.install();
  provideSiteOrderKinds();
  await saveDocument("legal", completeLegal, { id: "", name: "Camille" }, "test");
  ({ brive } = await studioIds());
  depositType = await insertSessionType([brive], {
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    cancellationCutoffHours: 24,
    deposit: RULE,
  });
});
afterAll(() => card.uninstall());

describe("a booking whose deposit is awaited, moved by its client", () => {
  it("sooner than her transfer's deadline: the « moved » e-mail gives the new deadline and how to pay", async () => {
    const today = isoDayInParis(new Date());
    const made = await createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today, 6)}T10:00`,
      client: { name: "Léa Martin", email: "lea-probe@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "transfer",
    });
    expect(made.state).toBe("awaiting_payment");
    const { orderId } = await createDepositOrder({ bookingId: made.id, method: "transfer" });
    const told = await clientBookingEmail({ bookingId: made.id, event: "awaiting_transfer" });
    const [before] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    const oldDeadline = before?.respondBy ?? new Date(0);
    // What the transfer e-mail told her: pay before the old deadline.
    expect(told?.text).toContain(`avant le ${instantLabelFr(oldDeadline)}`);

    // She moves it to the day after tomorrow, before that deadline.
    const moved = await moveBooking(
      made.id,
      { slot: `${addParisDays(today, 2)}T10:00` },
      { actor: "client" },
    );
    const [after] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    // The product did shorten her deadline (booking and order) to the new start...
    expect(after?.respondBy).toEqual(moved.startsAt);
    expect(order?.payBy).toEqual(moved.startsAt);
    expect(moved.startsAt.getTime()).toBeLessThan(oldDeadline.getTime());

    // ...so the « moved » e-mail says by when the transfer is now due, to whom and where to pay.
    const mail = await clientBookingEmail({ bookingId: made.id, event: "moved" });
    const deadline = instantLabelFr(after?.respondBy ?? new Date(0));
    expect(mail?.text).toContain(
      `Votre paiement est toujours attendu : réglez-le avant le ${deadline} pour confirmer votre séance ; sans paiement dans ce délai, le créneau est libéré.`,
    );
    expect(mail?.text).toContain(`Faites un virement de 30\u00a0€ avant le ${deadline} :`);
    expect(mail?.text).toContain(`Référence à indiquer : ${order?.transferReference}`);
    expect(mail?.text).toMatch(/Pour payer, et l'état de votre paiement : \S+\/commande\/[\w-]+/);
  });

  it("is refused once its payment window closed, before the sweep expired it: nothing is held for it any more", async () => {
    const today = isoDayInParis(new Date());
    const made = await createBooking({
      studioId: brive,
      sessionTypeId: depositType,
      slot: `${addParisDays(today, 7)}T11:00`,
      client: { name: "Léa Martin", email: "lea-probe-lapsed@example.test", phone: "" },
      consentAt: new Date(),
      paymentMethod: "card",
    });
    expect(made.state).toBe("awaiting_payment");
    await createDepositOrder({ bookingId: made.id, method: "card" });
    // 40 minutes later her 35-minute hold is over; the 5-minute expiry job has not passed yet.
    const later = new Date(Date.now() + 40 * 60_000);
    await expect(
      moveBooking(made.id, { slot: `${addParisDays(today, 7)}T15:00` }, { actor: "client" }, later),
    ).rejects.toMatchObject({
      code: "hold_lapsed",
      message:
        "Le délai de cette réservation est passé : son créneau n'est plus gardé. Réservez de nouveau, ou appelez le studio.",
    });
    const [kept] = await db().select().from(bookings).where(eq(bookings.id, made.id));
    expect(kept?.startsAt).toEqual(made.startsAt);
  });
});
