/*
 * What the article form shows beside its SEO fields: how many characters are typed against the limit, and
 * the article as a search result. Only the preview shortens text; what is saved is what was typed.
 */

/** About what a search engine shows of a title (some 600 px) and of a description. */
export const SEARCH_RESULT_TITLE_LENGTH = 60;
export const SEARCH_RESULT_DESCRIPTION_LENGTH = 160;

/**
 * `text` as a search result shows it: whole when it fits, else cut at the last word that fits, followed by
 * « … » (a word cut in two would read as a typo).
 */
export function shortenedForSearchResult(text: string, length: number): string {
  const clean = text.trim().replace(/\s+/g, " ");
  if (clean.length <= length) return clean;
  const room = clean.slice(0, length - 1);
  const lastSpace = room.lastIndexOf(" ");
  // A single very long word has no break to wait for: it is cut.
  const kept = lastSpace > length / 2 ? room.slice(0, lastSpace) : room;
  return `${kept.replace(/[\s,;:.–-]+$/, "")} …`;
}

/**
 * The counter under a limited field: the length the server will check (surrounding spaces are not
 * saved), and how far past the limit it is.
 */
export function characterCount(value: string, limit: number): { text: string; over: boolean } {
  const length = value.trim().length;
  const over = length > limit;
  return {
    text: `${length} / ${limit} caractères${over ? ` : ${length - limit} de trop` : ""}`,
    over,
  };
}
