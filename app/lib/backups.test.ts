import { describe, expect, it } from "vitest";
import { erasedSentences, moneySentences } from "./backups";

describe("what a restore erases, in the owner's words", () => {
  it("counts what was made since the backup, singular for one, nothing said of none", () => {
    expect(
      erasedSentences({ bookings: 3, galleries: 1, messages: 0, subscribers: 2, clients: [] }),
    ).toEqual([
      "3 réservations faites depuis disparaîtront",
      "1 galerie client créée depuis disparaîtra",
      "2 abonnés inscrits depuis disparaîtront",
    ]);
    expect(
      erasedSentences({ bookings: 0, galleries: 0, messages: 0, subscribers: 0, clients: [] }),
    ).toEqual([]);
  });
});

describe("the money a restore takes off the site, in the owner's words", () => {
  const none = {
    payments: 0,
    paymentsCents: 0,
    documentCount: 0,
    documents: [],
    vouchersSold: 0,
    voucherUses: 0,
  };
  it("says each kind once, singular for one, nothing of none", () => {
    expect(moneySentences(none)).toEqual([]);
    expect(
      moneySentences({
        payments: 1,
        paymentsCents: 4_550,
        documentCount: 1,
        documents: ["F-2027-000002"],
        vouchersSold: 1,
        voucherUses: 1,
      }),
    ).toEqual([
      "1 paiement reçu depuis (45,50\u00a0€) disparaîtra des commandes du site ; l'argent, lui, est bien arrivé et reste au journal de caisse et dans les fichiers de votre comptable",
      "1 facture ou avoir émis depuis (F-2027-000002) restera dans le site et dans les fichiers de votre comptable, même si sa commande disparaît",
      "1 bon cadeau vendu depuis disparaîtra : son code, sur le PDF de son acheteur, ne marchera plus",
      "1 utilisation de bon cadeau depuis disparaîtra : ce bon pourra servir une seconde fois",
    ]);
  });
  it("lists the documents' numbers, and says when there are more than it lists", () => {
    expect(
      moneySentences({
        ...none,
        payments: 3,
        paymentsCents: 30_000,
        documentCount: 4,
        documents: ["F-2027-000002", "A-2027-000001", "F-2027-000003"],
        vouchersSold: 2,
        voucherUses: 2,
      }),
    ).toEqual([
      "3 paiements reçus depuis (300\u00a0€) disparaîtront des commandes du site ; l'argent, lui, est bien arrivé et reste au journal de caisse et dans les fichiers de votre comptable",
      "4 factures ou avoirs émis depuis (F-2027-000002, A-2027-000001, F-2027-000003…) resteront dans le site et dans les fichiers de votre comptable, même si leurs commandes disparaissent",
      "2 bons cadeaux vendus depuis disparaîtront : leurs codes, sur les PDF de leurs acheteurs, ne marcheront plus",
      "2 utilisations de bons cadeaux depuis disparaîtront : ces bons pourront servir une seconde fois",
    ]);
  });
});
