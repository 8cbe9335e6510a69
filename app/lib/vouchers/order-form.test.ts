import { describe, expect, it } from "vitest";
import { readVoucherOrder, type VoucherOrderContext } from "./order-form";

const FAMILY = "5b0f3c0e-8f5e-4a57-9a51-0c1a2b3c4d5e";
const CONTEXT: VoucherOrderContext = {
  sessions: [{ sessionTypeId: FAMILY, euros: 149, studioSlugs: ["brive", "ussel"] }],
  presets: [50, 100, 150],
  minEuros: 30,
  maxEuros: 500,
  methods: ["card", "transfer"],
  today: "2026-11-29",
};

const SESSION = {
  offre: FAMILY,
  studio: "brive",
  acheteurNom: "Élodie Martin",
  acheteurEmail: "elodie@example.com",
  beneficiaire: "Chloé",
  message: "Joyeux Noël !\r\nAvec toute mon affection.",
  destinataire: "acheteur",
  envoi: "maintenant",
  paiement: "card",
  conditions: "on",
};

describe("the voucher order form", () => {
  it("reads a session voucher for one studio, sent to the buyer as soon as it is paid", () => {
    expect(readVoucherOrder(SESSION, CONTEXT)).toEqual({
      ok: true,
      order: {
        offer: { kind: "session", sessionTypeId: FAMILY, studioSlug: "brive", euros: 149 },
        buyer: { name: "Élodie Martin", email: "elodie@example.com", phone: "" },
        recipient: { name: "Chloé", email: null },
        message: "Joyeux Noël !\nAvec toute mon affection.",
        sendTo: "buyer",
        deliveryDay: null,
        method: "card",
      },
    });
  });

  it("reads an amount, preset or typed, sent to the recipient on a chosen day", () => {
    const amount = {
      ...SESSION,
      offre: "montant",
      montant: "autre",
      montantLibre: "80 €",
      destinataire: "beneficiaire",
      beneficiaireEmail: "chloe@example.com",
      envoi: "date",
      dateEnvoi: "2026-12-24",
    };
    const read = readVoucherOrder(amount, CONTEXT);
    expect(read.ok && read.order).toMatchObject({
      offer: { kind: "amount", euros: 80 },
      recipient: { name: "Chloé", email: "chloe@example.com" },
      sendTo: "recipient",
      deliveryDay: "2026-12-24",
    });
    const preset = readVoucherOrder({ ...amount, montant: "100" }, CONTEXT);
    expect(preset.ok && preset.order.offer).toEqual({ kind: "amount", euros: 100 });
  });

  it("refuses what the owner does not offer, in French, at the field", () => {
    const refused = (changes: Record<string, string>) => {
      const read = readVoucherOrder({ ...SESSION, ...changes }, CONTEXT);
      return read.ok ? {} : read.errors;
    };
    expect(refused({ offre: "" })).toEqual({ offre: "Choisissez ce que vous offrez." });
    expect(refused({ offre: "9e0f3c0e-8f5e-4a57-9a51-0c1a2b3c4d5e" }).offre).toBe(
      "Cette séance n'est plus proposée : choisissez-en une autre.",
    );
    expect(refused({ studio: "limoges" }).studio).toBe(
      "Cette séance n'est pas proposée dans ce studio : choisissez-en un autre.",
    );
    expect(refused({ studio: "tous" })).toEqual({});
    expect(refused({ offre: "montant", montant: "75" }).montant).toBe("Choisissez un montant.");
    expect(refused({ offre: "montant", montant: "autre", montantLibre: "20" }).montantLibre).toBe(
      "Choisissez un montant entre 30 et 500 €.",
    );
    expect(
      refused({ offre: "montant", montant: "autre", montantLibre: "80,50" }).montantLibre,
    ).toBe("Indiquez un montant en euros entiers, par exemple 80.");
    expect(refused({ paiement: "studio" }).paiement).toBe("Choisissez comment vous payez.");
  });

  it("refuses missing details, a day past or beyond a year, and a missing consent", () => {
    const read = readVoucherOrder(
      {
        ...SESSION,
        acheteurNom: "  ",
        acheteurEmail: "elodie@",
        beneficiaire: "",
        destinataire: "beneficiaire",
        beneficiaireEmail: "",
        envoi: "date",
        dateEnvoi: "2026-11-28",
        message: "x".repeat(501),
        conditions: "",
      },
      CONTEXT,
    );
    expect(read.ok ? {} : read.errors).toEqual({
      acheteurNom: "Indiquez votre nom.",
      acheteurEmail: "Indiquez une adresse e-mail valide : le bon et la commande y sont envoyés.",
      beneficiaire: "Indiquez à qui vous offrez ce bon : son nom est imprimé dessus.",
      message: "Votre message compte 501 caractères : 500 au plus.",
      beneficiaireEmail: "Indiquez l'adresse e-mail du bénéficiaire, ou recevez le bon vous-même.",
      dateEnvoi: "Ce jour est passé : choisissez aujourd'hui ou un jour à venir.",
      conditions: "Pour commander, acceptez les conditions des bons cadeaux.",
    });
    const late = readVoucherOrder({ ...SESSION, envoi: "date", dateEnvoi: "2027-11-30" }, CONTEXT);
    expect(late.ok ? {} : late.errors).toEqual({
      dateEnvoi: "Choisissez un jour dans l'année qui vient.",
    });
    const impossible = readVoucherOrder(
      { ...SESSION, envoi: "date", dateEnvoi: "2026-12-32" },
      CONTEXT,
    );
    expect(impossible.ok ? {} : impossible.errors).toEqual({
      dateEnvoi: "Choisissez le jour de l'envoi.",
    });
  });

  it("asks rather than drops a day or a recipient's address typed beside the choice left « now » or « to me »", () => {
    // Without JavaScript the choices stay as the page drew them (« Dès le paiement reçu », « À moi »):
    // a buyer who only typed the day, or the recipient's address, would have the gift sent at once, to her.
    const day = readVoucherOrder({ ...SESSION, dateEnvoi: "2026-12-24" }, CONTEXT);
    expect(day.ok ? {} : day.errors).toEqual({
      dateEnvoi:
        "Vous avez indiqué un jour d'envoi : cochez « Un jour choisi, à 9 h » pour l'envoyer ce jour-là, ou effacez ce jour pour l'envoyer dès le paiement reçu.",
    });
    const address = readVoucherOrder(
      { ...SESSION, beneficiaireEmail: "chloe@example.com" },
      CONTEXT,
    );
    expect(address.ok ? {} : address.errors).toEqual({
      beneficiaireEmail:
        "Vous avez indiqué l'e-mail du bénéficiaire : cochez « Directement au bénéficiaire » pour qu'il le reçoive, ou effacez cette adresse pour recevoir le bon vous-même.",
    });
    // Spaces only are nothing typed.
    expect(
      readVoucherOrder({ ...SESSION, dateEnvoi: " ", beneficiaireEmail: " " }, CONTEXT).ok,
    ).toBe(true);
  });

  it("keeps names and the message within what the voucher prints", () => {
    const read = readVoucherOrder(
      { ...SESSION, beneficiaire: "C".repeat(61), message: "un\ndeux\n3\n4\n5\n6\n7\n8\n9" },
      CONTEXT,
    );
    expect(read.ok ? {} : read.errors).toEqual({
      beneficiaire: "Ce nom est trop long : 60 caractères au plus (il est imprimé sur le bon).",
      message: "Votre message compte 9 lignes : 8 au plus, pour tenir sur le bon.",
    });
  });

  it("keeps a single-line field on one line: a line break cannot forge a line of an e-mail", () => {
    const read = readVoucherOrder(
      { ...SESSION, acheteurNom: "Élodie\r\nBcc: x@example.com" },
      CONTEXT,
    );
    expect(read.ok && read.order.buyer.name).toBe("Élodie Bcc: x@example.com");
  });
});
