import { z } from "~/lib/zod";

/**
 * The newsletter form (SPEC §5), used by the browser for instant messages and by the action as authority.
 * Kept apart from ./newsletter so that pages load zod only when a visitor submits the form.
 */
export const newsletterSchema = z.object({
  email: z
    .string({ message: "Email invalide" })
    .trim()
    .max(255, "Email trop long")
    .pipe(z.email("Email invalide")),
});
