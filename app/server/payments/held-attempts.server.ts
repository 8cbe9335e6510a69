import { and, eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { paymentAttempts } from "../db/schema";

/**
 * Whether a payment the provider took for another total or currency than the order's waits for the owner's
 * decision (decision 0172): the money came, and the buyer is never told it did not nor asked to pay again.
 * A module of its own, importing no other of the payments': the buyer's e-mails read it too.
 */
export async function paymentHeldFor(orderId: string): Promise<boolean> {
  const [held] = await db()
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, "held")))
    .limit(1);
  return held !== undefined;
}
