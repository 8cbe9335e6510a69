/**
 * The paths of `stored` whose value `parsed` lost or changed (a field renamed, dropped or reshaped): what a
 * stored document keeps when today's schema parses it. Fields the schema adds (with defaults) are fine.
 */
export function lostValues(stored: unknown, parsed: unknown, at = "$"): string[] {
  if (Array.isArray(stored)) {
    if (!Array.isArray(parsed) || parsed.length !== stored.length) return [at];
    return stored.flatMap((item, index) => lostValues(item, parsed[index], `${at}[${index}]`));
  }
  if (stored !== null && typeof stored === "object") {
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [at];
    return Object.entries(stored).flatMap(([key, value]) =>
      lostValues(value, (parsed as Record<string, unknown>)[key], `${at}.${key}`),
    );
  }
  return Object.is(stored, parsed) ? [] : [at];
}
