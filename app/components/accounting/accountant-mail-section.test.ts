import { describe, expect, it } from "vitest";
import { lastMonthlySentence, notSentSentence, refusedSentence } from "./accountant-mail-section";

describe("the accountant's monthly e-mail on /admin/comptabilite", () => {
  it("names the month of the last files sent, « de » elided before a vowel", () => {
    expect(lastMonthlySentence(null)).toBe("Aucun envoi mensuel pour l'instant.");
    expect(
      lastMonthlySentence({
        month: "août 2027",
        sentAt: "2027-09-01T05:02:00.000Z",
        waiting: false,
      }),
    ).toBe("Dernier envoi mensuel : les fichiers d'août 2027, le 1er septembre 2027 à 07:02.");
    expect(lastMonthlySentence({ month: "octobre 2027", sentAt: null, waiting: true })).toBe(
      "Envoi mensuel des fichiers d'octobre 2027 en attente du serveur d'e-mails.",
    );
    expect(lastMonthlySentence({ month: "novembre 2027", sentAt: null, waiting: true })).toBe(
      "Envoi mensuel des fichiers de novembre 2027 en attente du serveur d'e-mails.",
    );
  });

  it("says that a month's files did not reach the accountant, and how to send them, when nothing waits any more", () => {
    expect(lastMonthlySentence({ month: "novembre 2027", sentAt: null, waiting: false })).toBe(
      "Les fichiers de novembre 2027 ne sont pas parvenus à votre comptable : le serveur d'e-mails a refusé l'adresse ou n'a pas répondu, ou l'envoi mensuel a été arrêté avant leur départ. Vérifiez l'adresse ci-dessus, enregistrez-la avec l'envoi mensuel coché, puis affichez la période de novembre 2027 en haut de cette page et cliquez sur « Envoyer maintenant les fichiers de la période ». Envoyés à une autre adresse, ils restent signalés ici.",
    );
  });

  it("says that earlier months' files did not reach the accountant, and how to send them", () => {
    expect(notSentSentence([])).toBeNull();
    const october = {
      month: "octobre 2027",
      href: "/admin/comptabilite?du=2027-10-01&au=2027-10-31",
    };
    expect(notSentSentence([october])).toBe(
      "Les fichiers d'un mois précédent ne sont pas parvenus à votre comptable : le serveur d'e-mails a refusé l'adresse ou n'a pas répondu, ou l'envoi mensuel a été arrêté avant leur départ. L'adresse de votre comptable enregistrée ci-dessus avec l'envoi mensuel coché, affichez sa période et cliquez sur « Envoyer maintenant les fichiers de la période » (envoyés à une autre adresse, ils restent signalés ici) :",
    );
    expect(
      notSentSentence([
        { month: "septembre 2027", href: "/admin/comptabilite?du=2027-09-01&au=2027-09-30" },
        october,
      ]),
    ).toBe(
      "Les fichiers de 2 mois précédents ne sont pas parvenus à votre comptable : le serveur d'e-mails a refusé l'adresse ou n'a pas répondu, ou l'envoi mensuel a été arrêté avant leur départ. L'adresse de votre comptable enregistrée ci-dessus avec l'envoi mensuel coché, affichez la période de chacun et cliquez sur « Envoyer maintenant les fichiers de la période » (envoyés à une autre adresse, ils restent signalés ici) :",
    );
  });

  it("says when the mail server last refused the saved address, and why", () => {
    expect(refusedSentence(null)).toBeNull();
    expect(
      refusedSentence({
        at: "2027-12-03T09:02:00.000Z",
        error:
          "Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 5.1.1 Mailbox unknown »).",
      }),
    ).toBe(
      "Le serveur d'e-mails a refusé un envoi à cette adresse le 3 décembre 2027 à 10:02 : Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 5.1.1 Mailbox unknown »). Vérifiez l'adresse de votre comptable, enregistrez-la, puis envoyez-lui les fichiers.",
    );
  });
});
