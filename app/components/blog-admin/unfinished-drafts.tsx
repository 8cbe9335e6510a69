import { Link } from "react-router";
import { formatLongDateTimeFr } from "~/lib/dates";

type UnfinishedDraft = { id: string; title: string; updatedAt: Date | string };

/**
 * Above « Nouvel article »: the drafts her autosave kept from an earlier visit that she never saved
 * herself. She resumes one, or writes a new article in the form below.
 */
export function UnfinishedDrafts({ drafts }: { drafts: UnfinishedDraft[] }) {
  if (drafts.length === 0) return null;
  return (
    <section
      aria-labelledby="brouillons-non-termines"
      className="space-y-2 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950"
    >
      <h2 id="brouillons-non-termines" className="text-lg font-semibold">
        {drafts.length === 1
          ? "Un brouillon n'est pas terminé"
          : "Des brouillons ne sont pas terminés"}
      </h2>
      <ul className="space-y-1">
        {drafts.map((draft) => (
          <li key={draft.id}>
            <Link
              to={`/admin/articles/${draft.id}/modifier`}
              className="inline-flex min-h-6 items-center font-medium underline underline-offset-2"
            >
              Reprendre le brouillon « {draft.title} » enregistré le{" "}
              {formatLongDateTimeFr(draft.updatedAt)}
            </Link>
          </li>
        ))}
      </ul>
      <p className="text-sm">Ou commencez un nouvel article ci-dessous.</p>
    </section>
  );
}
