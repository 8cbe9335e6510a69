import { describe, expect, it } from "vitest";
import type { SitePhoto } from "~/lib/media";
import { isPlaceholder } from "~/lib/placeholders";
import { goLiveChecklist } from "./go-live.server";
import { seedDocuments, seedStudios } from "~/content/seed";
import { studioPaths, type SiteContent } from "./site-content.server";

function content(change?: (draft: SiteContent) => void): SiteContent {
  const draft: SiteContent = {
    version: 1,
    documents: structuredClone(seedDocuments),
    studios: seedStudios.map((studio, index) => ({
      id: `studio-${index}`,
      slug: studio.slug,
      ...studioPaths(studio.slug),
      data: structuredClone(studio.data),
    })),
    redirects: new Map(),
    otherRows: new Set(),
    photo: (id) => ({ id, demo: id.startsWith("demo:") }) as SitePhoto,
  };
  change?.(draft);
  return draft;
}

describe("go-live checklist", () => {
  it("lists every demo value of the seed as still to do, each with the form that changes it", () => {
    const items = goLiveChecklist(content());
    // 15 since decision 0176 (the seller's identity that invoices need).
    expect(items).toHaveLength(15);
    expect(items.filter((item) => item.done)).toEqual([]);
    const brive = items.find((item) => item.label.startsWith("Studio de Brive"));
    expect(brive).toMatchObject({
      href: "/admin/studios/studio-1",
      detail: "téléphone, e-mail, réservation en ligne, bons cadeaux",
    });
    expect(items.find((item) => item.label.startsWith("Photos"))?.detail).toMatch(
      /^\d+ photo\(s\) de démonstration en ligne$/,
    );
  });

  it("asks for what an invoice needs of the seller until it is all there (decision 0176)", () => {
    const seller = (change?: (draft: SiteContent) => void) =>
      goLiveChecklist(content(change)).find((item) => item.label.startsWith("Facturation"));
    expect(seller()).toMatchObject({
      href: "/admin/site#facturation",
      done: false,
      detail:
        "raison sociale, immatriculation (RCS ou RM), SIRET, médiateur de la consommation, site du médiateur",
    });
    expect(
      seller((draft) => {
        Object.assign(draft.documents.legal, {
          companyName: "Atelier Lumière SARL",
          rcs: "RCS Brive 443 061 841",
          siret: "443 061 841 00047",
          mediator: { name: "CM2C", website: "https://www.cm2c.net" },
        });
      }),
    ).toMatchObject({ done: true });
  });

  it("ticks what the owner replaced", () => {
    const items = goLiveChecklist(
      content((draft) => {
        draft.documents.identity.brand = "Atelier Lumière";
        draft.documents.identity.email = "bonjour@atelier-lumiere.fr";
        draft.documents.identity.phone = "05 55 12 34 56";
        const brive = draft.studios[1];
        if (brive) {
          brive.data.phone = "05 55 98 76 54";
          brive.data.email = "brive@atelier-lumiere.fr";
          brive.data.bookingUrl = "https://rdv.atelier-lumiere.fr/brive";
          brive.data.giftVoucherUrl = "";
        }
      }),
    );
    const byLabel = (start: string) => items.find((item) => item.label.startsWith(start));
    expect(byLabel("Nom du studio")?.done).toBe(true);
    expect(byLabel("Coordonnées générales")?.done).toBe(true);
    expect(byLabel("Studio de Brive")?.done).toBe(true);
    expect(byLabel("Studio d'Ussel")?.done).toBe(false);
  });

  it("« Réservation en ligne » is to do until every studio takes bookings on the site, whose external link then no longer counts", () => {
    const off = goLiveChecklist(content()).find((item) => item.label === "Réservation en ligne");
    expect(off).toMatchObject({
      done: false,
      href: "/admin/studios/studio-0",
      detail: "pas encore activée : Studio d'Ussel, Studio de Brive, Studio de Limoges",
    });
    const items = goLiveChecklist(
      content((draft) => {
        for (const studio of draft.studios) studio.data.onlineBooking = true;
      }),
    );
    expect(items.find((item) => item.label === "Réservation en ligne")?.done).toBe(true);
    expect(items.find((item) => item.label.startsWith("Studio de Brive"))?.detail).toBe(
      "téléphone, e-mail, bons cadeaux",
    );
  });

  it("a studio's voucher shop no longer counts once vouchers are sold on the site", () => {
    const items = goLiveChecklist(
      content((draft) => {
        draft.documents.payments.vouchersOnSale = true;
      }),
    );
    expect(items.find((item) => item.label.startsWith("Studio de Brive"))?.detail).toBe(
      "téléphone, e-mail, réservation en ligne",
    );
  });

  it("a studio with booking on but no session type or no photographer is not done, and says what it lacks", () => {
    const on = content((draft) => {
      for (const studio of draft.studios) studio.data.onlineBooking = true;
    });
    const ready = { sessionTypes: 2, photographers: 1 };
    const items = goLiveChecklist(on, {
      studios: new Map([
        ["studio-0", ready],
        ["studio-1", { sessionTypes: 0, photographers: 1 }],
        ["studio-2", { sessionTypes: 0, photographers: 0 }],
      ]),
      demoSessionTypes: [],
    });
    expect(items.find((item) => item.label === "Réservation en ligne")).toMatchObject({
      done: false,
      href: "/admin/studios/studio-1",
      detail:
        "Studio de Brive : il manque une séance proposée dans ce studio ; Studio de Limoges : il manque une séance proposée dans ce studio et un photographe qui y travaille",
    });
    const all = goLiveChecklist(on, {
      studios: new Map(["studio-0", "studio-1", "studio-2"].map((id) => [id, ready])),
      demoSessionTypes: [],
    });
    expect(all.find((item) => item.label === "Réservation en ligne")?.done).toBe(true);
  });

  it("names the demo's session types until the owner has saved (or archived) each", () => {
    const pending = goLiveChecklist(content(), {
      studios: new Map(),
      demoSessionTypes: [
        { name: "Séance Famille", reviewed: true },
        { name: "Séance Naissance", reviewed: false },
        { name: "Portrait CV", reviewed: false },
      ],
    }).find((item) => item.label.startsWith("Séances de démonstration"));
    expect(pending).toMatchObject({
      done: false,
      href: "/admin/reservations/seances",
      detail: "à relire et enregistrer (ou archiver) : Séance Naissance, Portrait CV",
    });
    const reviewed = goLiveChecklist(content(), {
      studios: new Map(),
      demoSessionTypes: [{ name: "Séance Famille", reviewed: true }],
    }).find((item) => item.label.startsWith("Séances de démonstration"));
    expect(reviewed?.done).toBe(true);
    // A site without the demo's booking has no such line.
    expect(
      goLiveChecklist(content(), { studios: new Map(), demoSessionTypes: [] }).map(
        (item) => item.label,
      ),
    ).not.toContain("Séances de démonstration : prix, durées et règles");
  });

  it("recognises the seed's placeholders and nothing real", () => {
    for (const value of [
      "contact@example.com",
      "05 36 49 10 01",
      "000 000 000 00000",
      "FR00 000000000",
    ]) {
      expect(isPlaceholder(value), value).toBe(true);
    }
    for (const value of [
      "05 55 12 34 56",
      "RCS Brive 812 345 678",
      "https://www.facebook.com/atelier",
    ]) {
      expect(isPlaceholder(value), value).toBe(false);
    }
  });
});
