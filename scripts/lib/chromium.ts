// The system Chromium that the browser tests and the benchmark drive (no browser download here).

/** CHROME_PATH, else Debian's `chromium` package. */
export function chromiumPath(): string {
  return process.env.CHROME_PATH || "/usr/bin/chromium";
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
