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
});
