/**
 * The owner's guide (docs/guide-proprietaire.md) read into blocks that the admin's help page renders as
 * React elements: headings, paragraphs and lists, with bold and code spans. Only the Markdown that guide
 * uses; anything else is plain text, never HTML (decision 0140).
 */
export type GuideInline = { kind: "text" | "strong" | "code"; text: string };

export type GuideBlock =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; inlines: GuideInline[] }
  | { kind: "list"; items: GuideInline[][] };

export function guideInlines(text: string): GuideInline[] {
  return text
    .split(/(\*\*[^*]+\*\*|`[^`]+`)/)
    .filter((part) => part !== "")
    .map((part) => {
      if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
        return { kind: "strong", text: part.slice(2, -2) };
      }
      if (part.startsWith("`") && part.endsWith("`") && part.length > 2) {
        return { kind: "code", text: part.slice(1, -1) };
      }
      return { kind: "text", text: part };
    });
}

export function parseGuide(markdown: string): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  let paragraph: string[] = [];
  let items: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) {
      blocks.push({ kind: "paragraph", inlines: guideInlines(paragraph.join(" ")) });
    }
    if (items.length > 0) blocks.push({ kind: "list", items: items.map(guideInlines) });
    paragraph = [];
    items = [];
  };
  for (const line of markdown.split("\n")) {
    const heading = /^(#{1,3}) (.+)$/.exec(line);
    const item = /^- (.+)$/.exec(line);
    if (heading?.[1] && heading[2]) {
      flush();
      const level = heading[1].length as 1 | 2 | 3;
      blocks.push({ kind: "heading", level, text: heading[2].trim() });
    } else if (item?.[1]) {
      if (paragraph.length > 0) flush();
      items.push(item[1].trim());
    } else if (line.trim() === "") {
      flush();
    } else if (items.length > 0 && /^\s/.test(line)) {
      items[items.length - 1] += ` ${line.trim()}`;
    } else {
      if (items.length > 0) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}
