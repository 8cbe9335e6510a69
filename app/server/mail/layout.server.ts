/*
 * The HTML frame of the site's e-mails: tables and inline styles (what mail clients render), one column at
 * most 600 px wide, the brand on top, system fonts, no remote image but the ones the content brings, no
 * tracking pixel. Every text is escaped here; `body` is HTML the caller built from escaped parts.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

export const EMAIL_COLOURS = {
  ink: "#1c1917",
  muted: "#57534e",
  accent: "#9a3412",
  paper: "#f5f5f4",
};

/** A call-to-action button (a link styled as one, as clients without CSS show a plain link). */
/** Lines of text as the e-mail's paragraphs, escaped (empty lines left out). */
export function emailParagraphs(lines: readonly string[]): string {
  return lines
    .filter((line) => line !== "")
    .map((line) => `<p style="margin:0 0 8px">${escapeHtml(line)}</p>`)
    .join("\n");
}

export function emailButton(href: string, label: string): string {
  return `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:24px 0"><tr><td style="border-radius:6px;background:${EMAIL_COLOURS.accent}"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 22px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></td></tr></table>`;
}

export function emailLayout({
  title,
  brand,
  preheader,
  body,
  footer,
}: {
  /** The document's title (the subject). */
  title: string;
  brand: string;
  /** The line inbox lists show after the subject. */
  preheader: string;
  body: string;
  /** HTML of the small print (why the person receives this, how to leave). */
  footer: string;
}): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:0;background:${EMAIL_COLOURS.paper}">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:${EMAIL_COLOURS.paper}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:${EMAIL_COLOURS.ink}">
<tr><td style="padding:20px 28px;border-bottom:1px solid #e7e5e4;font-family:Georgia,'Times New Roman',serif;font-size:20px;font-weight:700;color:${EMAIL_COLOURS.ink}">${escapeHtml(brand)}</td></tr>
<tr><td style="padding:8px 28px 24px">${body}</td></tr>
<tr><td style="padding:16px 28px 24px;border-top:1px solid #e7e5e4;font-size:13px;line-height:1.5;color:${EMAIL_COLOURS.muted}">${footer}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
