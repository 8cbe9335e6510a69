import { useState } from "react";
import { useRouteLoaderData } from "react-router";
import { LIMITS } from "~/lib/admin-schemas";
import {
  characterCount,
  SEARCH_RESULT_DESCRIPTION_LENGTH,
  SEARCH_RESULT_TITLE_LENGTH,
  shortenedForSearchResult,
} from "~/lib/search-preview";
import { cn } from "~/lib/utils";
import { Field, Input, Textarea, type FieldMeta } from "~/components/ui/field";

type SeoFieldsProps = {
  titleField: FieldMeta;
  descriptionField: FieldMeta;
  values: { seo_title?: string; seo_description?: string };
  /** What the page falls back to when the SEO fields are empty (SPEC §2: title, excerpt). */
  articleTitle: string;
  excerpt: string;
  slug: string;
};

/**
 * The SEO title and description, each with its counter, and the article as a search result. Nothing cuts
 * what she types: past the limit the counter says by how much and the form refuses it at the field.
 * The server renders the counters and the preview as the form was loaded; typing updates them.
 */
export function SeoFields({
  titleField,
  descriptionField,
  values,
  articleTitle,
  excerpt,
  slug,
}: SeoFieldsProps) {
  const [seoTitle, setSeoTitle] = useState(values.seo_title ?? "");
  const [seoDescription, setSeoDescription] = useState(values.seo_description ?? "");
  const siteUrl = (useRouteLoaderData("root") as { siteUrl?: string } | undefined)?.siteUrl ?? "";

  return (
    <>
      <Field
        field={titleField}
        label="Titre SEO (facultatif)"
        description={
          <>
            {LIMITS.seoTitle} caractères au plus. À défaut, le titre de l'article.{" "}
            <Counter value={seoTitle} limit={LIMITS.seoTitle} name="Le titre SEO" />
          </>
        }
      >
        {(props) => (
          <Input
            {...props}
            value={seoTitle}
            onChange={(event) => setSeoTitle(event.target.value)}
          />
        )}
      </Field>
      <Field
        field={descriptionField}
        label="Description SEO (facultative)"
        description={
          <>
            {LIMITS.seoDescription} caractères au plus. À défaut, l'extrait.{" "}
            <Counter
              value={seoDescription}
              limit={LIMITS.seoDescription}
              name="La description SEO"
            />
          </>
        }
      >
        {(props) => (
          <Textarea
            {...props}
            rows={2}
            value={seoDescription}
            onChange={(event) => setSeoDescription(event.target.value)}
          />
        )}
      </Field>
      <SearchResultPreview
        title={seoTitle.trim() || articleTitle}
        address={`${siteUrl.replace(/^https?:\/\//, "")}/blog/${slug || "…"}`}
        description={seoDescription.trim() || excerpt}
      />
    </>
  );
}

/**
 * « 48 / 60 caractères », part of the field's description (read when the field is focused). A screen
 * reader hears it change only when the limit is crossed, not at every key.
 */
function Counter({ value, limit, name }: { value: string; limit: number; name: string }) {
  const { text, over } = characterCount(value, limit);
  const [wasOver, setWasOver] = useState(over);
  const [announcement, setAnnouncement] = useState("");
  // Adjusting state while rendering (React's pattern for derived changes): no effect, no extra paint.
  if (over !== wasOver) {
    setWasOver(over);
    setAnnouncement(
      over
        ? `${name} dépasse ${limit} caractères.`
        : `${name} tient de nouveau en ${limit} caractères.`,
    );
  }
  return (
    <>
      <span
        data-counter
        className={cn("whitespace-nowrap", over && "font-semibold text-amber-900")}
      >
        {text}
      </span>
      <span aria-live="polite" className="sr-only">
        {announcement}
      </span>
    </>
  );
}

/** The article as a search engine would list it; long text cut there only, as the engine would. */
function SearchResultPreview({
  title,
  address,
  description,
}: {
  title: string;
  address: string;
  description: string;
}) {
  return (
    <section aria-labelledby="apercu-recherche" className="rounded-lg border border-border p-4">
      <h3 id="apercu-recherche" className="mb-2 text-sm font-semibold">
        Aperçu dans les résultats de recherche
      </h3>
      <div className="max-w-[600px] font-sans">
        <p className="truncate text-sm text-stone-700">{address}</p>
        <p className="text-xl leading-snug text-[#1a0dab]">
          {title
            ? shortenedForSearchResult(title, SEARCH_RESULT_TITLE_LENGTH)
            : "Titre de l'article"}
        </p>
        <p className="text-sm text-stone-700">
          {description
            ? shortenedForSearchResult(description, SEARCH_RESULT_DESCRIPTION_LENGTH)
            : "L'extrait de l'article."}
        </p>
      </div>
    </section>
  );
}
