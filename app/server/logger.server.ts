type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const threshold = order[(process.env.LOG_LEVEL as Level | undefined) ?? "info"] ?? order.info;

// Keys whose values must never reach the log, wherever they appear.
const secretKey = /pass(word)?|secret|token|cookie|authorization|set-cookie/i;

/**
 * A failed query's error (drizzle's DrizzleQueryError) says its parameters in its message and stack: a gallery's
 * access code, a client's e-mail or comment. The log keeps the query, the database's own error and the frames.
 */
function withoutParameters(error: Error & { query?: unknown; params?: unknown }) {
  if (typeof error.query !== "string" || !Array.isArray(error.params)) return undefined;
  const said = `params: ${error.params.join(",")}`;
  const stack = error.stack ?? "";
  const frames = stack.includes(said) ? stack.slice(stack.indexOf(said) + said.length) : "";
  const message = `Failed query: ${error.query}\nparams: [redacted]`;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  return {
    name: error.name,
    message,
    stack: `${error.name}: ${message}${frames}`,
    ...(cause && {
      cause: { name: cause.name, message: cause.message, code: (cause as { code?: unknown }).code },
    }),
  };
}

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return (
      withoutParameters(value) ?? { name: value.name, message: value.message, stack: value.stack }
    );
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      secretKey.test(key) ? "[redacted]" : redact(item, depth + 1),
    ]),
  );
}

// The time of the last line, kept for the lines written within the same millisecond: a loaded server
// writes tens of request lines per millisecond, and `toISOString` was a tenth of a line's cost.
let lastTimeMs = Number.NaN;
let lastTime = "";
function now(): string {
  const ms = Date.now();
  if (ms !== lastTimeMs) {
    lastTimeMs = ms;
    lastTime = new Date(ms).toISOString();
  }
  return lastTime;
}

/**
 * Request lines waiting for the end of this turn of the event loop (decision 0131): one write to stdout
 * for all the requests answered in one turn instead of one system call each. Any other line flushes them
 * first, so the log keeps its order; so does the process's exit.
 */
let pendingRequestLines = "";
let flushScheduled = false;

function flushRequestLines() {
  flushScheduled = false;
  if (pendingRequestLines === "") return;
  const text = pendingRequestLines;
  pendingRequestLines = "";
  process.stdout.write(text);
}
process.on("exit", flushRequestLines);

function write(level: Level, message: string, fields?: Record<string, unknown>, always = false) {
  if (order[level] < threshold && !always) return;
  const line = JSON.stringify({
    time: now(),
    level,
    msg: message,
    ...(fields ? (redact(fields) as Record<string, unknown>) : {}),
  });
  flushRequestLines();
  process.stdout.write(`${line}\n`);
}

/** The fields of a request's line: none of them can hold a secret, so they are not redacted. */
export type RequestLine = {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  bytes: number | undefined;
};

/**
 * A request's line, the same JSON as `log.info("request", fields)` (same keys in the same order), written
 * with the other request lines of this turn (see `pendingRequestLines`).
 */
function writeRequest(level: Level, fields: RequestLine) {
  if (order[level] < threshold) return;
  const bytes = fields.bytes ? `,"bytes":${fields.bytes}` : "";
  pendingRequestLines += `{"time":"${now()}","level":"${level}","msg":"request","method":${JSON.stringify(fields.method)},"path":${JSON.stringify(fields.path)},"status":${fields.status},"durationMs":${fields.durationMs}${bytes}}\n`;
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushRequestLines);
  }
}

/** Structured JSON-lines logger on stdout. Secrets are redacted by key name. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
  /** Written whatever LOG_LEVEL says: what an operator asked for (e.g. the memory report on SIGUSR2). */
  report: (message: string, fields?: Record<string, unknown>) =>
    write("info", message, fields, true),
  /** One HTTP request's line (request-log.server.ts). */
  request: writeRequest,
};
