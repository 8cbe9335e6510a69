import { describe, expect, it } from "vitest";
import { lastMonthlySentence } from "./accountant-mail-section";

describe("the accountant's monthly e-mail on /admin/comptabilite", () => {
  it("names the month of the last files sent, « de » elided before a vowel", () => {
    expect(lastMonthlySentence(null)).toBe("Aucun envoi mensuel pour l'instant.");
    expect(lastMonthlySentence({ month: "août 2027", sentAt: "2027-09-01T05:02:00.000Z" })).toBe(
      "Dernier envoi mensuel : les fichiers d'août 2027, le 1er septembre 2027 à 07:02.",
    );
    expect(lastMonthlySentence({ month: "octobre 2027", sentAt: null })).toBe(
      "Envoi mensuel des fichiers d'octobre 2027 en attente du serveur d'e-mails.",
    );
    expect(lastMonthlySentence({ month: "novembre 2027", sentAt: null })).toBe(
      "Envoi mensuel des fichiers de novembre 2027 en attente du serveur d'e-mails.",
    );
  });
});
