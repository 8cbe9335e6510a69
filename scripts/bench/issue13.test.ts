import { describe, expect, it } from "vitest";
import {
  beforeAfterRows,
  changes,
  memoryFigure,
  renderBeforeAfter,
  type Baseline,
} from "./issue13.ts";
import type { BenchReport, SectionResult } from "./report.ts";

// A page over its budget in the figures below. It was the last hydrated page measured; since decision 0137
// the contact pages are light too, so no row has the hydrated pages' budget any more.
const overBudgetPage = "/contact-studio-brive";

function section(
  data: Record<string, unknown>,
  tables: SectionResult["tables"] = [],
): SectionResult {
  return {
    title: "t",
    date: "2026-11-23T17:45:00.000Z",
    commit: "abc1234",
    machine: {
      cpu: "cpu",
      cores: 2,
      memoryGiB: 4,
      node: "v24",
      platform: "Linux",
      loadAverage: 1.5,
    },
    quick: false,
    durationSeconds: 1,
    tables,
    notes: [],
    data,
  };
}

const weight = (js: number, font: number, javascriptBytes?: number) => ({
  bytes: { js, font },
  ...(javascriptBytes === undefined ? {} : { javascriptBytes }),
});
const runs = (lcps: number[], performance: number) =>
  lcps.map((lcp) => ({ scores: { performance }, lcp }));
const serverTables = (idle: number, afterLoad: number, tarifsHit: number) => [
  {
    caption: "round trips",
    columns: ["page", "status", "page cache", "rendered", "served again"],
    rows: [
      ["`/`", 200, "miss / hit", { value: 1, unit: "" }, { value: 1, unit: "" }],
      ["`/tarifs`", 200, "miss / hit", { value: 1, unit: "" }, { value: tarifsHit, unit: "" }],
    ],
  },
  {
    caption: "memory",
    columns: ["figure", "value"],
    rows: [
      ["Node RSS at idle (after seeding, before load)", { value: idle, unit: "MiB" }],
      ["Node RSS after the load tests", { value: afterLoad, unit: "MiB" }],
    ],
  },
];

const before: Baseline = {
  note: "main c471656",
  sections: {
    weight: section({ "/": weight(127_741, 86_660), [overBudgetPage]: weight(130_048, 86_660) }),
    lighthouse: section({ "/": runs([1_700, 1_500, 1_600], 99) }),
    server: section({}, serverTables(349.3, 503.9, 1)),
    ceiling: section({ ratio: 0.1036, site: { p99Ms: 19.64 } }),
  },
};

const after: BenchReport = {
  updated: "",
  sections: {
    weight: section({ "/": weight(0, 30_720, 2_048), [overBudgetPage]: weight(120_000, 30_720) }),
    lighthouse: section({ "/": runs([1_100, 900, 1_000], 100) }),
    server: section({}, serverTables(150, 250, 0)),
  },
};

describe("the light pages' before / after table", () => {
  const rows = beforeAfterRows(before.sections, after.sections);
  const row = (figure: string) => rows.find((candidate) => candidate.figure.startsWith(figure));

  it("reads the JavaScript (inline scripts included when measured) and fonts of each page in KB, with the budget of its kind", () => {
    expect(row("JavaScript before interaction, `/` ")).toMatchObject({
      before: 124.7,
      after: 2,
      budget: { max: 5 },
    });
    expect(row(`JavaScript before interaction, \`${overBudgetPage}\``)).toMatchObject({
      before: 127,
      after: 117.2,
      budget: { max: 5 },
    });
    expect(row("Fonts downloaded, `/`")).toMatchObject({ before: 84.6, after: 30 });
  });

  it("takes the median of the Lighthouse runs, in seconds for the LCP", () => {
    expect(row("LCP (Lighthouse mobile, median), `/`")).toMatchObject({
      before: 1.6,
      after: 1,
      budget: { max: 1.2 },
    });
    expect(row("Performance score (Lighthouse mobile, median), `/`")).toMatchObject({
      before: 99,
      after: 100,
      budget: { equals: 100 },
    });
  });

  it("reads memory and round trips from the server section, the ratio from the ceiling", () => {
    expect(row("Node RSS at idle")).toMatchObject({ before: 349.3, after: 150 });
    expect(row("Node RSS after the load")).toMatchObject({ before: 503.9, after: 250 });
    expect(row("Database round trips of a cached hit")).toMatchObject({ before: 1, after: 0 });
    expect(row("Cached `/tarifs`: throughput")).toMatchObject({ before: 10.4, after: null });
    expect(row("Cached `/tarifs`: p99")).toMatchObject({ before: 19.64, after: null });
  });

  it("reads section « memory » from its data, else from its table rows, against the issue's figures", () => {
    expect(row("Node RSS at idle (section « memory »")).toMatchObject({ before: 330, after: null });
    const withMemory = beforeAfterRows(before.sections, {
      ...after.sections,
      memory: section({
        memory: {
          idle: { nodeRss: 140.2 },
          rightAfter: { nodeRss: 242 },
          afterLoad: { nodeRss: 191 },
        },
      }),
    });
    // The budgeted figure (2 s after the load), not the one after 15 s of rest.
    expect(
      withMemory.find((candidate) =>
        candidate.figure.startsWith("Node RSS 2 s after the benchmark"),
      ),
    ).toMatchObject({ before: 480, after: 242, budget: { max: 260 } });
    expect(memoryFigure(section({ idle: { nodeRss: 120 } }), "idle")).toBe(120);
    const fromRssRow = section({}, [
      {
        caption: "Node process",
        columns: ["figure", "idle", "after load"],
        rows: [["RSS", { value: 151, unit: "MiB" }, { value: 249, unit: "MiB" }]],
      },
    ]);
    expect(memoryFigure(fromRssRow, "idle")).toBe(151);
    expect(memoryFigure(fromRssRow, "afterLoad")).toBe(249);
    const fromTable = section({}, [
      {
        caption: "memory",
        columns: ["figure", "value"],
        rows: [
          ["PostgreSQL at idle", { value: 40, unit: "MiB" }],
          ["Node RSS at idle (page cache on)", { value: 150, unit: "MiB" }],
          ["Node RSS after the load", { value: 250, unit: "MiB" }],
        ],
      },
    ]);
    expect(memoryFigure(fromTable, "idle")).toBe(150);
    expect(memoryFigure(fromTable, "afterLoad")).toBe(250);
    expect(memoryFigure(undefined, "idle")).toBeNull();
  });

  it("renders each row with its verdict, a dash where nothing was measured, and every change", () => {
    const markdown = renderBeforeAfter(after, before).join("\n");
    expect(markdown).toContain("## Before / after (decisions 0090–0095)");
    expect(markdown).toMatch(
      /\| JavaScript before interaction, `\/` \(light\) \| 125 KB \| ✅ 2 KB \| ≤ 5 KB \| \(1\) \|/,
    );
    expect(markdown).toMatch(
      /`\/contact-studio-brive` \(light\) \| 127 KB \| ❌ 117 KB \| ≤ 5 KB \|/,
    );
    expect(markdown).toMatch(/throughput \/ nginx's .* \| 10.4 % \| — \| ≥ 50.0 % \|/);
    for (const text of Object.values(changes)) expect(markdown).toContain(text);
    expect(markdown).toContain("ceiling: not measured");
  });

  it("is left out without a baseline", () => {
    expect(renderBeforeAfter(after, null)).toEqual([]);
  });
});
