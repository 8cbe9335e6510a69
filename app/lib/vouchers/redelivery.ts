import { z } from "~/lib/zod";

/*
 * The buyer's correction of an undelivered voucher (decision 0167), on her order's page: the recipient's
 * address typed again, or the voucher sent to herself (at her own address corrected, when that is the one
 * refused). Checked on the server; what she typed comes back with the refusal.
 */

/** The fields of an address the form takes. */
export type RedeliveryField = "beneficiaireEmail" | "acheteurEmail";

/** What the form answers when it refuses, shown beside the address with what she typed. */
export type RedeliveryAnswer = { error: string; field: RedeliveryField; typed: string };

/** To herself (at `email`, her address corrected, when given), or to the recipient at `email`. */
export type RedeliveryTarget =
  { sendTo: "buyer"; email?: string } | { sendTo: "recipient"; email: string };

const email = z.email();

/**
 * Where she has it sent: « moi », or the recipient at the address typed (valid, and not the refused one).
 * When it was her own address that was refused (`ownRefused`), « moi » takes her address typed again.
 */
export function parseRedelivery(
  form: FormData,
  refused: string | null,
  ownRefused = false,
): { ok: true; target: RedeliveryTarget } | { ok: false; answer: RedeliveryAnswer } {
  const toHerself = form.get("destinataire") === "moi";
  if (toHerself && !ownRefused) return { ok: true, target: { sendTo: "buyer" } };
  const field: RedeliveryField = toHerself ? "acheteurEmail" : "beneficiaireEmail";
  // What else she may do, said with each refusal.
  const otherwise = ownRefused
    ? "ou téléchargez le bon sur cette page"
    : "ou recevez le bon vous-même";
  const raw = form.get(field);
  const typed = typeof raw === "string" ? raw : "";
  const address = typed.trim();
  const refuse = (error: string) => ({ ok: false, answer: { error, field, typed } }) as const;
  if (address.length > 255) return refuse("Cette adresse e-mail est trop longue.");
  if (!email.safeParse(address).success) {
    return refuse(
      `Indiquez une adresse e-mail valide (par exemple prenom@exemple.fr), ${otherwise}.`,
    );
  }
  if (refused !== null && address.toLowerCase() === refused.toLowerCase()) {
    return refuse(`C'est l'adresse qui a été refusée : vérifiez-la et corrigez-la, ${otherwise}.`);
  }
  return {
    ok: true,
    target: toHerself
      ? { sendTo: "buyer", email: address }
      : { sendTo: "recipient", email: address },
  };
}

/**
 * The owner's correction of a buyer's address (a typo the buyer told her of), from the order's admin
 * page: a valid address. What she typed comes back with the refusal.
 */
export function parseBuyerEmailCorrection(
  form: FormData,
): { ok: true; email: string } | { ok: false; error: string; typed: string } {
  const raw = form.get("acheteurEmail");
  const typed = typeof raw === "string" ? raw : "";
  const address = typed.trim();
  if (address.length > 255)
    return { ok: false, error: "Cette adresse e-mail est trop longue.", typed };
  if (!email.safeParse(address).success) {
    return {
      ok: false,
      error: "Indiquez une adresse e-mail valide (par exemple prenom@exemple.fr).",
      typed,
    };
  }
  return { ok: true, email: address };
}
