import { describe, expect, it } from "vitest";
import {
  firstLink,
  inlineScriptSources,
  inlineScriptWeight,
  scriptBytesBeyond,
  type PageWeight,
} from "./weight.ts";

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

describe("the booking pages' script beyond every page's (decision 0189)", () => {
  const weight = (scripts: PageWeight["scripts"], inlineGzipBytes: number): PageWeight => ({
    bytes: { html: 0, js: 0, css: 0, font: 0, image: 0, other: 0 },
    requests: 0,
    headerBytes: 0,
    thirdParty: [],
    hero: null,
    scripts,
    inlineScripts: { count: 1, bytes: 0, gzipBytes: inlineGzipBytes },
    javascriptBytes: 0,
  });
  const home = weight([{ url: "/assets/light.js", bytes: 900 }], 1_600);

  it("counts the scripts the home page does not load and the inline script beyond its own", () => {
    expect(scriptBytesBeyond(home, weight([], 1_600))).toBe(0);
    expect(scriptBytesBeyond(home, weight([{ url: "/assets/light.js", bytes: 900 }], 1_500))).toBe(
      0,
    );
    expect(
      scriptBytesBeyond(
        home,
        weight(
          [
            { url: "/assets/entry.client.js", bytes: 60_000 },
            { url: "/assets/light.js", bytes: 900 },
          ],
          1_900,
        ),
      ),
    ).toBe(60_300);
  });

  it("follows a page's first link to the next step, its entities and fragment taken off", () => {
    const html =
      '<a href="/reserver/brive">Brive</a><a href="/reserver/brive/portrait?mois=2027-01&amp;jour=2027-01-04#horaires">4</a>';
    expect(firstLink(html, "jour=")).toBe("/reserver/brive/portrait?mois=2027-01&jour=2027-01-04");
    expect(firstLink(html, "/coordonnees?creneau=")).toBeNull();
  });
});
