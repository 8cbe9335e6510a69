// The system Chromium that the browser tests and the benchmark drive (no browser download here).

/** CHROME_PATH, else Debian's `chromium` package: the browser visitors run (the benchmark, the fonts test). */
export function chromiumPath(): string {
  return process.env.CHROME_PATH || "/usr/bin/chromium";
}

/** Debian's `chromium-headless-shell` package: the same engine without the browser's own interface. */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

/**
 * The browser tests' Chromium: CHROME_HEADLESS_SHELL_PATH, else the headless shell, which does the same work
 * for half the CPU of the full browser (decision 0120); CHROME_PATH alone makes every test use that one.
 */
export function headlessShellPath(): string {
  if (process.env.CHROME_HEADLESS_SHELL_PATH) return process.env.CHROME_HEADLESS_SHELL_PATH;
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  return HEADLESS_SHELL;
}

/** Headless as root on a shared machine, and never a request to Google's services. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
