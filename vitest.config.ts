import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";
import { minifiedInlineScripts } from "./scripts/lib/minified-inline-scripts.ts";

const alias = { "~": path.resolve(import.meta.dirname, "app") };

/**
 * The files that take longest (a browser journey of 30 photos, uploads, the media library; a publication
 * waiting for its time; a mail server refusing for a while; photos prepared, a bucket listed past 1,000
 * keys; kill -9 and restarts), started first so that no worker is left with one of them at the end while
 * the others wait. Without vitest's cache (a fresh clone, as in CI) files are ordered by size, which put
 * the gallery journey twelfth, left the page checks as the last browser file and started the scheduled
 * publication halfway through the http project. In the order of their measured durations (decision 0159:
 * vitest's results cache of a full run); a browser file of 40 s left for the end keeps two workers idle.
 */
const LONGEST_FIRST = [
  "tests/http/admin-scheduled-publishing.test.ts",
  "tests/integration/newsletter-smtp-refusal.test.ts",
  "app/server/galleries/processing.integration.test.ts",
  "app/server/backup/backup.integration.test.ts",
  "app/server/backup/destination.integration.test.ts",
  "app/server/storage/storage.integration.test.ts",
  "app/server/galleries/galleries.integration.test.ts",
  "tests/system/newsletter-durability.test.ts",
  "tests/system/two-servers.test.ts",
  "tests/system/server-lifecycle.test.ts",
  "tests/system/booking-durability.test.ts",
  "tests/system/vouchers-durability.test.ts",
  "tests/system/build-switch.test.ts",
  "tests/system/durability.test.ts",
  "tests/system/backup-kill.test.ts",
  "tests/system/command-line-without-vite.test.ts",
  "tests/system/upgrade.test.ts",
  "tests/e2e/client-gallery.test.ts",
  "tests/e2e/admin-medias.test.ts",
  "tests/e2e/admin-gallery-upload.test.ts",
  "tests/e2e/client-gallery-view.test.ts",
  "tests/e2e/fonts.test.ts",
  "tests/e2e/booking-journey.test.ts",
  "tests/e2e/admin-article-editor.test.ts",
  "tests/e2e/admin-site-tarifs.test.ts",
  "tests/e2e/admin-studios.test.ts",
  "tests/e2e/admin-articles.test.ts",
  "tests/e2e/admin-galleries.test.ts",
  "tests/e2e/admin-backups.test.ts",
  "tests/e2e/pages-content.test.ts",
];

/**
 * Unit and integration files: a worker runs its files one after the other in one process, importing the
 * server's modules once instead of once a file (about a third of their time, decision 0180); the set-up
 * file gives each file the state of a new process.
 */
const oneProcessPerWorker = {
  isolate: false,
  setupFiles: ["tests/setup/fresh-process-state.ts"],
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    // A stable sort: the other files keep vitest's order (failed first, then longest known, then size).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The production build, a throwaway PostgreSQL and the site's server on them: the http and e2e projects.
 * Their files talk to that server, not to modules of their own process: a worker runs its files one after
 * the other in one process (`isolate: false`), without a new process and new imports for each (about
 * 2–4 s a file on this machine), and the e2e worker keeps one Chromium for all its files. What a file
 * changes in the shared support modules it undoes in its `afterAll` (`closeServerDatabase`, which the
 * set-up file also calls after each file).
 */
const siteUnderTest = {
  isolate: false,
  globalSetup: [
    "tests/setup/build.ts",
    "tests/setup/postgres.ts",
    "tests/support/database-templates.ts",
    "tests/setup/site-server.ts",
  ],
  setupFiles: ["tests/setup/end-server-database.ts"],
  env: { LOG_LEVEL: "warn" },
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { alias },
  // The light pages' scripts as the build sends them (app/light-pages.test.ts measures them).
  plugins: [minifiedInlineScripts()],
  test: {
    // Browser and database checks run on shared, busy machines: a poll waits for what a job or a page does,
    // up to 30 s (a bound for a failure, not a wait: a poll ends as soon as its condition holds). 10 s was
    // once too short: a CI run beside other test runs on two cores saw a webhook's job applied after 10 s.
    expect: { poll: { timeout: 30_000 } },
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts"],
          ...oneProcessPerWorker,
          // Run with integration (npm run test:unit), in its pool of four: each file in a process of its
          // own costs more than its tests, one at a time (vitest's default on two cores) took 30 s.
          maxWorkers: 4,
          // An outer bound for a test that hangs, not a budget: the CPU-bound ones (every demo photo read
          // with sharp, PDFs drawn, keys derived) took 3–5 s beside three other files on two cores, and
          // vitest's default of 5 s failed them when the machine was busier still.
          testTimeout: 60_000,
        },
      },
      {
        // Server modules in the test's own process against a real PostgreSQL that the set-up starts (or
        // DATABASE_URL), one database per file. No production build: they start as soon as the database does.
        extends: true,
        test: {
          name: "integration",
          include: ["app/**/*.integration.test.ts", "tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/postgres.ts", "tests/support/database-templates.ts"],
          ...oneProcessPerWorker,
          env: { LOG_LEVEL: "warn" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Most of their time is spent waiting (a database, a mail server's refusal window): four files at
          // a time keep two cores busy (three left them 144 % busy; vitest's default here would be one).
          maxWorkers: 4,
        },
      },
      {
        // Tests that start production processes (`node server.ts` on the build, the command-line scripts)
        // and stop, kill -9 or restart them: the build switch, two servers behind Caddy, the upgrade from
        // the previous release, kill -9 of a backup, a sending or the database. Each file starts what it
        // needs; they wait on what the processes print or hold (a log line, a lock), never on a clock.
        extends: true,
        test: {
          name: "system",
          include: ["tests/system/**/*.test.ts"],
          globalSetup: ["tests/setup/build.ts", "tests/setup/postgres.ts"],
          env: { LOG_LEVEL: "warn" },
          // PROCESS_TEST_TIMEOUT of tests/support/server-process.ts: an outer bound only.
          testTimeout: 600_000,
          hookTimeout: 120_000,
          // Mostly waiting on processes that start, die and start again: four at a time keep two cores busy.
          maxWorkers: 4,
        },
      },
      {
        // The production build, served by the real server, asked over HTTP: statuses, headers, redirects,
        // authorisation, bad input and the server-rendered HTML. No browser.
        extends: true,
        test: {
          name: "http",
          include: ["tests/http/**/*.test.ts"],
          ...siteUnderTest,
          maxWorkers: 3,
        },
      },
      {
        // The production build, served by the real server, driven in the system Chromium: what a person
        // sees or does (interaction, focus, layout, axe, scripts, visual shifts).
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          ...siteUnderTest,
          // A browser file mostly waits (the server, a job queue's poll, a toast's time): three at a time
          // keep two cores busy without slowing each other (measured in the README's « Tests »; four, with
          // the system files in the same pool, were slower: decision 0191).
          maxWorkers: 3,
        },
      },
    ],
  },
});
