import { describe, expect, it } from "vitest";
import { inlineScriptSources, inlineScriptWeight } from "./weight.ts";

describe("inline scripts counted as JavaScript", () => {
  const html = `<!doctype html><html><head>
<script type="application/ld+json">{"@type":"LocalBusiness"}</script>
<script nonce="abc">document.documentElement.dataset.js = "";</script>
<script type=module src="/assets/entry.js"></script>
<link rel="modulepreload" href="/assets/a.js">
</head><body>
<script type="module" nonce="abc">import("/assets/entry.js");</script>
<script TYPE='text/javascript'>var a = 1;</script>
<script type="importmap">{"imports":{}}</script>
<script src="/assets/light.js" nonce="abc"></script>
<script></script>
</body></html>`;

  it("keeps the scripts the browser runs, without src, and leaves data (JSON-LD, import maps) out", () => {
    expect(inlineScriptSources(html)).toEqual([
      'document.documentElement.dataset.js = "";',
      'import("/assets/entry.js");',
      "var a = 1;",
    ]);
  });

  it("gives their count, raw bytes and what they add to the gzipped document", () => {
    const weight = inlineScriptWeight(html);
    expect(weight.count).toBe(3);
    expect(weight.bytes).toBe(
      Buffer.byteLength(
        'document.documentElement.dataset.js = "";import("/assets/entry.js");var a = 1;',
      ),
    );
    expect(weight.gzipBytes).toBeGreaterThan(0);
    expect(weight.gzipBytes).toBeLessThan(weight.bytes + 40);
    expect(inlineScriptWeight("<p>no script</p>")).toEqual({ count: 0, bytes: 0, gzipBytes: 0 });
  });

  it("counts a script repeated in the document for what it adds, not its size again", () => {
    const code = `(function () { ${"document.body.dataset.x = String(Math.random());".repeat(40)} })();`;
    const once = inlineScriptWeight(`<main>page</main><script>${code}</script>`);
    const twice = inlineScriptWeight(
      `<main>page</main><script>${code}</script><script>${code}</script>`,
    );
    expect(twice.bytes).toBe(2 * once.bytes);
    expect(twice.gzipBytes).toBeLessThan(once.gzipBytes * 1.5);
  });
});
