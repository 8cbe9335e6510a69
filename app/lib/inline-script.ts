/**
 * The text of an inline script made from a function of ours (the light pages' script, the fonts' switch):
 * the function called with its settings (as JSON), without the leading indentation of its lines. The
 * function must not refer to anything outside its body.
 */
export function inlineScript<Args extends unknown[]>(
  script: (...args: Args) => void,
  ...args: Args
): string {
  const settings = args.map((value) => JSON.stringify(value)).join(", ");
  return `(${script.toString()})(${settings});`.replace(/\n\s+/g, "\n");
}
