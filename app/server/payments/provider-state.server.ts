import { and, eq } from "drizzle-orm";
import type { ProviderName, StatusSource } from "~/lib/payments/model";
import { db } from "../db/client.server";
import { paymentAttempts } from "../db/schema";
import { applyPaymentStatus, UNKNOWN_ATTEMPT, type PaymentOutcome } from "./apply-payment.server";
import { paymentProvider } from "./providers.server";

/**
 * Asks the provider what became of a checkout and applies it when it is final (decision 0162): the return
 * page (source `return`, with the checkout's id from its address) and the reconciliation job. An open
 * checkout answers `open` and changes nothing; a reference no attempt has answers `unknown_attempt`.
 */
export async function applyProviderState(
  checkout: { provider: ProviderName; providerReference: string },
  source: Extract<StatusSource, "return" | "reconciliation">,
): Promise<PaymentOutcome | { outcome: "open"; attemptId: string; orderId: string }> {
  const [attempt] = await db()
    .select({ id: paymentAttempts.id, orderId: paymentAttempts.orderId })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.provider, checkout.provider),
        eq(paymentAttempts.providerReference, checkout.providerReference),
      ),
    );
  if (!attempt) return UNKNOWN_ATTEMPT;
  const provider = await paymentProvider(checkout.provider);
  const state = await provider.retrieve(checkout.providerReference);
  if (state.status === "open") {
    return { outcome: "open", attemptId: attempt.id, orderId: attempt.orderId };
  }
  return applyPaymentStatus({
    attemptId: attempt.id,
    status: state.status,
    amountCents: state.amountCents,
    currency: state.currency,
    paymentReference: state.paymentReference,
    source,
  });
}
