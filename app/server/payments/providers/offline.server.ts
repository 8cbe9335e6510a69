import { eq } from "drizzle-orm";
import { db } from "../../db/client.server";
import { orders } from "../../db/schema";
import {
  WebhookVerificationError,
  type CheckoutCreated,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderPaymentState,
} from "../provider.server";

/*
 * The offline ways of paying (decision 0162): a bank transfer quoting the order's reference, and a payment
 * at the studio. No network: there is no page to send the buyer to, no webhook, nothing to ask; the owner
 * reports the payment (« Marquer payé ») and gives refunds back herself.
 */

const openState = (providerReference: string): ProviderPaymentState => ({
  providerReference,
  status: "open",
  amountCents: null,
  currency: null,
  paymentReference: null,
});

function offlineProvider(
  name: "transfer" | "studio",
  referenceOf: (request: CheckoutRequest) => Promise<string>,
): PaymentProvider {
  return {
    name,
    async createCheckout(request): Promise<CheckoutCreated> {
      return {
        providerReference: await referenceOf(request),
        redirectUrl: null,
        expiresAt: request.expiresAt,
      };
    },
    // Only the owner knows: still waiting until she says.
    retrieve: async (providerReference) => openState(providerReference),
    expire: async (providerReference) => ({ ...openState(providerReference), status: "expired" }),
    verifyWebhook() {
      throw new WebhookVerificationError(
        `Le moyen de paiement « ${name} » ne reçoit pas de webhook.`,
      );
    },
    refund: async () => ({ refundReference: null, status: "offline" }),
    retrieveRefund: async () => ({ refundReference: null, status: "offline" }),
    listRefunds: async () => [],
    formActionOrigins: () => [],
  };
}

/** A transfer: its reference is the one the buyer writes on it (the order's `BC-7K3Q`). */
export const transferProvider = offlineProvider("transfer", async ({ orderId }) => {
  const [order] = await db()
    .select({ transferReference: orders.transferReference })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order?.transferReference)
    throw new Error(`Commande sans référence de virement : ${orderId}`);
  return order.transferReference;
});

/** At the studio: nothing to quote; the attempt's own id names it. */
export const studioProvider = offlineProvider("studio", async ({ attemptId }) => attemptId);
