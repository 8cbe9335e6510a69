import { z } from "~/lib/zod";

/*
 * The buyer's correction of an undelivered voucher (decision 0167), on her order's page: the recipient's
 * address typed again, or the voucher sent to herself. Checked on the server; what she typed comes back
 * with the refusal.
 */

/** What the form answers when it refuses, shown beside the address with what she typed. */
export type RedeliveryAnswer = { error: string; field: "beneficiaireEmail"; typed: string };

export type RedeliveryTarget = { sendTo: "buyer" } | { sendTo: "recipient"; email: string };

const email = z.email();

/** Where she has it sent: « moi », or the recipient at the address typed (valid, and not the refused one). */
export function parseRedelivery(
  form: FormData,
  refused: string | null,
): { ok: true; target: RedeliveryTarget } | { ok: false; answer: RedeliveryAnswer } {
  if (form.get("destinataire") === "moi") return { ok: true, target: { sendTo: "buyer" } };
  const raw = form.get("beneficiaireEmail");
  const typed = typeof raw === "string" ? raw : "";
  const address = typed.trim();
  const refuse = (error: string) =>
    ({ ok: false, answer: { error, field: "beneficiaireEmail", typed } }) as const;
  if (address.length > 255) return refuse("Cette adresse e-mail est trop longue.");
  if (!email.safeParse(address).success) {
    return refuse(
      "Indiquez une adresse e-mail valide (par exemple prenom@exemple.fr), ou recevez le bon vous-même.",
    );
  }
  if (refused !== null && address.toLowerCase() === refused.toLowerCase()) {
    return refuse(
      "C'est l'adresse qui a été refusée : vérifiez-la et corrigez-la, ou recevez le bon vous-même.",
    );
  }
  return { ok: true, target: { sendTo: "recipient", email: address } };
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
