import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "./client.server";
import { moveRow } from "./reorder.server";
import { studios } from "./schema";

useAppDatabase();

const order = async () =>
  (
    await db()
      .select({ slug: studios.slug })
      .from(studios)
      .orderBy(asc(studios.position), asc(studios.createdAt))
  ).map((row) => row.slug);

describe("moveRow", () => {
  it("moves a studio one place, numbers the list again, and refuses past either end", async () => {
    const before = await order();
    expect(before).toEqual(["ussel", "brive", "limoges"]);
    const rows = await db().select({ id: studios.id, slug: studios.slug }).from(studios);
    const idOf = (slug: string) => rows.find((row) => row.slug === slug)?.id ?? "";
    expect(await moveRow("studios", idOf("limoges"), "up")).toBe(true);
    expect(await order()).toEqual(["ussel", "limoges", "brive"]);
    expect(await moveRow("studios", idOf("ussel"), "up")).toBe(false);
    expect(await moveRow("studios", idOf("brive"), "down")).toBe(false);
    expect(await moveRow("studios", "00000000-0000-0000-0000-000000000000", "up")).toBe(false);
    const positions = await db().select({ position: studios.position }).from(studios);
    expect(positions.map((row) => row.position).sort()).toEqual([0, 1, 2]);
  });
});
