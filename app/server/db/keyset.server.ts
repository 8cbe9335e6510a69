import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/** Rows of every admin list per page (decision 0130). */
export const ADMIN_PAGE_SIZE = 50;

/** The query-string names of a page's position: after the row of this cursor, or before it. */
export const AFTER_PARAM = "apres";
export const BEFORE_PARAM = "avant";

/**
 * One column of a list's order. Every key of a list goes the same way, so that the position is one row
 * comparison (`(a, b) < (x, y)`) an index on the same columns answers; the last key is unique (the id),
 * so that rows with equal dates are neither skipped nor shown twice. A key is never null.
 */
export type KeysetKey = {
  expression: AnyColumn | SQL;
  type: "timestamptz" | "uuid" | "integer" | "text";
};

export type KeysetOrder = { keys: KeysetKey[]; direction: "asc" | "desc" };

/** Where a page starts: the first page, after a row (« Page suivante »), or before one (« Page précédente »). */
export type PagePosition = { after: string[] } | { before: string[] } | null;

/** A page of a list: its rows and the cursors of the pages on each side (null at either end). */
export type KeysetPage<Row> = { rows: Row[]; previous: string | null; next: string | null };

/**
 * How each key's value travels in a cursor: as PostgreSQL writes it, timestamps to the microsecond (a
 * JavaScript Date would round them to the millisecond and skip or repeat rows of the same millisecond).
 */
function keyText(key: KeysetKey): SQL {
  return key.type === "timestamptz"
    ? sql`to_char(${key.expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sql`${key.expression}::text`;
}

const VALUE_SHAPES: Record<KeysetKey["type"], RegExp> = {
  timestamptz: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  integer: /^-?\d{1,15}$/,
  text: /^[\s\S]{0,2000}$/,
};

/** A search typed in a list, as an `ilike` pattern: `%` and `_` typed are searched for as such. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A list's search box as the query string gives it (trimmed, bounded). */
export function searchParam(params: URLSearchParams, name = "q"): string {
  return (params.get(name) ?? "").trim().slice(0, 255);
}

/** A list's address with the parameters `kept` of `params` (its search, filters and page), others dropped. */
export function listPath(path: string, params: URLSearchParams, kept: string[]): string {
  const query = new URLSearchParams();
  for (const name of kept) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  return `${path}${query.size > 0 ? `?${query}` : ""}`;
}

export function encodeCursor(values: string[]): string {
  return Buffer.from(JSON.stringify(values), "utf8").toString("base64url");
}

/** The key values of a cursor, or null when it is not one of this order's (edited by hand, or stale). */
export function decodeCursor(order: KeysetOrder, cursor: string | null): string[] | null {
  if (!cursor || cursor.length > 4000) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(values) || values.length !== order.keys.length) return null;
    const valid = order.keys.every(
      (key, index) =>
        typeof values[index] === "string" && VALUE_SHAPES[key.type].test(values[index]),
    );
    return valid ? (values as string[]) : null;
  } catch {
    return null;
  }
}

/** The page a list's query string asks for (`apres` or `avant`); a cursor that does not parse means the first. */
export function pagePosition(order: KeysetOrder, params: URLSearchParams): PagePosition {
  const after = decodeCursor(order, params.get(AFTER_PARAM));
  if (after) return { after };
  const before = decodeCursor(order, params.get(BEFORE_PARAM));
  return before ? { before } : null;
}

/** The column a list selects beside its own so that each row can give its cursor. */
export function cursorColumn(order: KeysetOrder): SQL<string[]> {
  return sql<string[]>`json_build_array(${sql.join(order.keys.map(keyText), sql`, `)})`;
}

/**
 * The rows past a position in the list's order: after it (`apres`), or before it (`avant`, the
 * comparison flipped); undefined for the first page.
 */
export function keysetCondition(order: KeysetOrder, position: PagePosition): SQL | undefined {
  if (position === null) return undefined;
  const backwards = "before" in position;
  const values = backwards ? position.before : position.after;
  const descending = (order.direction === "desc") !== backwards;
  const keys = sql.join(
    order.keys.map((key) => sql`${key.expression}`),
    sql`, `,
  );
  const cursor = sql.join(
    order.keys.map((key, index) => sql`cast(${values[index]} as ${sql.raw(key.type)})`),
    sql`, `,
  );
  return sql`(${keys}) ${sql.raw(descending ? "<" : ">")} (${cursor})`;
}

/** What the list's query needs from the helper: the position's condition, the order and how many rows. */
export type KeysetQuery = { where: SQL | undefined; orderBy: SQL[]; limit: number };

/**
 * One page of a list ordered by `order`: `fetch` runs the list's own query (its columns, joins and filters)
 * with the position's condition added to its filters, selecting `cursorColumn(order)` as `cursor`. One row
 * more than a page is read to know whether another page follows.
 */
export async function keysetPage<Row extends { cursor: string[] }>(
  order: KeysetOrder,
  position: PagePosition,
  fetch: (query: KeysetQuery) => Promise<Row[]>,
  pageSize = ADMIN_PAGE_SIZE,
): Promise<KeysetPage<Omit<Row, "cursor">>> {
  const backwards = position !== null && "before" in position;
  const where = keysetCondition(order, position);
  // Reading backwards flips the order; the rows are turned back afterwards.
  const descending = (order.direction === "desc") !== backwards;
  const orderBy = order.keys.map(
    (key) => sql`${key.expression} ${sql.raw(descending ? "desc" : "asc")}`,
  );
  const fetched = await fetch({ where, orderBy, limit: pageSize + 1 });
  const more = fetched.length > pageSize;
  const rows = fetched.slice(0, pageSize);
  // A cursor past the end (its rows deleted since): the first page rather than an empty one.
  if (rows.length === 0 && position !== null) return keysetPage(order, null, fetch, pageSize);
  if (backwards) {
    // Fewer rows than a page before the cursor: they are the start of the list, shown as its first page.
    if (!more) return keysetPage(order, null, fetch, pageSize);
    rows.reverse();
  }
  const first = rows[0];
  const last = rows.at(-1);
  const hasPrevious = backwards ? more : position !== null;
  const hasNext = backwards ? true : more;
  return {
    rows: rows.map(({ cursor: _cursor, ...row }) => row),
    previous: hasPrevious && first ? encodeCursor(first.cursor) : null,
    next: hasNext && last ? encodeCursor(last.cursor) : null,
  };
}
