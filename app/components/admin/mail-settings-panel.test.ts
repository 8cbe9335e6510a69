import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MailSettings, WaitingMail } from "~/lib/newsletter-admin";
import { MailSettingsPanel, waitingSentence } from "./mail-settings-panel";

const off: MailSettings = {
  enabled: false,
  server: null,
  secure: false,
  sender: "Studio Photo <contact@studio.fr>",
  senderFromEnvironment: false,
  dkim: null,
  ratePerMinute: 300,
};

const text = (settings: MailSettings, waiting: WaitingMail | null) =>
  renderToStaticMarkup(createElement(MailSettingsPanel, { settings, waiting }))
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/[ \t\n]+/g, " ");

describe("MailSettingsPanel", () => {
  it("without SMTP_URL says that e-mail is off, what to set, that nothing is lost and what waits", () => {
    const shown = text(off, { messages: 3, newsletterBatches: 2, newsletterEmails: 1250 });
    expect(shown).toContain("L'envoi d'e-mails est désactivé");
    expect(shown).toContain("SMTP_URL");
    expect(shown).toContain("SMTP_FROM");
    expect(shown).toContain("Rien n'est perdu");
    expect(shown).toContain(
      "En attente d'envoi : 3 e-mails (confirmations d'inscription, messages de contact, liens d'administration) et 1\u202f250 e-mails de newsletter (2 lots dans la file).",
    );
    expect(shown).toContain("Aucun : SMTP_URL n'est pas défini");
    expect(shown).toContain("Studio Photo <contact@studio.fr>");
    expect(shown).toContain("SMTP_FROM n'est pas défini");
    expect(shown).toContain("300 e-mails par minute");
    expect(shown).not.toContain("est activé");
  });

  it("with SMTP_URL shows the server, the sender, DKIM's domain and selector and the pace", () => {
    const shown = text(
      {
        enabled: true,
        server: "smtp.example.fr:465",
        secure: true,
        sender: "Studio <envoi@example.fr>",
        senderFromEnvironment: true,
        dkim: { domain: "example.fr", selector: "studio2026" },
        ratePerMinute: 1,
      },
      { messages: 0, newsletterBatches: 0, newsletterEmails: 0 },
    );
    expect(shown).toContain("L'envoi d'e-mails est activé.");
    expect(shown).not.toContain("désactivé");
    expect(shown).toContain("smtp.example.fr:465 (connexion chiffrée SMTPS)");
    expect(shown).toContain("Défini par SMTP_FROM.");
    expect(shown).toContain("Activée : domaine example.fr , sélecteur studio2026");
    expect(shown).toContain("1 e-mail par minute");
    expect(shown).toContain("File d'attente Aucun e-mail n'attend d'être envoyé.");
  });

  it("says so when the queue could not be read", () => {
    expect(waitingSentence(null)).toBe("Impossible de lire la file d'attente pour l'instant.");
    expect(waitingSentence({ messages: 1, newsletterBatches: 0, newsletterEmails: 0 })).toBe(
      "En attente d'envoi : 1 e-mail (confirmations d'inscription, messages de contact, liens d'administration).",
    );
  });
});
