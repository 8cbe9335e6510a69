import { minifySync, parseAst, type Plugin } from "vite";

/**
 * The light pages' inline scripts (app/light-script.ts, app/fonts-script.ts) are sent as the text of their
 * function (`inlineScript`): these two modules are minified, in every build and in the unit tests, so that
 * the text (3.6 KB together instead of 5.4 KB) stays within the light pages' 5 KB of script with the blog's
 * additions (decision 0137).
 *
 * The bundler prints the minified module again, with its own indentation and spaces (about 15 % more,
 * 0.7 KB of a page's 5 KB), and `Function.prototype.toString` gives that printed text. So each top-level
 * function of these modules also answers `toString()` with its minified text as the minifier wrote it
 * (decision 0137, the contact pages' section): what `inlineScript` inlines.
 */
export function minifiedInlineScripts(): Plugin {
  return {
    name: "minified-inline-scripts",
    enforce: "post",
    transform(code, id) {
      if (!/app[\\/](light|fonts)-script\.ts$/.test(id)) return null;
      const { code: minified, errors } = minifySync(id, code, { compress: true, mangle: true });
      if (errors.length > 0) this.error(errors.map((error) => error.message).join("\n"));
      const texts = parseAst(minified).body.flatMap((node) => {
        if (node.type !== "FunctionDeclaration" || !node.id) return [];
        const { start, end } = node as unknown as { start: number; end: number };
        return [`${node.id.name}.toString=()=>${JSON.stringify(minified.slice(start, end))};`];
      });
      return { code: `${minified}\n${texts.join("\n")}`, map: null };
    },
  };
}
