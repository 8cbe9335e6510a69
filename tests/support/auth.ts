import { afterAll, beforeAll } from "vitest";
import { createAuth, type Auth } from "../../app/server/auth/config.server";
import { createTestDatabase, type TestDatabase } from "./database";

/** For a test file of the sign-in code: its own database and a better-auth instance on it. */
export function useTestAuth(): { auth: () => Auth; database: () => TestDatabase } {
  let database: TestDatabase | undefined;
  let auth: Auth | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    auth = createAuth({
      database: database.db,
      secret: "a-test-secret-that-is-long-enough-0123456789",
      baseURL: "http://localhost:3000",
    });
  });
  afterAll(() => database?.close());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useTestAuth: used before beforeAll ran");
    return value;
  };
  return { auth: () => ready(auth), database: () => ready(database) };
}

/** The Cookie header after a response: `previous` updated with its Set-Cookie (deleted ones removed). */
export function cookieAfter(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0] ?? "", pair] as const),
  );
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    const name = pair.split("=")[0] ?? "";
    if (/max-age=0/i.test(cookie) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
