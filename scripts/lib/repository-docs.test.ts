import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const decisions = path.join(root, "docs/decisions");

/** The records: `NNNN-title.md` beside the index. */
function recordFiles(): string[] {
  return fs
    .readdirSync(decisions)
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort();
}

/** A record's « Date: YYYY-MM-DD · Status: … » line, within the lines under its title. */
function dateAndStatus(file: string): { date: string; status: string } | undefined {
  const head = fs.readFileSync(path.join(decisions, file), "utf8").split("\n").slice(0, 6);
  for (const line of head) {
    const [, date, status] = /^Date: (\d{4}-\d{2}-\d{2}) · Status: (.+)$/.exec(line) ?? [];
    if (date && status) return { date, status: status.trim() };
  }
  return undefined;
}

/** The index's rows: `| [NNNN](file.md) | title | date | status |`, keyed by file. */
function indexRows(): Map<string, { date: string; status: string }> {
  const rows = new Map<string, { date: string; status: string }>();
  const index = fs.readFileSync(path.join(decisions, "README.md"), "utf8");
  for (const line of index.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const [, file] = /^\[\d{4}\]\(([^)]+)\)$/.exec(cells[1] ?? "") ?? [];
    if (file) rows.set(file, { date: cells[3] ?? "", status: cells[4] ?? "" });
  }
  return rows;
}

const STATUS = /^(accepted|superseded by \d{4})\b/;

describe("the decision records", () => {
  it("each give their date and their status (accepted, or superseded by a record) under the title", () => {
    const missing = recordFiles().filter((file) => {
      const found = dateAndStatus(file);
      return !found || !STATUS.test(found.status);
    });
    expect(missing).toEqual([]);
  });

  it("are each in docs/decisions/README.md with the same date and status", () => {
    const rows = indexRows();
    const wrong = recordFiles().filter((file) => {
      const row = rows.get(file);
      const own = dateAndStatus(file);
      return !row || !own || row.date !== own.date || row.status !== own.status;
    });
    expect(wrong).toEqual([]);
  });

  it("are indexed only if they exist, and name existing records as amending or replacing them", () => {
    const files = recordFiles();
    const numbers = new Set(files.map((file) => file.slice(0, 4)));
    const unknown = [...indexRows().keys()].filter((file) => !files.includes(file));
    const dangling = files.flatMap((file) => {
      const status = dateAndStatus(file)?.status ?? "";
      return [...status.matchAll(/(?:amended by|superseded by|and) (\d{4})/g)]
        .map(([, number]) => number ?? "")
        .filter((number) => !numbers.has(number))
        .map((number) => `${file} → ${number}`);
    });
    expect({ unknown, dangling }).toEqual({ unknown: [], dangling: [] });
  });
});

describe("docs/architecture.md, the operating contract", () => {
  const contract = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const source = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

  it("names every environment variable the server's schema reads", () => {
    const schema = /const envSchema = z\s*\.object\(\{([\s\S]*?)\n {2}\}\)/.exec(
      source("app/server/env.server.ts"),
    );
    const variables = [...(schema?.[1] ?? "").matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map(
      ([, name]) => name ?? "",
    );
    expect(variables.length).toBeGreaterThan(30);
    expect(variables.filter((name) => !contract.includes(`\`${name}\``))).toEqual([]);
  });

  it("names every address of the route table", () => {
    const paths = [...source("app/routes.ts").matchAll(/route\("([^"]+)"/g)]
      .map(([, address]) => `/${address}`)
      .filter((address) => address !== "/*" && address !== "/:page");
    expect(paths.length).toBeGreaterThan(90);
    expect(paths.filter((address) => !contract.includes(`\`${address}`))).toEqual([]);
  });

  it("names every table of the schema", () => {
    const tables = [...source("app/server/db/schema.ts").matchAll(/pgTable\(\s*"([a-z_]+)"/g)].map(
      ([, name]) => name ?? "",
    );
    expect(tables.length).toBeGreaterThan(30);
    expect(tables.filter((name) => !contract.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("the README and docs/", () => {
  /** README.md and every Markdown file under docs/. */
  function documents(): string[] {
    const found = ["README.md"];
    const walk = (folder: string) => {
      for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
        const relative = path.join(folder, entry.name);
        if (entry.isDirectory()) walk(relative);
        else if (entry.name.endsWith(".md")) found.push(relative);
      }
    };
    walk("docs");
    return found.sort();
  }

  /** Where a path written in `document` leads: beside it for links and `./`, `../`; else from the root. */
  function target(document: string, written: string): string {
    const relative = /^\.\.?\//.test(written) ? path.dirname(document) : "";
    return path.resolve(root, relative, written);
  }

  it("link nothing outside the repository: every ../ path stays inside it", () => {
    const outside = documents().flatMap((document) => {
      const text = fs.readFileSync(path.join(root, document), "utf8");
      return [...text.matchAll(/(?:\.\.\/)+[\w./-]*/g)]
        .map(([written]) => written)
        .filter((written) => path.relative(root, target(document, written)).startsWith(".."))
        .map((written) => `${document}: ${written}`);
    });
    expect(outside).toEqual([]);
  });

  it("link only files the repository holds (Markdown links, and every file.md they name)", () => {
    const missing = documents().flatMap((document) => {
      const text = fs.readFileSync(path.join(root, document), "utf8");
      const links = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map(([, written]) => written ?? "")
        .filter((written) => !/^(?:[a-z]+:|\/)/.test(written))
        .map((written) => (/^\.\.?\//.test(written) ? written : `./${written}`));
      const named = [...text.matchAll(/(?<![\w/.-])([\w./-]+\.md)\b/g)]
        .map(([, written]) => written ?? "")
        .filter((written) => !written.startsWith("http"));
      const exists = (written: string) =>
        fs.existsSync(target(document, written)) ||
        fs.existsSync(path.resolve(root, path.dirname(document), written));
      return [...links, ...named]
        .filter((written) => !exists(written))
        .map((written) => `${document}: ${written}`);
    });
    expect(missing).toEqual([]);
  });
});

describe("the owner's guide, docs/guide-proprietaire.md", () => {
  /** Every source of the app but its tests, its runs of spaces and line breaks as one space (JSX wraps). */
  function appText(): string {
    const parts: string[] = [];
    const walk = (folder: string) => {
      for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
        const relative = path.join(folder, entry.name);
        if (entry.isDirectory()) walk(relative);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          parts.push(fs.readFileSync(path.join(root, relative), "utf8"));
        }
      }
    };
    walk("app");
    return parts.join("\n").replace(/\s+/g, " ");
  }

  /** Sentences the guide quotes as the product composes them from parts, each part checked elsewhere. */
  const COMPOSED = ["… : le bon ayant été remboursé, elles ne reviennent pas sur le bon."];

  it("quotes in « » only words the product shows: a button, a menu, a label, a message renamed shows here", () => {
    const app = appText();
    const guide = fs
      .readFileSync(path.join(root, "docs/guide-proprietaire.md"), "utf8")
      .replace(/\s+/g, " ");
    const quoted = [...guide.matchAll(/« ?([^»]+?) ?»/g)].map(([, text]) => text ?? "");
    expect(quoted.length).toBeGreaterThan(150);
    const absent = quoted
      .filter((text) => !COMPOSED.includes(text))
      .filter((text) =>
        // « … » stands for what the product fills in, and so do a number or a code (« 14:32 », « N »,
        // « 7K3Q-M2XD-9PTX », « BC-… »): the words around them are looked for, each run on its own.
        text
          .split(/…|\S*\d\S*|\bN\b/)
          .map((run) => run.trim().replace(/-$/, ""))
          .filter((run) => run.length > 2)
          .some((run) => !app.includes(run)),
      );
    expect(absent).toEqual([]);
  });
});

/** « issue N » of a tracker, or a file kept outside the repository (the checks below name them too). */
const OUTSIDE_REFERENCES = [
  /\bissues? #?\d/i,
  /\b(?:SPEC|STYLE|ARCHITECTURE)\.md\b|\.\.\/shared\//,
];
const checks = path.join("scripts", "lib", "repository-docs.test.ts");

describe("the code's comments and test names", () => {
  it("cite decision records or this repository's docs, never a tracker's issue or a file outside", () => {
    const citing: string[] = [];
    const walk = (folder: string) => {
      for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
        const relative = path.join(folder, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "node_modules" && entry.name !== "fixtures") walk(relative);
        } else if (/\.(?:ts|tsx|js|mjs|py|css)$/.test(entry.name)) {
          fs.readFileSync(path.join(root, relative), "utf8")
            .split("\n")
            .forEach((line, index) => {
              if (
                relative !== checks &&
                OUTSIDE_REFERENCES.some((reference) => reference.test(line))
              ) {
                citing.push(`${relative}:${index + 1}`);
              }
            });
        }
      }
    };
    for (const folder of ["app", "scripts", "tests"]) walk(folder);
    expect(citing).toEqual([]);
  });
});
