// Figures with their budgets, and the two reports: docs/benchmarks.json (merged section by section) and
// docs/benchmarks.md (rendered from the JSON).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "../lib/build.ts";
import { describeHostCosts, measureHostCosts, type HostCosts } from "../lib/host-costs.ts";
import { readBaseline, renderBeforeAfter } from "./issue13.ts";

export type Budget = { max?: number; min?: number; equals?: number };

/** One measured figure: its value, unit and (when there is one) the budget it must meet. */
export type Metric = {
  value: number | null;
  unit: string;
  budget?: Budget;
  /** Undefined when there is no budget; false also when the value could not be measured. */
  ok?: boolean;
  digits?: number;
  /** Shown instead of the number (for yes/no checks). */
  text?: string;
};

export type Cell = string | number | null | Metric;

export type Table = { caption: string; columns: string[]; rows: Cell[][] };

export type SectionResult = {
  title: string;
  date: string;
  commit: string;
  machine: Machine;
  /** Reduced counts (BENCH_QUICK=1 or --quick): a smoke test of the benchmark, not the figures. */
  quick: boolean;
  durationSeconds: number;
  tables: Table[];
  notes: string[];
  /** Raw figures for whoever wants to compare runs. */
  data: Record<string, unknown>;
};

export type Machine = {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** Load average (1 min) when the section started: the machine may be shared. */
  loadAverage: number;
  /** What its kernel charges for a system call, a stat and a new page (absent from older sections). */
  hostCosts?: HostCosts;
};

export type BenchReport = {
  updated: string;
  sections: Record<string, SectionResult>;
};

export const sectionOrder = [
  "lighthouse",
  "weight",
  "server",
  "search",
  "integrity",
  "durability",
  "sending",
  "ceiling",
  "memory",
  "gallery",
  "reservations",
  "sauvegardes",
  "listes",
  "ventes",
  "factures",
] as const;
export type SectionName = (typeof sectionOrder)[number];

export function metric(
  value: number | null | undefined,
  unit: string,
  budget?: Budget,
  digits?: number,
): Metric {
  const v = value === undefined || value === null || Number.isNaN(value) ? null : value;
  let ok: boolean | undefined;
  if (budget) {
    ok =
      v !== null &&
      (budget.max === undefined || v <= budget.max) &&
      (budget.min === undefined || v >= budget.min) &&
      (budget.equals === undefined || v === budget.equals);
  }
  return {
    value: v,
    unit,
    ...(budget ? { budget, ok } : {}),
    ...(digits !== undefined ? { digits } : {}),
  };
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** A yes/no check that counts as a budget. */
export function check(ok: boolean, text: string): Metric {
  return { ...metric(ok ? 1 : 0, "", { equals: 1 }), text };
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? null;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    hostCosts: measureHostCosts(),
  };
}

/** The machine as the report names it: CPU, cores, memory, Node, and its kernel's costs when measured. */
function describeMachine(m: Machine): string {
  const costs = m.hostCosts ? `; ${describeHostCosts(m.hostCosts)}` : "";
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}${costs}`;
}

export function commit(): string {
  try {
    const hash = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root })
      .toString()
      .trim();
    // The benchmark's own report does not make the measured code "uncommitted".
    const dirty = execFileSync(
      "git",
      [
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":(exclude)docs/benchmarks.md",
        ":(exclude)docs/benchmarks.json",
      ],
      { cwd: root },
    )
      .toString()
      .trim();
    return dirty ? `${hash} (+ uncommitted changes)` : hash;
  } catch {
    return "unknown";
  }
}

export const jsonPath = path.join(root, "docs/benchmarks.json");
export const markdownPath = path.join(root, "docs/benchmarks.md");

export function readReport(): BenchReport {
  if (!existsSync(jsonPath)) return { updated: "", sections: {} };
  try {
    return JSON.parse(readFileSync(jsonPath, "utf8")) as BenchReport;
  } catch {
    return { updated: "", sections: {} };
  }
}

/** Replaces the sections that ran, keeps the others, and rewrites both files. */
export function writeReport(results: Partial<Record<SectionName, SectionResult>>): BenchReport {
  const report = readReport();
  report.updated = new Date().toISOString();
  for (const [name, result] of Object.entries(results)) report.sections[name] = result;
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(markdownPath, renderMarkdown(report));
  return report;
}

export function formatNumber(value: number, digits?: number): string {
  const d = digits ?? (Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : 1);
  return value.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
}

export function formatBudget(budget: Budget, unit: string, digits?: number): string {
  const u = unit ? ` ${unit}` : "";
  if (budget.equals !== undefined) return `= ${formatNumber(budget.equals, digits)}${u}`;
  if (budget.min !== undefined && budget.max !== undefined) {
    return `${formatNumber(budget.min, digits)}–${formatNumber(budget.max, digits)}${u}`;
  }
  if (budget.max !== undefined) return `≤ ${formatNumber(budget.max, digits)}${u}`;
  return `≥ ${formatNumber(budget.min ?? 0, digits)}${u}`;
}

export function formatCell(cell: Cell): string {
  if (cell === null) return "—";
  if (typeof cell === "string") return cell.replace(/\|/g, "\\|");
  if (typeof cell === "number") return formatNumber(cell);
  const value =
    cell.value === null
      ? "n/a"
      : `${formatNumber(cell.value, cell.digits)}${cell.unit ? ` ${cell.unit}` : ""}`;
  if (cell.text !== undefined)
    return `${cell.ok === undefined ? "" : cell.ok ? "✅ " : "❌ "}${cell.text}`;
  if (!cell.budget) return value;
  return `${cell.ok ? "✅" : "❌"} ${value} (${formatBudget(cell.budget, cell.unit, cell.digits)})`;
}

function metrics(result: SectionResult): Metric[] {
  return result.tables.flatMap((table) =>
    table.rows.flatMap((row) =>
      row.filter((cell): cell is Metric => typeof cell === "object" && cell !== null),
    ),
  );
}

export function sectionVerdict(result: SectionResult): { met: number; missed: number } {
  const budgeted = metrics(result).filter((m) => m.budget);
  const missed = budgeted.filter((m) => !m.ok).length;
  return { met: budgeted.length - missed, missed };
}

export function renderTable(table: Table): string {
  const lines = [
    `**${table.caption}**`,
    "",
    `| ${table.columns.join(" | ")} |`,
    `| ${table.columns.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`,
    ...table.rows.map((row) => `| ${row.map(formatCell).join(" | ")} |`),
  ];
  return lines.join("\n");
}

export function renderMarkdown(report: BenchReport): string {
  const out: string[] = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (see `docs/decisions/0050-benchmarks.md` for how each figure is measured).",
    "Every section records when, on which commit and on which machine it ran; a section run alone",
    "(`npm run bench -- --only server`) replaces only its own part. ✅ / ❌: the figure meets / misses its",
    "budget (in brackets). Timings depend on the machine: compare runs on the same machine only.",
    "",
    "| section | date | commit | machine | load (1 min) | budgets |",
    "| --- | --- | --- | --- | ---: | --- |",
  ];
  for (const name of sectionOrder) {
    const result = report.sections[name];
    if (!result) continue;
    const { met, missed } = sectionVerdict(result);
    const m = result.machine;
    out.push(
      `| [${result.title}](#${name}) | ${result.date.slice(0, 16).replace("T", " ")} UTC | ${result.commit} | ${describeMachine(m)} | ${m.loadAverage} | ${missed === 0 ? "✅" : "❌"} ${met}/${met + missed} met${result.quick ? " (quick run: reduced counts)" : ""} |`,
    );
  }
  out.push(...renderBeforeAfter(report, readBaseline()));
  for (const name of sectionOrder) {
    const result = report.sections[name];
    if (!result) continue;
    out.push(
      "",
      `<a id="${name}"></a>`,
      "",
      `## ${result.title}`,
      "",
      `${result.date.slice(0, 19).replace("T", " ")} UTC · commit ${result.commit} · ${describeMachine(result.machine)} · load average ${result.machine.loadAverage} at start · ${Math.round(result.durationSeconds)} s${result.quick ? " · **quick run (reduced counts): not the reference figures**" : ""}`,
    );
    for (const table of result.tables) out.push("", renderTable(table));
    if (result.notes.length > 0) {
      out.push("", ...result.notes.map((note) => `- ${note}`));
    }
  }
  return `${out.join("\n")}\n`;
}
