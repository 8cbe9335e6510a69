import { parisDateTimeToInstant } from "~/lib/dates";

/*
 * When a gift voucher leaves (decision 0167): at 9:00 Paris time on the day the buyer chose, or as soon as
 * it is paid.
 */

/** The hour of Paris's clock a voucher is delivered on its day. */
export const VOUCHER_DELIVERY_TIME = "09:00";

/** When a voucher for `deliveryDay` leaves: 9:00 in Paris that day; null (now) when none or already past. */
export function deliveryInstant(deliveryDay: string | null, at: Date): Date | null {
  if (!deliveryDay) return null;
  const instant = parisDateTimeToInstant(`${deliveryDay}T${VOUCHER_DELIVERY_TIME}`);
  return instant && instant > at ? instant : null;
}
