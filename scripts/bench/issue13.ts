// The light pages' « before / after » table in docs/benchmarks.md (decisions 0090–0095): the figures budgeted, read from the
// committed baseline (docs/benchmarks-before-issue13.json, measured on main c471656 before any of those
// changes) and from the current report, side by side, with the change that explains each row. Generated at
// every run, so that it stays true when the bench runs again.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/build.ts";
import { jsBudgetKiB, lcpBudgetSeconds, measuredPages, performanceBudget } from "./page-list.ts";
import {
  formatBudget,
  formatNumber,
  median,
  metric,
  type BenchReport,
  type Budget,
  type SectionResult,
} from "./report.ts";

export const baselinePath = path.join(root, "docs/benchmarks-before-issue13.json");

/** The « before » column: sections copied from docs/benchmarks.json as they were on main c471656. */
export type Baseline = {
  /** How and when the baseline was taken (shown under the table). */
  note: string;
  sections: Partial<Record<string, SectionResult>>;
};

export function readBaseline(file = baselinePath): Baseline | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Baseline;
  } catch {
    return null;
  }
}

/**
 * The changes that made the public pages light and fast (decisions 0090–0095), one line each, with the decision record that describes it. A row of the table
 * names the change(s) behind it by key.
 */
export const changes = {
  light:
    "**Light pages** (decision 0090): the marketing pages, decided per route in one table, are served as complete HTML without React Router's scripts; the header, menus, price tabs and video work with HTML, CSS and a small inline script (with the response's nonce; about 1.6 KB gzipped with the fonts' switch). The framework's JavaScript, and the main-thread work it cost under Lighthouse's 4× CPU slow-down, leave these pages.",
  fonts:
    "**Fonts** (decisions 0091, 0095): cut down to the glyphs French text needs and the weights in use (84.6 → 47.8 KB), with `font-display: optional` and metric-matched local fallbacks, so that no swap shifts the layout (CLS 0); the first page of a visit is drawn in those fallbacks and fetches the fonts after its `load` (still counted in the weight, which measures until network idle), later pages (a same-origin referrer, no cookie or storage) use them from the HTTP cache: the fonts leave the first page's LCP path.",
  memory:
    "**Memory** (decision 0092): admin-only and upload-only modules (TipTap, sharp, QR codes, auth, mail…) load when first used, and the heap, caches and pools are sized for a small server: less resident memory at idle and after the load.",
  fasthit:
    "**Cached hits without a round trip** (decision 0093): the content version comes from PostgreSQL `LISTEN/NOTIFY` (with a heartbeat and the per-request read as fallback) instead of a query per hit, and a cached hit is answered before Express with the same nonce, headers and log line: no database wait and less work per hit.",
  hydrated:
    "**Hydrated pages' JavaScript** (decision 0094): the blog and contact pages keep hydration; their client code is trimmed (components of our own where a library shipped more than used, fewer chunks) and hashed assets go out brotli-compressed at the highest quality, made once by the build.",
} as const;
export type ChangeKey = keyof typeof changes;

type Row = {
  figure: string;
  before: number | null;
  after: number | null;
  unit: string;
  digits?: number;
  budget?: Budget;
  because: ChangeKey[];
};

type Weight = { bytes?: Partial<Record<string, number>>; javascriptBytes?: number };
type LighthouseRun = {
  scores?: Partial<Record<string, number | null>>;
  lcp?: number | null;
};

const kib = (bytes: number | undefined) =>
  bytes === undefined ? null : Math.round((bytes / 1024) * 10) / 10;

function weightOf(section: SectionResult | undefined, page: string): Weight | undefined {
  return (section?.data as Record<string, Weight> | undefined)?.[page];
}

function lighthouseMedian(
  section: SectionResult | undefined,
  page: string,
  pick: (run: LighthouseRun) => number | null | undefined,
): number | null {
  const runs = (section?.data as Record<string, LighthouseRun[]> | undefined)?.[page];
  if (!Array.isArray(runs)) return null;
  return median(runs.map(pick).filter((v): v is number => typeof v === "number"));
}

/** A figure of a table of a section: the first Metric (or number) in the row whose first cell matches. */
function tableFigure(
  section: SectionResult | undefined,
  rowLabel: RegExp,
  column?: number,
): number | null {
  for (const table of section?.tables ?? []) {
    for (const row of table.rows) {
      if (typeof row[0] !== "string" || !rowLabel.test(row[0])) continue;
      const cells = column === undefined ? row.slice(1) : [row[column]];
      for (const cell of cells) {
        if (typeof cell === "number") return cell;
        if (cell && typeof cell === "object" && typeof cell.value === "number") return cell.value;
      }
    }
  }
  return null;
}

function ceilingFigure(section: SectionResult | undefined, pick: "ratio" | "p99"): number | null {
  const data = section?.data as
    { ratio?: number; site?: { p99Ms?: number; requestsPerSecond?: number } } | undefined;
  if (!data) return null;
  if (pick === "ratio") {
    return typeof data.ratio === "number" ? Math.round(data.ratio * 1000) / 10 : null;
  }
  return typeof data.site?.p99Ms === "number" ? data.site.p99Ms : null;
}

/** The Node process's figures before decision 0092's changes (its text: « about 330 MiB at idle and 480 MiB under load »). */
export const issueMemoryBefore = { idle: 330, afterLoad: 480 } as const;

type MemorySnapshot = { nodeRss?: unknown };
type MemoryData = Partial<Record<"idle" | "afterLoad", MemorySnapshot>> & {
  memory?: Partial<Record<"idle" | "rightAfter" | "afterLoad", MemorySnapshot>>;
};

/**
 * Node's RSS (MiB) from section « memory » (decision 0092): `data.memory.idle.nodeRss` /
 * `data.memory.afterLoad.nodeRss` (the shape section « server » uses too), else `data.idle.nodeRss`…, else
 * its table's « RSS » row (columns idle, after load), else a row that names Node's RSS at idle / after load.
 */
export function memoryFigure(
  section: SectionResult | undefined,
  moment: "idle" | "afterLoad",
): number | null {
  const data = section?.data as MemoryData | undefined;
  // Section « memory » budgets the figure taken 2 s after its load (`rightAfter`); its `afterLoad` comes
  // after 15 s of rest, lower: the budgeted one is the one to compare.
  const candidates =
    moment === "afterLoad"
      ? [
          data?.memory?.rightAfter?.nodeRss,
          data?.memory?.afterLoad?.nodeRss,
          data?.afterLoad?.nodeRss,
        ]
      : [data?.memory?.idle?.nodeRss, data?.idle?.nodeRss];
  for (const value of candidates) {
    if (typeof value === "number") return value;
  }
  return (
    tableFigure(section, /^(node )?rss$/i, moment === "idle" ? 1 : 2) ??
    tableFigure(
      section,
      moment === "idle" ? /node.*rss.*(idle|at rest)/i : /node.*rss.*(after|under).*load/i,
    )
  );
}

/** The rows of the before / after table, from the baseline's sections and the current ones. */
export function beforeAfterRows(
  before: Partial<Record<string, SectionResult>>,
  after: Partial<Record<string, SectionResult>>,
): Row[] {
  const rows: Row[] = [];
  for (const page of measuredPages) {
    // Scripts downloaded + inline scripts (gzip estimate); bytes.js alone for a report without the latter.
    const js = (section: SectionResult | undefined) => {
      const weight = weightOf(section, page.path);
      return kib(weight?.javascriptBytes ?? weight?.bytes?.js);
    };
    rows.push({
      figure: `JavaScript before interaction, \`${page.path}\` (${page.kind})`,
      before: js(before.weight),
      after: js(after.weight),
      unit: "KB",
      budget: { max: jsBudgetKiB[page.kind] },
      because: [page.kind === "light" ? "light" : "hydrated"],
    });
  }
  // Fonts are the same stylesheet on every page: the pages Lighthouse measures are enough.
  for (const page of measuredPages.filter((candidate) => candidate.lighthouse)) {
    rows.push({
      figure: `Fonts downloaded, \`${page.path}\``,
      before: kib(weightOf(before.weight, page.path)?.bytes?.font),
      after: kib(weightOf(after.weight, page.path)?.bytes?.font),
      unit: "KB",
      because: ["fonts"],
    });
  }
  for (const page of measuredPages.filter((candidate) => candidate.lighthouse)) {
    const lcp = (section: SectionResult | undefined) => {
      const ms = lighthouseMedian(section, page.path, (run) => run.lcp);
      return ms === null ? null : Math.round(ms / 10) / 100;
    };
    rows.push({
      figure: `LCP (Lighthouse mobile, median), \`${page.path}\``,
      before: lcp(before.lighthouse),
      after: lcp(after.lighthouse),
      unit: "s",
      digits: 2,
      budget: { max: lcpBudgetSeconds },
      because: page.kind === "light" ? ["light", "fonts"] : ["hydrated", "fonts"],
    });
    rows.push({
      figure: `Performance score (Lighthouse mobile, median), \`${page.path}\``,
      before: lighthouseMedian(before.lighthouse, page.path, (run) => run.scores?.performance),
      after: lighthouseMedian(after.lighthouse, page.path, (run) => run.scores?.performance),
      unit: "",
      budget: performanceBudget[page.kind],
      because: page.kind === "light" ? ["light", "fonts"] : ["hydrated", "fonts"],
    });
  }
  rows.push(
    {
      figure: "Node RSS at idle (section « server », page cache on)",
      before: tableFigure(before.server, /^Node RSS at idle/),
      after: tableFigure(after.server, /^Node RSS at idle/),
      unit: "MiB",
      budget: { max: 160 },
      because: ["memory"],
    },
    {
      figure: "Node RSS after the load (section « server »)",
      before: tableFigure(before.server, /^Node RSS after/),
      after: tableFigure(after.server, /^Node RSS after/),
      unit: "MiB",
      budget: { max: 260 },
      because: ["memory"],
    },
    {
      figure: "Node RSS at idle (section « memory »; before: the figure before decision 0092)",
      before: issueMemoryBefore.idle,
      after: memoryFigure(after.memory, "idle"),
      unit: "MiB",
      budget: { max: 160 },
      because: ["memory"],
    },
    {
      figure:
        "Node RSS 2 s after the benchmark's load (section « memory »; before: the figure before decision 0092)",
      before: issueMemoryBefore.afterLoad,
      after: memoryFigure(after.memory, "afterLoad"),
      unit: "MiB",
      budget: { max: 260 },
      because: ["memory"],
    },
    {
      figure: "Database round trips of a cached hit, `/tarifs` (Server-Timing)",
      before: tableFigure(before.server, /^`\/tarifs`$/, 4),
      after: tableFigure(after.server, /^`\/tarifs`$/, 4),
      unit: "",
      budget: { equals: 0 },
      because: ["fasthit"],
    },
    {
      figure: "Cached `/tarifs`: throughput / nginx's on the same bytes (wrk, one run)",
      before: ceilingFigure(before.ceiling, "ratio"),
      after: ceilingFigure(after.ceiling, "ratio"),
      unit: "%",
      digits: 1,
      budget: { min: 50 },
      because: ["fasthit", "memory"],
    },
    {
      figure: "Cached `/tarifs`: p99 (wrk, 32 connections)",
      before: ceilingFigure(before.ceiling, "p99"),
      after: ceilingFigure(after.ceiling, "p99"),
      unit: "ms",
      digits: 2,
      budget: { max: 5 },
      because: ["fasthit"],
    },
  );
  return rows;
}

/** A figure with its unit, or « — » when it was not measured. */
function format(value: number | null, unit: string, digits?: number): string {
  if (value === null) return "—";
  return `${formatNumber(value, digits)}${unit ? ` ${unit}` : ""}`;
}

function sectionStamp(name: string, section: SectionResult | undefined): string {
  if (!section) return `${name}: not measured`;
  return `${name} ${section.date.slice(0, 16).replace("T", " ")} UTC, commit ${section.commit}, load ${section.machine.loadAverage}${section.quick ? ", **quick run**" : ""}`;
}

/** The Markdown of the « Before / after (decisions 0090–0095) » part of docs/benchmarks.md (empty without a baseline). */
export function renderBeforeAfter(report: BenchReport, baseline: Baseline | null): string[] {
  if (!baseline) return [];
  const rows = beforeAfterRows(baseline.sections, report.sections);
  const keys = Object.keys(changes) as ChangeKey[];
  const number = (key: ChangeKey) => keys.indexOf(key) + 1;
  const sections = ["lighthouse", "weight", "server", "memory", "ceiling"];
  const out = [
    "",
    '<a id="issue-13"></a>',
    "",
    "## Before / after (decisions 0090–0095)",
    "",
    "The figures decisions 0090–0095 budget, before their changes (the committed baseline",
    "`docs/benchmarks-before-issue13.json`) and now (the sections below), side by side. ✅ / ❌: the current",
    "figure meets / misses its budget; — : not measured. The last column names the change that explains",
    "the row (list under the table).",
    "",
    "| figure | before | after | budget | change |",
    "| --- | ---: | ---: | ---: | --- |",
  ];
  for (const row of rows) {
    const verdict =
      row.budget && row.after !== null
        ? metric(row.after, "", row.budget).ok
          ? "✅ "
          : "❌ "
        : "";
    out.push(
      `| ${row.figure} | ${format(row.before, row.unit, row.digits)} | ${verdict}${format(row.after, row.unit, row.digits)} | ${row.budget ? formatBudget(row.budget, row.unit, row.digits) : "—"} | ${row.because.map((key) => `(${number(key)})`).join(" ")} |`,
    );
  }
  out.push(
    "",
    ...keys.map((key) => `${number(key)}. ${changes[key]}`),
    "",
    `- Before: ${baseline.note} (${sections
      .filter((name) => baseline.sections[name])
      .map((name) => sectionStamp(name, baseline.sections[name]))
      .join("; ")}).`,
    `- After: ${sections.map((name) => sectionStamp(name, report.sections[name])).join("; ")}.`,
    "- Memory: the rows marked « server » compare one measure before and after; the rows marked « memory » are the figures the issue budgets (PostgreSQL's footprint is in that section), against the figures the issue quotes.",
  );
  return out;
}
