import { afterEach, describe, expect, it, vi } from "vitest";
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
});
