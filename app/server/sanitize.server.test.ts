import { describe, expect, it } from "vitest";
import { env } from "./env.server";
import { sanitizeArticleHtml } from "./sanitize.server";

// Classic vectors (OWASP XSS filter evasion cheat sheet, html5sec.org, PortSwigger's cheat sheet).
const xssVectors = [
  `<script>alert(1)</script>`,
  `<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>`,
  `<script/src="data:text/javascript,alert(1)"></script>`,
  `<scr<script>ipt>alert(1)</scr</script>ipt>`,
  `<IMG SRC="javascript:alert('XSS');">`,
  `<IMG SRC=javascript:alert('XSS')>`,
  `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
  "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
  `<IMG """><SCRIPT>alert("XSS")</SCRIPT>">`,
  `<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>`,
  `<IMG SRC=# onmouseover="alert('xxs')">`,
  `<IMG SRC= onmouseover="alert('xxs')">`,
  `<IMG onmouseover="alert('xxs')">`,
  `<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>`,
  `<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">`,
  `<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
  `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
  `<IMG SRC="jav\tascript:alert('XSS');">`,
  `<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
  `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`,
  `<IMG SRC=" &#14;  javascript:alert('XSS');">`,
  `<SCRIPT/XSS SRC="https://xss.example/xss.js"></SCRIPT>`,
  `<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^\`=alert("XSS")>`,
  `<<SCRIPT>alert("XSS");//\\<</SCRIPT>`,
  `<SCRIPT SRC=https://xss.example/xss.js?< B >`,
  `<IMG SRC="\`<javascript:alert>\`('XSS')"`,
  `<iframe src=https://xss.example/scriptlet.html <`,
  `</TITLE><SCRIPT>alert("XSS");</SCRIPT>`,
  `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
  `<BODY BACKGROUND="javascript:alert('XSS')">`,
  `<IMG DYNSRC="javascript:alert('XSS')">`,
  `<IMG LOWSRC="javascript:alert('XSS')">`,
  `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
  `<svg/onload=alert('XSS')>`,
  `<svg><script>alert(1)</script></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>`,
  `<BR SIZE="&{alert('XSS')}">`,
  `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html;base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
  `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
  `<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`,
  `<TABLE BACKGROUND="javascript:alert('XSS')">`,
  `<TABLE><TD BACKGROUND="javascript:alert('XSS')">`,
  `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
  `<DIV STYLE="width: expression(alert('XSS'));">`,
  `<p style="behavior: url(xss.htc)">x</p>`,
  `<BASE HREF="javascript:alert('XSS');//">`,
  `<OBJECT TYPE="text/x-scriptlet" DATA="https://xss.example/scriptlet.html"></OBJECT>`,
  `<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
  `<a href="javascript:alert(1)">clic</a>`,
  `<a href="JAVASCRIPT:alert(1)">clic</a>`,
  `<a href=" javascript:alert(1)">clic</a>`,
  `<a href="java&#x09;script:alert(1)">clic</a>`,
  `<a href="&#106;avascript:alert(1)">clic</a>`,
  `<a href="vbscript:msgbox(1)">clic</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">clic</a>`,
  `<a href="//evil.example/">clic</a>`,
  `<a href="https://ok.example" onclick="alert(1)">clic</a>`,
  `<a href="https://ok.example" onmouseover=alert(1)>clic</a>`,
  `<form action="javascript:alert(1)"><input type="submit"></form>`,
  `<button formaction="javascript:alert(1)">x</button>`,
  `<details open ontoggle=alert(1)>`,
  `<video><source onerror="alert(1)"></video>`,
  `<audio src=x onerror=alert(1)>`,
  `<marquee onstart=alert(1)>x</marquee>`,
  `<isindex type=image src=1 onerror=alert(1)>`,
  `<img src="data:image/svg+xml,<svg onload=alert(1)>">`,
  `<img src="//evil.example/x.png">`,
  `<img srcset="javascript:alert(1) 1x">`,
  `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
  `<template><script>alert(1)</script></template>`,
  `<textarea><script>alert(1)</script></textarea>`,
  `<!--<img src="--><img src=x onerror=alert(1)//">`,
  `<![CDATA[<script>alert(1)</script>]]>`,
  `<xmp><p title="</xmp><img src=x onerror=alert(1)>">`,
  `<a href="https://ok.example" style="position:fixed;inset:0">clic</a>`,
  `<h2 onclick="alert(1)">Titre</h2>`,
  `<blockquote cite="javascript:alert(1)">x</blockquote>`,
  `<code class="language-js" onclick="alert(1)">x</code>`,
  `<table><tr><td onmouseover="alert(1)">x</td></tr></table>`,
];

/** Whatever the input, none of these may appear in the output. */
const forbidden: [string, RegExp][] = [
  ["script element", /<\s*script/i],
  ["style element", /<\s*style/i],
  ["iframe/frame", /<\s*i?frame/i],
  ["form or controls", /<\s*(form|input|button|textarea|select)/i],
  ["object/embed", /<\s*(object|embed|applet)/i],
  ["svg/math", /<\s*(svg|math)/i],
  ["base/meta/link", /<\s*(base|meta|link)\b/i],
  ["media", /<\s*(video|audio|source|marquee|details|isindex|body|template|noscript)/i],
  ["event handler attribute", /<[^>]*\son[a-z]+\s*=/i],
  ["style attribute", /<[^>]*\sstyle\s*=/i],
  ["javascript: URL", /(href|src|cite)\s*=\s*"\s*(javascript|vbscript|data):/i],
  ["protocol-relative URL", /(href|src)\s*=\s*"\/\//i],
  ["srcset", /srcset/i],
];

describe("sanitizeArticleHtml", () => {
  it("has at least 50 vectors to check", () => {
    expect(xssVectors.length).toBeGreaterThanOrEqual(50);
  });

  it.each(xssVectors.map((vector, index) => [index, vector] as const))(
    "neutralises vector %i",
    (_index, vector) => {
      const output = sanitizeArticleHtml(vector);
      for (const [what, pattern] of forbidden) {
        expect(output, `${what} survived in ${JSON.stringify(output)}`).not.toMatch(pattern);
      }
    },
  );

  it("keeps the formatting an article needs", () => {
    const html = [
      "<h2>Titre</h2><h3>Sous-titre</h3><p>Un <strong>texte</strong> <em>riche</em>.</p>",
      "<ul><li>un</li></ul><ol><li>deux</li></ol>",
      "<blockquote>Une citation</blockquote>",
      '<pre><code class="language-ts">const a = 1;</code></pre>',
      '<figure><img src="/images/demo-blog/a.jpg" alt="Une photo"><figcaption>Légende</figcaption></figure>',
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
    ].join("");
    const output = sanitizeArticleHtml(html);
    for (const fragment of [
      "<h2>Titre</h2>",
      "<h3>Sous-titre</h3>",
      "<strong>texte</strong>",
      "<em>riche</em>",
      "<ul><li>un</li></ul>",
      "<ol><li>deux</li></ol>",
      "<blockquote>Une citation</blockquote>",
      '<code class="language-ts">const a = 1;</code>',
      "<figcaption>Légende</figcaption>",
      '<th scope="col">A</th>',
      "<td>1</td>",
    ]) {
      expect(output).toContain(fragment);
    }
    expect(output).toMatch(/<img src="\/images\/demo-blog\/a.jpg" alt="Une photo"/);
  });

  it("marks external links noopener noreferrer and opens them in a new tab", () => {
    const output = sanitizeArticleHtml('<a href="https://ailleurs.example/page">lien</a>');
    expect(output).toContain('href="https://ailleurs.example/page"');
    expect(output).toContain('rel="noopener noreferrer"');
    expect(output).toContain('target="_blank"');
  });

  it("writes a link to this site as its path, without a new tab or nofollow, whatever the editor wrote", () => {
    const site = new URL(env().SITE_URL);
    const www = `${site.protocol}//www.${site.host.replace(/^www\./, "")}`;
    for (const href of [
      `${site.origin}/tarifs?onglet=pro#mariage`,
      `${www}/tarifs?onglet=pro#mariage`,
    ]) {
      expect(
        sanitizeArticleHtml(
          `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">nos tarifs</a>`,
        ),
      ).toBe('<a href="/tarifs?onglet=pro#mariage">nos tarifs</a>');
    }
    expect(
      sanitizeArticleHtml('<a href="/tarifs" target="_blank" rel="nofollow">nos tarifs</a>'),
    ).toBe('<a href="/tarifs">nos tarifs</a>');
  });

  it("keeps site-relative and mailto links as they are", () => {
    expect(sanitizeArticleHtml('<a href="/contact" target="_top">contact</a>')).toBe(
      '<a href="/contact">contact</a>',
    );
    expect(sanitizeArticleHtml('<a href="mailto:contact@example.com">écrire</a>')).toBe(
      '<a href="mailto:contact@example.com">écrire</a>',
    );
  });

  it("drops images whose address is not http(s) or on this site", () => {
    expect(sanitizeArticleHtml('<p>a<img src="javascript:alert(1)">b</p>')).toBe("<p>ab</p>");
    expect(sanitizeArticleHtml('<p><img src="https://cdn.example/x.jpg"></p>')).toContain(
      'src="https://cdn.example/x.jpg"',
    );
  });

  it("turns an h1 into an h2 (the page has its own title)", () => {
    expect(sanitizeArticleHtml("<h1>Titre</h1>")).toBe("<h2>Titre</h2>");
  });
});
