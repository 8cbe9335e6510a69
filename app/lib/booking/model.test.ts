import { describe, expect, it } from "vitest";
import {
  BOOKING_STATE_LABELS,
  BOOKING_STATE_READINGS,
  BOOKING_STATES,
  bookingStateLabel,
  bookingStateReading,
} from "./model";

// Decision 0186 (amended 2026-12-01): a booking that lapsed while its deposit was awaited was no request.
describe("bookingStateLabel", () => {
  it("says a lapsed booking whose deposit was awaited was not paid, to its owner as to its client", () => {
    expect(bookingStateLabel("expired", true)).toBe("Non confirmée : paiement non reçu");
    expect(bookingStateReading("expired", true)).toBe("unpaid");
  });

  it("keeps « Demande expirée » for a request left unanswered, and every other state's own label", () => {
    expect(bookingStateLabel("expired", false)).toBe("Demande expirée");
    for (const state of BOOKING_STATES) {
      if (state === "expired") continue;
      expect(bookingStateLabel(state, true)).toBe(BOOKING_STATE_LABELS[state]);
      expect(bookingStateLabel(state, false)).toBe(BOOKING_STATE_LABELS[state]);
      expect(bookingStateReading(state, true)).toBe(state);
    }
  });

  it("offers every state and the unpaid lapse to the owner's filter, each once", () => {
    expect(new Set(BOOKING_STATE_READINGS).size).toBe(BOOKING_STATE_READINGS.length);
    expect([...BOOKING_STATE_READINGS].sort()).toEqual([...BOOKING_STATES, "unpaid"].sort());
  });
});
