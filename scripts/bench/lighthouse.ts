// Section 2: page quality with Lighthouse (mobile profile, default simulated throttling), median of 3 runs.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, chromiumPath } from "../lib/chromium.ts";
import { pageBudgets, measuredPages, type MeasuredPage } from "./page-list.ts";
import { startPageServer } from "./pages.ts";
import { median, metric, type Cell, type SectionResult } from "./report.ts";
import type { Context } from "./context.ts";

/** chrome-launcher's flags: Lighthouse needs the new headless mode said explicitly. */
const chromeFlags = ["--headless=new", ...CHROMIUM_ARGS];

const categories = ["performance", "accessibility", "best-practices", "seo"] as const;

type Run = {
  scores: Record<(typeof categories)[number], number | null>;
  lcp: number | null;
  cls: number | null;
  tbt: number | null;
  failing: string[];
};

/** One page's Lighthouse runs (mobile) and its row of the table: `runs` recorded runs, their medians. */
export async function measureLighthouse(
  context: Context,
  chromePort: number,
  baseUrl: string,
  page: Pick<MeasuredPage, "name" | "path" | "kind">,
  runs: number,
): Promise<{ row: Cell[]; runs: Run[]; notes: string[] }> {
  const notes: string[] = [];
  const pageRuns: Run[] = [];
  const details = new Set<string>();
  // A run Lighthouse itself could not record (e.g. NO_NAVSTART: Chromium's trace lost the navigation)
  // is noted and run again, at most twice per page, so that the median is of `runs` recorded runs.
  for (let attempt = 0; pageRuns.length < runs && attempt < runs + 2; attempt++) {
    context.log(`lighthouse ${page.path} (${pageRuns.length + 1}/${runs})`);
    const result = await lighthouse(`${baseUrl}${page.path}`, {
      port: chromePort,
      output: "json",
      logLevel: "error",
      onlyCategories: [...categories],
      maxWaitForLoad: 45_000,
    });
    if (!result) throw new Error(`Lighthouse n'a rien rendu pour ${page.path}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) {
      notes.push(
        `${page.path}: a run was not recorded and was run again: ${lhr.runtimeError.message}`,
      );
      continue;
    }
    const failing: string[] = [];
    for (const id of categories) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          failing.push(`${id}/${ref.id}`);
          const items = (audit.details as { items?: unknown[] } | undefined)?.items;
          if (id !== "performance" && items?.length) {
            details.add(`${ref.id}: ${JSON.stringify(items.slice(0, 3)).slice(0, 400)}`);
          }
        }
      }
    }
    pageRuns.push({
      scores: Object.fromEntries(
        categories.map((id) => {
          const score = lhr.categories[id]?.score;
          return [id, score === null || score === undefined ? null : Math.round(score * 100)];
        }),
      ) as Run["scores"],
      lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? null,
      cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? null,
      tbt: lhr.audits["total-blocking-time"]?.numericValue ?? null,
      failing,
    });
  }
  const mid = (pick: (run: Run) => number | null) =>
    median(pageRuns.map(pick).filter((v): v is number => v !== null));
  const lcp = mid((run) => run.lcp);
  const cls = mid((run) => run.cls);
  const row: Cell[] = [
    `${page.name} (\`${page.path}\`, ${page.kind})`,
    metric(
      mid((run) => run.scores.performance),
      "",
      pageBudgets.performance,
    ),
    metric(
      mid((run) => run.scores.accessibility),
      "",
      { equals: 100 },
    ),
    metric(
      mid((run) => run.scores["best-practices"]),
      "",
      { equals: 100 },
    ),
    metric(
      mid((run) => run.scores.seo),
      "",
      { equals: 100 },
    ),
    metric(lcp === null ? null : lcp / 1000, "s", { max: pageBudgets.lcpSeconds }, 2),
    metric(cls === null ? null : Math.round(cls * 1000) / 1000, "", { equals: 0 }, 3),
    metric(
      mid((run) => run.tbt),
      "ms",
      { max: pageBudgets.totalBlockingTimeMs },
    ),
  ];
  const failing = [...new Set(pageRuns.flatMap((run) => run.failing))];
  if (failing.length > 0) {
    notes.push(
      `\`${page.path}\`: audits below full marks in some run: ${failing.join(", ")}${
        details.size > 0 ? ` — details: ${[...details].map((d) => `\`${d}\``).join("; ")}` : ""
      }`,
    );
  }
  return { row, runs: pageRuns, notes };
}

/** The columns of measureLighthouse's rows. */
export const LIGHTHOUSE_COLUMNS = [
  "page",
  "performance",
  "accessibility",
  "best practices",
  "SEO",
  "LCP",
  "CLS",
  "TBT",
];

/** Starts the Chromium Lighthouse drives (new headless mode); the caller kills it. */
export const launchLighthouseChrome = () =>
  chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags });

export async function lighthouseSection(context: Context): Promise<Partial<SectionResult>> {
  const runs = context.quick ? 1 : 3;
  const { server, close } = await startPageServer("lighthouse");
  const chrome = await launchLighthouseChrome();
  const rows: Cell[][] = [];
  const data: Record<string, Run[]> = {};
  const notes: string[] = [];
  try {
    for (const page of measuredPages.filter((candidate) => candidate.lighthouse)) {
      const measured = await measureLighthouse(context, chrome.port, server.baseUrl, page, runs);
      data[page.path] = measured.runs;
      rows.push(measured.row);
      notes.push(...measured.notes);
    }
  } finally {
    chrome.kill();
    await close();
  }
  notes.unshift(
    `Lighthouse ${runs === 1 ? "ran once" : `ran ${runs} times`} per page (mobile form factor, default simulated throttling: 4× CPU slow-down, slow 4G); each figure is the median of the runs. Published articles were seeded with SQL first. Budgets (decision 0132): performance = 100, LCP ≤ ${pageBudgets.lcpSeconds} s and total blocking time under 100 ms on every page, light (no framework JavaScript: the marketing pages, booking, the blog) or hydrated (the contact pages). The simulation (Lantern) starts from the main-thread tasks it observes: TBT, and with it the performance score, rises on a loaded machine (see the load average above), LCP much less.`,
  );
  return {
    title: "Page quality (Lighthouse, mobile)",
    tables: [
      {
        caption: `Median of ${runs} Lighthouse run(s) per page`,
        columns: LIGHTHOUSE_COLUMNS,
        rows,
      },
    ],
    notes,
    data,
  };
}
