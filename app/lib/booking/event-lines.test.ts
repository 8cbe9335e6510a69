import { describe, expect, it } from "vitest";
import { eventSentence, type BookingEventView } from "./event-lines";

// Decision 0138: the history names an administrator as a person reads her, never by a login word.
const accepted: BookingEventView = {
  kind: "accepted",
  actor: "owner",
  actorName: "owner",
  actorUserId: "user-1",
  actorEmail: "owner@studio.example",
  detail: {},
};

describe("eventSentence", () => {
  it("says « par vous » to the administrator who did it", () => {
    expect(eventSentence(accepted, "user-1")).toBe("Demande acceptée par vous");
  });

  it("names another administrator by her e-mail address", () => {
    expect(eventSentence(accepted, "user-2")).toBe("Demande acceptée par owner@studio.example");
  });

  it("keeps the address recorded at the time when the account has gone, never a login word", () => {
    const gone = { ...accepted, actorUserId: null, actorEmail: null };
    expect(eventSentence({ ...gone, actorName: "marie@studio.example" }, "user-2")).toBe(
      "Demande acceptée par marie@studio.example",
    );
    expect(eventSentence(gone, "user-2")).toBe("Demande acceptée par l'administration");
  });

  it("says when a phone booking sent the client nothing", () => {
    const booked = { ...accepted, kind: "booked" as const };
    expect(eventSentence({ ...booked, detail: { clientMail: "not_sent" } }, "user-1")).toBe(
      "Réservée par vous (prise par téléphone, sans e-mail au client)",
    );
    expect(eventSentence({ ...booked, detail: { clientMail: "no_address" } }, "user-1")).toBe(
      "Réservée par vous (prise par téléphone, sans e-mail : rien n'est envoyé au client)",
    );
  });

  it("says what a correction of the client's details changed, and where its recap went", () => {
    const corrected = {
      ...accepted,
      kind: "client_changed" as const,
      detail: {
        before: { name: "Léa Matin", email: "", phone: "06 12 34 56 78" },
        after: { name: "Léa Martin", email: "lea@exemple.test", phone: "06 12 34 56 78" },
        recapTo: "lea@exemple.test",
      },
    };
    expect(eventSentence(corrected, "user-1")).toBe(
      "Coordonnées du client corrigées par vous : nom « Léa Matin » → « Léa Martin » ; e-mail aucun → « lea@exemple.test » ; récapitulatif de la réservation envoyé à lea@exemple.test",
    );
  });

  // Decision 0186 (amended 2026-12-01): a lapsed deposit, or one paid too late, was no request.
  it("says a booking lapsed unpaid or paid too late was no request left unanswered", () => {
    const expired = { ...accepted, kind: "expired" as const, actor: "system" as const };
    expect(eventSentence({ ...expired, detail: {} })).toBe(
      "Demande expirée sans réponse avant la date limite (le client est prévenu)",
    );
    expect(eventSentence({ ...expired, detail: { unpaid: true } })).toBe(
      "Non confirmée : paiement non reçu avant la date limite (le client est prévenu)",
    );
    expect(eventSentence({ ...expired, detail: { lateDeposit: true } })).toBe(
      "Paiement arrivé après la libération du créneau : remboursement en entier (le client est prévenu)",
    );
  });
});
