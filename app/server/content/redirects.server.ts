import { asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { redirects, studios } from "../db/schema";
import { studioPaths } from "./site-content.server";
import type { PageMatcher } from "./site-pages.server";

/**
 * The old addresses of the site (decision 0070): /admin/redirections lists, adds, edits and removes
 * them; the public 404 route answers each with a 301 to its new address (`SiteContent.redirects`).
 *
 * Every write is checked here, on the server, in a transaction that locks the table (two owners' tabs
 * cannot build a loop between them):
 * - the old address is a path of this site (« /ancienne-page »: no domain, no query, no fragment), stored
 *   as a browser sends it (trailing slash dropped, accents percent-encoded);
 * - it is not a page of the site (the route table's pages, the active studios' pages, anything under /blog/
 *   and /admin/): redirecting it would make the page unreachable;
 * - it is not redirected already;
 * - the new address is a page of this site (« /tarifs ») or an https address, and following the table from
 *   it never comes back to the old address (no loop). A chain (/a → /b, /b → /c) is accepted: each step
 *   answers its own 301 and the visitor arrives.
 */

export type RedirectRow = { id: string; from: string; to: string; updatedAt: Date };
export type RedirectInput = { from: string; to: string };
export type RedirectErrors = { from?: string; to?: string };
export type RedirectResult = { ok: true; id: string } | { ok: false; errors: RedirectErrors };

/** Every redirect, by old address. */
export async function listRedirects(): Promise<RedirectRow[]> {
  const rows = await db()
    .select({
      id: redirects.id,
      from: redirects.fromPath,
      to: redirects.toPath,
      updatedAt: redirects.updatedAt,
    })
    .from(redirects)
    .orderBy(asc(redirects.fromPath));
  return rows;
}

/** Places a visitor cannot be redirected from: they are the site's own (its files, its admin, its blog). */
const RESERVED_PREFIXES = ["/blog", "/admin", "/uploads", "/assets"];
const RESERVED_PATHS = ["/healthz", "/favicon.ico"];

const MAX_LENGTH = 500;

/**
 * An address as typed, as a browser would send its path: « /Séance/ » → « /S%C3%A9ance ». Undefined when
 * it cannot be one (then `checkRedirect` says why).
 */
export function normalisePath(input: string): string | undefined {
  const text = input.trim();
  if (!text.startsWith("/") || text.startsWith("//") || /[\s?#\\]/.test(text)) return undefined;
  let pathname: string;
  try {
    pathname = new URL(text, "http://site.invalid").pathname;
  } catch {
    return undefined;
  }
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}

/** An address for the owner to read (« /s%C3%A9ance » → « /séance »). */
export function readablePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The path part of a target of this site (« /tarifs?onglet=pro » → « /tarifs »), or undefined. */
function sitePathOf(target: string): string | undefined {
  if (!target.startsWith("/") || target.startsWith("//")) return undefined;
  const path = target.split(/[?#]/)[0] ?? "";
  return normalisePath(path);
}

function fromError(input: string): string | undefined {
  const text = input.trim();
  if (text === "") return "Indiquez l'ancienne adresse (exemple : /ancienne-page)";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith("//") || text.startsWith("www.")) {
    return "Indiquez seulement le chemin, sans le nom de domaine (exemple : /ancienne-page)";
  }
  if (!text.startsWith("/"))
    return "L'ancienne adresse doit commencer par « / » (exemple : /ancienne-page)";
  if (/[?#]/.test(text)) {
    return "Indiquez seulement le chemin, sans « ? » ni « # » ni ce qui les suit";
  }
  if (/\s/.test(text)) return "L'ancienne adresse ne peut pas contenir d'espace";
  if (text.length > MAX_LENGTH) return `L'ancienne adresse compte ${MAX_LENGTH} caractères au plus`;
  if (normalisePath(text) === undefined) return "Cette ancienne adresse n'est pas valide";
  return undefined;
}

function toError(input: string): string | undefined {
  const text = input.trim();
  if (text === "") return "Indiquez la nouvelle adresse (exemple : /tarifs)";
  if (text.length > MAX_LENGTH)
    return `La nouvelle adresse compte ${MAX_LENGTH} caractères au plus`;
  if (/^https:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (url.hostname.includes(".") && !/\s/.test(text)) return undefined;
    } catch {
      // Refused below.
    }
    return "Cette adresse https:// n'est pas valide";
  }
  if (/^http:\/\//i.test(text)) return "Une adresse d'un autre site doit commencer par https://";
  if (sitePathOf(text) === undefined) {
    return "La nouvelle adresse doit être une page de ce site (commençant par « / », exemple : /tarifs) ou une adresse https://";
  }
  return undefined;
}

export type RedirectContext = {
  /** The route table's judgement (site-pages.server.ts). */
  isSitePage: PageMatcher;
  /** The slugs of the studios on the site (not retired). */
  studioSlugs: readonly string[];
  /** Every other redirect (the one being edited left out): old address → new address. */
  others: ReadonlyMap<string, string>;
};

/** Whether `path` (normalised) is a page of the site. */
export function isPageOfSite(path: string, context: Omit<RedirectContext, "others">): boolean {
  if (RESERVED_PATHS.includes(path)) return true;
  if (RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return true;
  }
  for (const slug of context.studioSlugs) {
    const paths = studioPaths(slug);
    if (path === paths.pagePath || path === paths.contactPath) return true;
  }
  return context.isSitePage(path);
}

/**
 * What is wrong with a redirect, field by field (nothing when it may be saved). Pure: the context says
 * what the site holds.
 */
export function checkRedirect(
  input: RedirectInput,
  context: RedirectContext,
): { ok: true; from: string; to: string } | { ok: false; errors: RedirectErrors } {
  const errors: RedirectErrors = { from: fromError(input.from), to: toError(input.to) };
  const from = errors.from ? undefined : normalisePath(input.from);
  const to = input.to.trim();
  if (from !== undefined) {
    if (isPageOfSite(from, context)) {
      errors.from =
        "Cette adresse est celle d'une page du site : la rediriger la rendrait inaccessible";
    } else if (context.others.has(from)) {
      errors.from = `Cette ancienne adresse est déjà redirigée (vers ${readablePath(context.others.get(from) ?? "")})`;
    }
  }
  if (!errors.to) {
    const target = sitePathOf(to);
    if (target !== undefined && from !== undefined && !errors.from) {
      // Follow the table from the target: coming back to the old address is a loop.
      const chain = [from, target];
      const seen = new Set([from]);
      let current = target;
      for (;;) {
        if (current === from) {
          errors.to = `Cette redirection créerait une boucle : ${chain.map(readablePath).join(" → ")}`;
          break;
        }
        if (seen.has(current)) break;
        seen.add(current);
        const next = context.others.get(current);
        const nextPath = next === undefined ? undefined : sitePathOf(next);
        if (nextPath === undefined) break;
        chain.push(nextPath);
        current = nextPath;
      }
      if (!errors.to && !isPageOfSite(target, context) && !context.others.has(target)) {
        errors.to = `« ${readablePath(target)} » n'est pas une page du site : vérifiez l'adresse`;
      }
    }
  }
  if (errors.from || errors.to) {
    return {
      ok: false,
      errors: Object.fromEntries(Object.entries(errors).filter(([, value]) => value)),
    };
  }
  return { ok: true, from: from ?? "", to };
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

async function contextIn(tx: Tx, isSitePage: PageMatcher, except: string | null) {
  // One writer at a time: two tabs cannot build a loop between them (reads still go on).
  await tx.execute(sql`lock table ${redirects} in share row exclusive mode`);
  const rows = await tx
    .select({ id: redirects.id, from: redirects.fromPath, to: redirects.toPath })
    .from(redirects);
  const active = await tx
    .select({ slug: studios.slug })
    .from(studios)
    .where(isNull(studios.retiredAt));
  return {
    isSitePage,
    studioSlugs: active.map((row) => row.slug),
    others: new Map(rows.filter((row) => row.id !== except).map((row) => [row.from, row.to])),
    exists: except === null || rows.some((row) => row.id === except),
  };
}

/** Adds (id null) or changes a redirect after the checks; the errors are the owner's to read. */
export async function saveRedirect(
  id: string | null,
  input: RedirectInput,
  isSitePage: PageMatcher,
): Promise<RedirectResult | { ok: false; missing: true }> {
  return db().transaction(async (tx) => {
    const context = await contextIn(tx, isSitePage, id);
    if (!context.exists) return { ok: false as const, missing: true as const };
    const checked = checkRedirect(input, context);
    if (!checked.ok) return checked;
    if (id === null) {
      const [row] = await tx
        .insert(redirects)
        .values({ fromPath: checked.from, toPath: checked.to })
        .returning({ id: redirects.id });
      if (!row) throw new Error("redirect not created");
      return { ok: true as const, id: row.id };
    }
    await tx
      .update(redirects)
      .set({ fromPath: checked.from, toPath: checked.to, updatedAt: sql`now()` })
      .where(eq(redirects.id, id));
    return { ok: true as const, id };
  });
}

/** Removes a redirect; false when it was not there. */
export async function deleteRedirect(id: string): Promise<boolean> {
  const rows = await db()
    .delete(redirects)
    .where(eq(redirects.id, id))
    .returning({ id: redirects.id });
  return rows.length > 0;
}

/**
 * A studio's pages move from `oldSlug` to `newSlug` (or a new studio takes `newSlug`), inside the
 * studio's own write: its old addresses answer a 301 to the new ones, redirects that led to the old ones
 * lead to the new ones directly, and redirects of the new addresses (now pages again) go.
 */
export async function moveStudioAddresses(
  tx: Tx,
  oldSlug: string | null,
  newSlug: string,
): Promise<void> {
  const next = studioPaths(newSlug);
  await tx.delete(redirects).where(inArray(redirects.fromPath, [next.pagePath, next.contactPath]));
  if (oldSlug === null || oldSlug === newSlug) return;
  const previous = studioPaths(oldSlug);
  for (const [from, to] of [
    [previous.pagePath, next.pagePath],
    [previous.contactPath, next.contactPath],
  ] as const) {
    await tx
      .update(redirects)
      .set({ toPath: to, updatedAt: sql`now()` })
      .where(eq(redirects.toPath, from));
    await tx
      .insert(redirects)
      .values({ fromPath: from, toPath: to })
      .onConflictDoUpdate({
        target: redirects.fromPath,
        set: { toPath: to, updatedAt: sql`now()` },
      });
  }
}
