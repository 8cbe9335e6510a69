// `npm run bench [-- --only server,search] [--quick] [--cpu-prof]`: builds the site when needed, measures it
// on loopback with throwaway data directories, and writes docs/benchmarks.json + docs/benchmarks.md.
// See docs/decisions/0050-benchmarks.md.
import { parseArgs } from "node:util";
import { adminListsSection } from "./admin-lists.ts";
import { backupsSection } from "./backups.ts";
import type { Context } from "./context.ts";
import { ceilingSection } from "./ceiling.ts";
import { durabilitySection } from "./durability.ts";
import { invoicesSection } from "./factures.ts";
import { gallerySection } from "./gallery.ts";
import { integritySection } from "./integrity.ts";
import { lighthouseSection } from "./lighthouse.ts";
import { memorySection } from "./memory.ts";
import {
  commit,
  machine,
  markdownPath,
  renderTable,
  sectionOrder,
  sectionVerdict,
  writeReport,
  type SectionName,
  type SectionResult,
} from "./report.ts";
import { reservationsSection } from "./reservations.ts";
import { searchSection } from "./search.ts";
import { sendingSection } from "./sending.ts";
import { serverSection } from "./server-speed.ts";
import { ensureBuilt } from "./server.ts";
import { salesSection } from "./ventes.ts";
import { weightSection } from "./weight.ts";

const sections: Record<SectionName, (context: Context) => Promise<Partial<SectionResult>>> = {
  lighthouse: lighthouseSection,
  weight: weightSection,
  server: serverSection,
  search: searchSection,
  integrity: integritySection,
  durability: durabilitySection,
  sending: sendingSection,
  ceiling: ceilingSection,
  memory: memorySection,
  gallery: gallerySection,
  reservations: reservationsSection,
  sauvegardes: backupsSection,
  listes: adminListsSection,
  ventes: salesSection,
  factures: invoicesSection,
};

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(`npm run bench [-- --only ${sectionOrder.join(",")}] [--quick] [--cpu-prof]
  --only      sections to run (default: all); the others keep their figures in docs/benchmarks.*
  --quick     reduced counts and durations (also BENCH_QUICK=1): checks the benchmark, not the figures
  --cpu-prof  profile the server during the server-speed section and list where its CPU went`);
  process.exit(0);
}

const chosen = (values.only ?? sectionOrder.join(","))
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);
for (const name of chosen) {
  if (!(sectionOrder as readonly string[]).includes(name)) {
    console.error(`Section inconnue : ${name} (sections : ${sectionOrder.join(", ")})`);
    process.exit(2);
  }
}

const context: Context = {
  quick: values.quick || process.env.BENCH_QUICK === "1",
  cpuProfile: values["cpu-prof"],
  log: (message) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`),
};

context.log("Compilation du site si ses sources ont changé…");
await ensureBuilt();

const benchStarted = Date.now();
const results: Partial<Record<SectionName, SectionResult>> = {};
let failures = 0;
for (const name of sectionOrder.filter((section) => chosen.includes(section))) {
  const started = Date.now();
  const base = { date: new Date().toISOString(), commit: commit(), machine: machine() };
  context.log(`== ${name}`);
  try {
    const partial = await sections[name](context);
    const result: SectionResult = {
      title: partial.title ?? name,
      ...base,
      quick: context.quick,
      durationSeconds: (Date.now() - started) / 1000,
      tables: partial.tables ?? [],
      notes: partial.notes ?? [],
      data: partial.data ?? {},
    };
    results[name] = result;
    writeReport({ [name]: result });
    for (const table of result.tables) console.log(`\n${renderTable(table)}\n`);
    const { met, missed } = sectionVerdict(result);
    context.log(
      `${name}: ${met} budget(s) met, ${missed} missed, ${Math.round(result.durationSeconds)} s`,
    );
  } catch (error) {
    failures += 1;
    console.error(`✖ section ${name} :`, error);
  }
}
context.log(
  `Terminé en ${Math.round((Date.now() - benchStarted) / 1000)} s : ${markdownPath.replace(/^.*\/docs\//, "docs/")}`,
);
process.exit(failures > 0 ? 1 : 0);
