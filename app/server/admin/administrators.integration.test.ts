import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { createAuth, type Auth } from "../auth.server";
import { upsertAccount } from "./administrators.server";

let database: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  database = await createTestDatabase();
  auth = createAuth({
    database: database.db,
    secret: "a-test-secret-that-is-long-enough-0123456789",
    baseURL: "http://localhost:3000",
  });
});
afterAll(() => database.close());

function cookieFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("administrator accounts", () => {
  it("creates an administrator who can sign in and whose session carries the admin role", async () => {
    await upsertAccount(auth, { email: "Owner@Example.com", password: "secret-1" });
    const { headers, response } = await auth.api.signInEmail({
      body: { email: "owner@example.com", password: "secret-1" },
      returnHeaders: true,
    });
    expect(response.user.email).toBe("owner@example.com");
    const cookie = cookieFrom(headers);
    expect(headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
    expect(headers.getSetCookie()[0]).toMatch(/SameSite=Lax/i);
    const session = await auth.api.getSession({ headers: new Headers({ cookie }) });
    expect((session?.user as { role?: string }).role).toBe("admin");
  });

  it("updates the password of an existing account and signs it out everywhere", async () => {
    const { headers } = await auth.api.signInEmail({
      body: { email: "owner@example.com", password: "secret-1" },
      returnHeaders: true,
    });
    const cookie = cookieFrom(headers);
    await upsertAccount(auth, { email: "owner@example.com", password: "secret-2" });
    expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    await expect(
      auth.api.signInEmail({ body: { email: "owner@example.com", password: "secret-1" } }),
    ).rejects.toThrow();
    const signedIn = await auth.api.signInEmail({
      body: { email: "owner@example.com", password: "secret-2" },
    });
    expect(signedIn.user.email).toBe("owner@example.com");
  });

  it("refuses public sign-up", async () => {
    await expect(
      auth.api.signUpEmail({
        body: { email: "visitor@example.com", password: "secret-1", name: "Visitor" },
      }),
    ).rejects.toThrow();
  });

  it("creates ordinary users with the role user", async () => {
    await upsertAccount(auth, { email: "user@example.com", password: "secret-1", role: "user" });
    const { headers } = await auth.api.signInEmail({
      body: { email: "user@example.com", password: "secret-1" },
      returnHeaders: true,
    });
    const session = await auth.api.getSession({
      headers: new Headers({ cookie: cookieFrom(headers) }),
    });
    expect((session?.user as { role?: string }).role).toBe("user");
  });
});
