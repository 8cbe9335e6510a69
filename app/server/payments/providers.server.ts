import type { ProviderName } from "~/lib/payments/model";
import { ProviderUnavailableError, type PaymentProvider } from "./provider.server";
import { cardProvider } from "./card.server";
import { studioProvider, transferProvider } from "./providers/offline.server";

/*
 * The providers by name (decision 0162). A provider may need its configuration (keys the owner entered):
 * each is made when asked for.
 */

type ProviderFactory = () => PaymentProvider | Promise<PaymentProvider>;

const PROVIDERS: Partial<Record<ProviderName, ProviderFactory>> = {
  transfer: () => transferProvider,
  studio: () => studioProvider,
  // Stripe with the keys in force (STRIPE_* or the owner's, decision 0166).
  stripe: async () => {
    const provider = await cardProvider();
    if (!provider) {
      throw new ProviderUnavailableError(
        "Le paiement par carte n'est pas configuré : clés Stripe absentes.",
      );
    }
    return provider;
  },
};

/** The providers whose payments only the owner reports: nothing to ask them, no webhook. */
export const OFFLINE_PROVIDERS: readonly ProviderName[] = ["transfer", "studio"];

const holder = globalThis as typeof globalThis & {
  __studioPaymentProvidersForTests?: Map<ProviderName, PaymentProvider>;
};

/** The provider `name`; ProviderUnavailableError when it is not set up. */
export async function paymentProvider(name: ProviderName): Promise<PaymentProvider> {
  const replaced = holder.__studioPaymentProvidersForTests?.get(name);
  if (replaced) return replaced;
  const factory = PROVIDERS[name];
  if (!factory) throw new ProviderUnavailableError(`Le paiement « ${name} » n'est pas configuré.`);
  return factory();
}

/** A test's own provider in place of `name`'s (null: the site's again). Refused outside tests. */
export function replacePaymentProviderForTests(
  name: ProviderName,
  provider: PaymentProvider | null,
): void {
  if (!process.env.VITEST) throw new Error("replacePaymentProviderForTests is for tests only");
  holder.__studioPaymentProvidersForTests ??= new Map();
  if (provider) holder.__studioPaymentProvidersForTests.set(name, provider);
  else holder.__studioPaymentProvidersForTests.delete(name);
}
