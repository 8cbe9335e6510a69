import { afterEach, describe, expect, it, vi } from "vitest";
import { DrizzleQueryError } from "drizzle-orm";
import { log } from "./logger.server";

describe("log", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes one JSON line with the message and fields, secrets redacted", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    log.info("login_attempt", {
      email: "a@example.com",
      password: "hunter22",
      nested: { token: "x" },
    });
    expect(write).toHaveBeenCalledTimes(1);
    const line = String(write.mock.calls[0]?.[0]);
    expect(line.endsWith("\n")).toBe(true);
    const entry = JSON.parse(line);
    expect(entry).toMatchObject({ level: "info", msg: "login_attempt", email: "a@example.com" });
    expect(entry.password).toBe("[redacted]");
    expect(entry.nested.token).toBe("[redacted]");
    expect(line).not.toContain("hunter22");
  });

  it("keeps a failed query's statement and cause but not its parameters (codes, e-mails, comments)", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const cause = Object.assign(new Error("canceling statement due to statement timeout"), {
      code: "57014",
    });
    const failure = new DrizzleQueryError(
      'insert into "galleries" ("access_code", "client_email") values ($1, $2)',
      ["K7RMW2PQ", "julie@example.com"],
      cause,
    );
    log.error("admin_gallery_save_failed", { error: failure });
    const line = String(write.mock.calls[0]?.[0]);
    expect(line).not.toContain("K7RMW2PQ");
    expect(line).not.toContain("julie@example.com");
    const { error } = JSON.parse(line);
    expect(error.message).toBe(
      'Failed query: insert into "galleries" ("access_code", "client_email") values ($1, $2)\nparams: [redacted]',
    );
    expect(error.stack).toMatch(/^Error: Failed query: .*\nparams: \[redacted\]\n\s+at /s);
    expect(error.cause).toEqual({
      name: "Error",
      message: "canceling statement due to statement timeout",
      code: "57014",
    });
  });

  it("writes the request lines of one turn of the event loop in one write, before any other line", async () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const request = { method: "GET", status: 200, durationMs: 0.3, bytes: 7462 };
    log.request("info", { ...request, path: "/tarifs" });
    log.request("info", { ...request, path: '/a "quoted" \\ path', bytes: undefined });
    // A cached page answered at tens of thousands a second wrote one line per answer: a system call each.
    expect(write).not.toHaveBeenCalled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(write).toHaveBeenCalledTimes(1);
    const lines = String(write.mock.calls[0]?.[0]).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: expect.any(String), level: "info", msg: "request", ...request, path: "/tarifs" },
      {
        time: expect.any(String),
        level: "info",
        msg: "request",
        ...request,
        path: '/a "quoted" \\ path',
        bytes: undefined,
      },
    ]);
    // The same keys in the same order as `log.info("request", fields)` gave.
    expect(Object.keys(JSON.parse(lines[0] ?? "{}"))).toEqual([
      "time",
      "level",
      "msg",
      "method",
      "path",
      "status",
      "durationMs",
      "bytes",
    ]);

    write.mockClear();
    log.request("error", { ...request, status: 503, path: "/blog" });
    log.warn("page_cache_version_unavailable");
    expect(write).toHaveBeenCalledTimes(2);
    expect(JSON.parse(String(write.mock.calls[0]?.[0]))).toMatchObject({
      path: "/blog",
      status: 503,
    });
    expect(JSON.parse(String(write.mock.calls[1]?.[0]))).toMatchObject({
      msg: "page_cache_version_unavailable",
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(write).toHaveBeenCalledTimes(2);
  });
});
