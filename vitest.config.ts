import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };

/** The production build, a throwaway PostgreSQL and the site's server on them: the http and e2e projects. */
const siteUnderTest = {
  globalSetup: ["tests/setup/build.ts", "tests/setup/postgres.ts", "tests/setup/site-server.ts"],
  env: { LOG_LEVEL: "warn" },
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Browser and database checks run on shared, busy machines: polls wait up to 10 s for the page to settle.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts"],
        },
      },
      {
        // Against a real PostgreSQL that the set-up starts (or DATABASE_URL), one database per file.
        extends: true,
        test: {
          name: "integration",
          include: ["app/**/*.integration.test.ts", "tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/build.ts", "tests/setup/postgres.ts"],
          env: { LOG_LEVEL: "warn" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Most of their time is spent waiting (a database, a mail server's refusal window, a restarted
          // process): three files at a time keep two cores busy (vitest's default here would be one).
          maxWorkers: 3,
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
          // keep two cores busy without slowing each other (measured in the README's « Tests »).
          maxWorkers: 3,
        },
      },
    ],
  },
});
