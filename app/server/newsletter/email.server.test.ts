import { describe, expect, it } from "vitest";
import { personalise, plainText, renderNewsletter, UNSUBSCRIBE_PLACEHOLDER } from "./email.server";

const article = {
  title: "Séance <d'automne> & lumière",
  slug: "seance-automne",
  excerpt: "Les couleurs de la Corrèze.",
  content: [
    '<p>Voir <a href="/tarifs">nos tarifs</a>, <a href="#galerie">la galerie</a>,',
    ' <a href="mailto:contact@studio.fr">écrire</a> ou <a href="https://example.org/x">ailleurs</a>.</p>',
    '<p><img src="/uploads/blog-images/photo.jpg" alt="Un portrait" width="3000"></p>',
    '<p style="color:red" onclick="alert(1)">Fin<script>alert(1)</script></p>',
  ].join(""),
  author: "Claire",
  coverImageUrl: "/uploads/blog-images/couverture.jpg",
  publishedAt: new Date("2026-11-20T10:00:00Z"),
};
const siteUrl = "https://studio.fr";

describe("renderNewsletter", () => {
  it("writes the whole article for an e-mail: links that say where they go, photos inside the column, no script", () => {
    const { subject, html, text } = renderNewsletter(
      article,
      { brand: "Studio" },
      { siteUrl, mode: "full" },
    );
    expect(subject).toBe(article.title);
    expect(html).toContain("<title>Séance &lt;d&#39;automne&gt; &amp; lumière</title>");
    expect(html).toContain('href="https://studio.fr/tarifs"');
    expect(html).toContain('href="https://studio.fr/blog/seance-automne#galerie"');
    expect(html).toContain('href="mailto:contact@studio.fr"');
    expect(html).toContain('href="https://example.org/x"');
    expect(html).toMatch(
      /<img src="https:\/\/studio\.fr\/uploads\/blog-images\/photo\.jpg" alt="Un portrait" width="544" style="[^"]*max-width:544px/,
    );
    expect(html).toContain('<p style="margin:0 0 14px">Fin</p>');
    expect(html).not.toMatch(/onclick|<script|color:red/);
    expect(html).toContain("20 novembre 2026 · par Claire");
    expect(text).toContain("Voir nos tarifs, la galerie, écrire ou ailleurs.");
    expect(text).toContain("Voir l'article sur le site : https://studio.fr/blog/seance-automne");
    expect(text).not.toMatch(/<\/?(?:p|a|img|script)\b/);
  });

  it("sends the excerpt and a button in the short form, and each subscriber's own link in place", () => {
    const content = renderNewsletter(article, { brand: "Studio" }, { siteUrl, mode: "excerpt" });
    expect(content.html).toContain("Les couleurs de la Corrèze.");
    expect(content.html).not.toContain("nos tarifs");
    expect(content.html).toContain(UNSUBSCRIBE_PLACEHOLDER);
    const link = "https://studio.fr/newsletter/desabonnement?token=abc.def&x=1";
    const mine = personalise(content, link);
    expect(mine.html).toContain(
      'href="https://studio.fr/newsletter/desabonnement?token=abc.def&amp;x=1"',
    );
    expect(mine.text).toContain(`Se désinscrire : ${link}`);
    expect(`${mine.html}${mine.text}`).not.toContain(UNSUBSCRIBE_PLACEHOLDER);
    // No tracking: no image but the cover, every link the same for every reader.
    expect(mine.html.match(/<img /g)).toHaveLength(1);
  });
});

describe("plainText", () => {
  it("keeps paragraphs and list items apart and decodes entities", () => {
    expect(
      plainText("<p>Un &amp; deux</p><ul><li>trois</li><li>quatre</li></ul><p>cinq<br>six</p>"),
    ).toBe("Un & deux\n\n• trois\n• quatre\n\ncinq\nsix");
  });
});
