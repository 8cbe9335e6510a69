import { describe, expect, it } from "vitest";
import {
  BOOKING_STATE_LABELS,
  BOOKING_STATE_READING_LABELS,
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

  it("offers every state, the unpaid lapse and a held deposit's two readings to the owner's filter, each once", () => {
    expect(new Set(BOOKING_STATE_READINGS).size).toBe(BOOKING_STATE_READINGS.length);
    expect([...BOOKING_STATE_READINGS].sort()).toEqual(
      [...BOOKING_STATES, "unpaid", "awaiting_held", "unpaid_held"].sort(),
    );
  });

  // Decision 0172 (amended 2026-12-02): her filter lists a booking under what its label says.
  it("reads a booking whose deposit payment is held as its label says, and files it there", () => {
    expect(bookingStateReading("awaiting_payment", true, true)).toBe("awaiting_held");
    expect(bookingStateReading("expired", true, true)).toBe("unpaid_held");
    for (const state of BOOKING_STATES) {
      for (const awaited of [true, false]) {
        for (const held of [true, false]) {
          expect(bookingStateLabel(state, awaited, held)).toBe(
            BOOKING_STATE_READING_LABELS[bookingStateReading(state, awaited, held)],
          );
        }
      }
    }
    expect(BOOKING_STATE_READING_LABELS.awaiting_held).toBe(
      "En attente : paiement reçu, à vérifier",
    );
    expect(BOOKING_STATE_READING_LABELS.unpaid_held).toBe(
      "Non confirmée : paiement reçu, à vérifier",
    );
    expect(bookingStateReading("confirmed", true, true)).toBe("confirmed");
  });
});
