import { FRENCH_MONTHS } from "~/lib/dates";
import { z } from "~/lib/zod";
import { csvDay } from "./csv";
import type { PeriodInput } from "./period";

/*
 * The accountant's e-mail (decision 0189): her address and the switch of the monthly e-mail, as
 * /admin/comptabilite's form sends them (the box sends « on » when ticked, nothing when not), and the words
 * that name a period in the e-mail and the page.
 */

export const ACCOUNTANT_MAIL_FIELDS = {
  email: "Adresse e-mail du cabinet comptable",
  envoiMensuel: "Envoyer chaque mois les fichiers au cabinet comptable",
} as const;

export const accountantMailForm = z
  .object({
    email: z
      .string()
      .trim()
      .max(255, "Cette adresse est trop longue (255 caractères au plus).")
      .pipe(
        z.union([
          z.literal(""),
          z.email("Cette adresse e-mail n'est pas valide (exemple : cabinet@exemple.fr)."),
        ]),
      ),
    envoiMensuel: z.literal("on").optional(),
  })
  .superRefine((form, context) => {
    if (form.envoiMensuel === "on" && form.email === "") {
      context.addIssue({
        code: "custom",
        path: ["email"],
        message: "Indiquez l'adresse de votre comptable : c'est là que partent les fichiers.",
      });
    }
  });

/** « novembre 2026 » for a whole calendar month, « du 03/11/2026 au 17/11/2026 » otherwise. */
export function periodWords({ from, to }: PeriodInput): string {
  const [year, month] = from.split("-").map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return from.endsWith("-01") && to === lastDay
    ? `${FRENCH_MONTHS[month - 1]} ${year}`
    : `du ${csvDay(from)} au ${csvDay(to)}`;
}
