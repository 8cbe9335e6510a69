import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { createAuth, type Auth } from "../auth/config.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { signLinkTokenWith } from "../signed-link.server";
import { upsertAccount } from "./administrators.server";
import {
  createFirstAdministrator,
  firstAdministratorLink,
  firstAdministratorTokenState,
} from "./first-administrator.server";

const secret = vi.hoisted(() => {
  const value = "first-administrator-test-secret-0123456789";
  process.env.AUTH_SECRET = value;
  return value;
});

useAppDatabase();

let auth: Auth;
beforeAll(() => {
  auth = createAuth({
    database: db(),
    secret,
    baseURL: "https://studio.example",
    mailer: () => null,
  });
});

const tokenOf = (link: string | null) =>
  new URL(link ?? "http://x").searchParams.get("jeton") ?? "";
const administrators = () =>
  db().select({ email: users.email }).from(users).where(eq(users.role, "admin"));

describe("the first administrator", () => {
  it("is created once from the printed link; then the link says it was used", async () => {
    await db().delete(users);
    const link = await firstAdministratorLink();
    expect(link).toMatch(/\/admin\/premier-administrateur\?jeton=[\w-]+\.[\w-]+$/);
    const token = tokenOf(link);
    expect(await firstAdministratorTokenState(token)).toBe("valid");

    expect(
      await createFirstAdministrator(auth, {
        token,
        email: "Lea@Example.com",
        password: "secret-123",
      }),
    ).toBe("created");
    expect(await administrators()).toEqual([{ email: "lea@example.com" }]);
    expect(await firstAdministratorTokenState(token)).toBe("used");
    expect(await firstAdministratorLink()).toBeNull();
    expect(
      await createFirstAdministrator(auth, {
        token,
        email: "autre@example.com",
        password: "secret-123",
      }),
    ).toBe("used");
    expect(await administrators()).toEqual([{ email: "lea@example.com" }]);
  });

  it("refuses a forged, late or other-purpose token", async () => {
    await db().delete(users);
    const late = signLinkTokenWith(secret, "first-administrator", "setup", {
      lifetimeSeconds: 24 * 60 * 60,
      now: Date.now() - 25 * 60 * 60 * 1000,
    });
    const otherPurpose = signLinkTokenWith(secret, "newsletter-confirm", "setup");
    const forged = signLinkTokenWith(
      "another-secret-0123456789-0123456789",
      "first-administrator",
      "setup",
    );
    for (const token of [late, otherPurpose, forged, "", "abc"]) {
      expect(await firstAdministratorTokenState(token)).toBe("invalid");
      expect(
        await createFirstAdministrator(auth, {
          token,
          email: "x@example.com",
          password: "secret-123",
        }),
      ).toBe("invalid");
    }
    expect(await administrators()).toEqual([]);
  });

  it("creates one administrator when two people use the link at the same moment", async () => {
    await db().delete(users);
    const token = tokenOf(await firstAdministratorLink());
    const outcomes = await Promise.all(
      ["a@example.com", "b@example.com", "c@example.com"].map((email) =>
        createFirstAdministrator(auth, { token, email, password: "secret-123" }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "created")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "used")).toHaveLength(2);
    expect(await administrators()).toHaveLength(1);
  });

  it("prints no link once an administrator exists another way (admin:create, ADMIN_EMAIL)", async () => {
    await db().delete(users);
    await upsertAccount(auth, { email: "owner@example.com", password: "secret-123" });
    expect(await firstAdministratorLink()).toBeNull();
  });
});
