import { data } from "react-router";
import type { Route } from "./+types/importer";
import { withoutControlCharacters } from "~/lib/forms";
import { importFormErrors, type ImportSummary } from "~/lib/subscriber-import";
import { requireAdmin } from "~/server/admin/guard.server";
import { RETENTION_MONTHS } from "~/lib/retention";
import {
  importSubscribers,
  parseSubscriberCsv,
} from "~/server/newsletter/subscriber-import.server";
import { failedForm, invalidForm } from "~/server/forms.server";
import { log } from "~/server/logger.server";

/** Invalid lines listed at most on the page (the count says how many there are in all). */
const LISTED_INVALID_LINES = 500;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { retentionMonths: RETENTION_MONTHS };
}

/** The uploaded file's name as recorded with the consent: one line, short. */
function recordedFileName(name: string): string {
  return withoutControlCharacters(name).replace(/\s+/g, " ").trim().slice(0, 200) || "fichier.csv";
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const file = formData.get("fichier");
  const upload = file instanceof File ? file : null;
  const attested = formData.get("attestation") === "on";
  const values: Record<string, string> = attested ? { attestation: "on" } : {};
  const errors = importFormErrors(upload, attested);
  if (!upload || Object.keys(errors).length > 0) return invalidForm(values, errors);

  const parsed = parseSubscriberCsv(new Uint8Array(await upload.arrayBuffer()));
  if (!parsed.ok) return invalidForm(values, { fichier: parsed.message });
  const fileName = recordedFileName(upload.name);
  try {
    const counts = await importSubscribers(parsed.rows, { adminEmail: admin.email, fileName });
    const summary: ImportSummary = {
      fileName,
      ...counts,
      invalid: parsed.invalid.slice(0, LISTED_INVALID_LINES),
      invalidCount: parsed.invalid.length,
    };
    return data({ status: "imported" as const, summary });
  } catch (error) {
    log.error("admin_subscribers_import_failed", { error });
    return failedForm(values, {
      type: "error",
      title: "Erreur",
      description: "L'import a échoué : aucune adresse n'a été ajoutée. Réessayez dans un instant.",
    });
  }
}
