import { describe, expect, it } from "vitest";
import { cookieAfter, useTestAuth } from "../../../tests/support/auth";
import { upsertAccount } from "./administrators.server";

const { auth: testAuth } = useTestAuth();

describe("administrator accounts", () => {
  it("creates an administrator who can sign in and whose session carries the admin role", async () => {
    await upsertAccount(testAuth(), { email: "Owner@Example.com", password: "secret-1" });
    const { headers, response } = await testAuth().api.signInEmail({
      body: { email: "owner@example.com", password: "secret-1" },
      returnHeaders: true,
    });
    expect(response.user.email).toBe("owner@example.com");
    const cookie = cookieAfter(headers);
    expect(headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
    expect(headers.getSetCookie()[0]).toMatch(/SameSite=Lax/i);
    const session = await testAuth().api.getSession({ headers: new Headers({ cookie }) });
    expect((session?.user as { role?: string }).role).toBe("admin");
  });

  it("updates the password of an existing account and signs it out everywhere", async () => {
    const { headers } = await testAuth().api.signInEmail({
      body: { email: "owner@example.com", password: "secret-1" },
      returnHeaders: true,
    });
    const cookie = cookieAfter(headers);
    await upsertAccount(testAuth(), { email: "owner@example.com", password: "secret-2" });
    expect(await testAuth().api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    await expect(
      testAuth().api.signInEmail({ body: { email: "owner@example.com", password: "secret-1" } }),
    ).rejects.toThrow();
    const signedIn = await testAuth().api.signInEmail({
      body: { email: "owner@example.com", password: "secret-2" },
    });
    expect(signedIn.user.email).toBe("owner@example.com");
  });

  it("refuses public sign-up", async () => {
    await expect(
      testAuth().api.signUpEmail({
        body: { email: "visitor@example.com", password: "secret-1", name: "Visitor" },
      }),
    ).rejects.toThrow();
  });

  it("creates ordinary users with the role user", async () => {
    await upsertAccount(testAuth(), {
      email: "user@example.com",
      password: "secret-1",
      role: "user",
    });
    const { headers } = await testAuth().api.signInEmail({
      body: { email: "user@example.com", password: "secret-1" },
      returnHeaders: true,
    });
    const session = await testAuth().api.getSession({
      headers: new Headers({ cookie: cookieAfter(headers) }),
    });
    expect((session?.user as { role?: string }).role).toBe("user");
  });
});
