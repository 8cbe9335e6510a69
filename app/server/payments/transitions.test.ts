import { describe, expect, it } from "vitest";
import {
  ATTEMPT_STATUSES,
  ORDER_STATUSES,
  REPORTED_STATUSES,
  type AttemptStatus,
  type OrderStatus,
} from "~/lib/payments/model";
import { decidePayment, type PaymentSituation } from "./transitions";

const situation = (overrides: Partial<PaymentSituation>): PaymentSituation => ({
  attempt: "open",
  order: "awaiting_payment",
  report: "succeeded",
  amountMatches: true,
  otherOpenAttempt: false,
  windowStillOpen: false,
  ...overrides,
});

describe("what a payment report does", () => {
  it("pays an order awaiting payment once: the same report again changes nothing", () => {
    expect(decidePayment(situation({}))).toEqual({
      outcome: "applied",
      attemptFrom: ["open"],
      attemptTo: "succeeded",
      orderFrom: ["awaiting_payment"],
      orderTo: "paid",
    });
    expect(decidePayment(situation({ attempt: "succeeded", order: "paid" }))).toEqual({
      outcome: "already_applied",
    });
  });

  it("keeps a paid attempt paid whatever comes after it (`expired` or `failed` after `succeeded`)", () => {
    for (const report of ["expired", "failed"] as const) {
      expect(decidePayment(situation({ attempt: "succeeded", order: "paid", report }))).toEqual({
        outcome: "ignored",
      });
    }
  });

  it("holds a success whose total or currency differs from ours: the order does not move", () => {
    expect(decidePayment(situation({ amountMatches: false }))).toEqual({
      outcome: "held",
      attemptFrom: ["open"],
    });
    expect(
      decidePayment(situation({ attempt: "expired", order: "expired", amountMatches: false })),
    ).toEqual({ outcome: "held", attemptFrom: ["expired"] });
    // Held waits for the owner: no later report applies it.
    expect(decidePayment(situation({ attempt: "held" }))).toEqual({ outcome: "ignored" });
  });

  it("applies a success after the expiry as a late payment: the money is real", () => {
    expect(decidePayment(situation({ attempt: "expired", order: "expired" }))).toEqual({
      outcome: "late",
      attemptFrom: ["expired"],
      attemptTo: "succeeded",
      orderFrom: ["expired"],
      orderTo: "paid",
    });
    expect(decidePayment(situation({ attempt: "open", order: "cancelled" }))).toMatchObject({
      outcome: "late",
      orderFrom: ["cancelled"],
      orderTo: "paid",
    });
    // The attempt expired while another one keeps the order waiting: late too.
    expect(decidePayment(situation({ attempt: "expired" }))).toMatchObject({ outcome: "late" });
  });

  it("records a success on an order another attempt paid as a duplicate, the order unchanged", () => {
    for (const order of ["paid", "refunded"] as const) {
      expect(decidePayment(situation({ order }))).toEqual({
        outcome: "duplicate",
        attemptFrom: ["open"],
        attemptTo: "succeeded",
        orderFrom: null,
        orderTo: null,
      });
    }
  });

  it("releases the order when its checkout expires, unless another attempt is open or its window goes on", () => {
    expect(decidePayment(situation({ report: "expired" }))).toEqual({
      outcome: "applied",
      attemptFrom: ["open"],
      attemptTo: "expired",
      orderFrom: ["awaiting_payment"],
      orderTo: "expired",
    });
    expect(decidePayment(situation({ report: "expired", otherOpenAttempt: true }))).toMatchObject({
      orderTo: null,
    });
    // An accepted request's deposit: the order's window outlasts its checkout.
    expect(decidePayment(situation({ report: "expired", windowStillOpen: true }))).toEqual({
      outcome: "applied",
      attemptFrom: ["open"],
      attemptTo: "expired",
      orderFrom: null,
      orderTo: null,
    });
    expect(decidePayment(situation({ attempt: "failed", report: "expired" }))).toMatchObject({
      attemptFrom: ["failed"],
      attemptTo: "expired",
      orderTo: "expired",
    });
  });

  it("leaves the order waiting after a failed payment (the buyer may try again)", () => {
    expect(decidePayment(situation({ report: "failed" }))).toEqual({
      outcome: "applied",
      attemptFrom: ["open"],
      attemptTo: "failed",
      orderFrom: null,
      orderTo: null,
    });
    expect(decidePayment(situation({ attempt: "expired", report: "failed" }))).toEqual({
      outcome: "ignored",
    });
  });

  it("never leaves a paid order but for a success, and never pays twice, from any situation", () => {
    for (const attempt of ATTEMPT_STATUSES as readonly AttemptStatus[]) {
      for (const order of ORDER_STATUSES as readonly OrderStatus[]) {
        for (const report of REPORTED_STATUSES) {
          for (const amountMatches of [true, false]) {
            const decision = decidePayment(situation({ attempt, order, report, amountMatches }));
            if (!("attemptTo" in decision)) continue;
            // Every change starts from the statuses read: a compare-and-set.
            expect(decision.attemptFrom).toEqual([attempt]);
            if (decision.orderFrom) expect(decision.orderFrom).toEqual([order]);
            if (order === "paid" || order === "refunded") expect(decision.orderTo).toBeNull();
            if (decision.orderTo === "paid") expect(report).toBe("succeeded");
            if (report === "succeeded") expect(amountMatches).toBe(true);
          }
        }
      }
    }
  });

  it("lets the owner accept a held payment whatever its total, and nothing else (decision 0172)", () => {
    expect(
      decidePayment(situation({ attempt: "held", amountMatches: false, ownerAcceptsHeld: true })),
    ).toEqual({
      outcome: "applied",
      attemptFrom: ["held"],
      attemptTo: "succeeded",
      orderFrom: ["awaiting_payment"],
      orderTo: "paid",
    });
    expect(
      decidePayment(situation({ attempt: "held", order: "expired", ownerAcceptsHeld: true })),
    ).toMatchObject({ outcome: "late", orderTo: "paid" });
    // Accepted already (a second click): nothing more.
    expect(
      decidePayment(situation({ attempt: "succeeded", order: "paid", ownerAcceptsHeld: true })),
    ).toEqual({ outcome: "already_applied" });
    for (const attempt of ["open", "failed", "expired", "returned"] as const) {
      expect(decidePayment(situation({ attempt, ownerAcceptsHeld: true }))).toEqual({
        outcome: "ignored",
      });
    }
    // Without the owner, a held payment stays held, and a returned one returned.
    for (const attempt of ["held", "returned"] as const) {
      for (const report of REPORTED_STATUSES) {
        expect(decidePayment(situation({ attempt, report }))).toEqual({ outcome: "ignored" });
      }
    }
  });
});
