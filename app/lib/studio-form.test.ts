import { describe, expect, it } from "vitest";
import type { StudioData } from "~/content/schemas";
import { parseStudioForm, studioFormValues } from "./studio-form";

const PHOTO = "00000000-0000-4000-8000-000000000001";

const studio: StudioData = {
  name: "Studio d'Ussel",
  city: "Ussel",
  description: "Notre studio historique.",
  longDescription: "",
  address: { street: "19 rue du 4 Septembre", postalCode: "19200", city: "Ussel" },
  phone: "05 36 49 10 01",
  email: "ussel@example.com",
  bookingUrl: "https://reservation.example.com/ussel",
  onlineBooking: false,
  giftVoucherUrl: "",
  hours: {
    Tuesday: [
      { opens: "09:00", closes: "12:00", note: "sans rendez-vous" },
      { opens: "14:00", closes: "18:00" },
    ],
  },
  closures: [{ from: "2026-08-01", to: "2026-08-15", label: "Congés d'été" }],
  geo: { latitude: 45.5477, longitude: 2.3094 },
  photo: PHOTO,
  contactForm: {
    shootingTypes: [{ value: "portrait-signature", label: "Portrait signature" }],
    sources: [{ value: "bouche-oreille", label: "Bouche-à-oreille" }],
    telephone: "none",
    sourceRequired: true,
  },
};

describe("the studio form", () => {
  it("reads back exactly what it shows of a stored studio", () => {
    expect(parseStudioForm(studioFormValues("ussel", studio), studio, "x")).toEqual({
      ok: true,
      slug: "ussel",
      data: studio,
    });
  });

  it("turns « Réservation en ligne » on with its box, off without it (a box not ticked is not posted)", () => {
    const on = parseStudioForm(
      { ...studioFormValues("ussel", studio), onlineBooking: "on" },
      studio,
      "x",
    );
    expect(on.ok && on.data.onlineBooking).toBe(true);
    expect(on.ok && studioFormValues("ussel", on.data).onlineBooking).toBe("on");
    const { onlineBooking: _dropped, ...unticked } = studioFormValues("ussel", {
      ...studio,
      onlineBooking: true,
    });
    const off = parseStudioForm(unticked, studio, "x");
    expect(off.ok && off.data.onlineBooking).toBe(false);
  });

  it("keeps an option's value when its label stays, derives one for a new label", () => {
    const values = {
      ...studioFormValues("ussel", studio),
      shootingTypes: "Portrait signature\nPhoto d'identité\n\n",
    };
    const parsed = parseStudioForm(values, studio, "x");
    expect(parsed.ok && parsed.data.contactForm.shootingTypes).toEqual([
      { value: "portrait-signature", label: "Portrait signature" },
      { value: "photo-d-identite", label: "Photo d'identité" },
    ]);
  });

  it("gives a new studio the photo it is given, and reads « 45,5 » coordinates", () => {
    const values = { ...studioFormValues("tulle", studio), latitude: "45,2658", longitude: "1,77" };
    const parsed = parseStudioForm(values, null, PHOTO);
    expect(parsed.ok && parsed.data.geo).toEqual({ latitude: 45.2658, longitude: 1.77 });
    expect(parsed.ok && parsed.data.photo).toBe(PHOTO);
  });

  it("says what to correct at each field", () => {
    const values = {
      ...studioFormValues("ussel", studio),
      name: " ",
      slug: "Studio Tulle",
      postalCode: "1920",
      email: "ussel",
      bookingUrl: "http://reservation.example.com",
      latitude: "95",
      "hours-Saturday": "18h–9h",
      "closure-from-0": "2026-08-15",
      "closure-to-0": "2026-08-01",
      shootingTypes: "Portrait\nportrait",
      telephone: "peut-être",
    };
    expect(parseStudioForm(values, studio, "x")).toEqual({
      ok: false,
      errors: {
        name: "Indiquez le nom du studio",
        slug: "Lettres minuscules, chiffres et tirets seulement (exemple : tulle)",
        postalCode: "Le code postal compte 5 chiffres (exemple : 19200)",
        email: "Adresse e-mail invalide (exemple : studio@exemple.fr)",
        bookingUrl: "Le lien doit être une adresse complète commençant par https://",
        latitude: "Latitude invalide (exemple : 45,5477)",
        "hours-Saturday": "Samedi : l'heure de fermeture doit suivre l'heure d'ouverture",
        "closure-to-0": "Le dernier jour doit suivre le premier",
        shootingTypes: "« portrait » est écrit deux fois",
        telephone: "Choisissez si le téléphone est demandé",
      },
    });
  });

  it("refuses a slug longer than a message's studio column", () => {
    const values = { ...studioFormValues("ussel", studio), slug: "a".repeat(21) };
    expect(parseStudioForm(values, studio, "x")).toEqual({
      ok: false,
      errors: { slug: "20 caractères au plus" },
    });
  });
});
