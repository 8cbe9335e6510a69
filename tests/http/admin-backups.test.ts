import { inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { backupRuns } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { fetchPage, textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * The backups' health on the dashboard (issue 26), as the server renders it: red with the reason after a
 * failed night, one calm line after a good one. The runs are written as the backup job writes them.
 */

const admin = useAdmin();
const inserted: string[] = [];

afterAll(async () => {
  if (inserted.length > 0) {
    await serverDatabase().delete(backupRuns).where(inArray(backupRuns.id, inserted));
  }
});

async function run(values: typeof backupRuns.$inferInsert) {
  const [row] = await serverDatabase().insert(backupRuns).values(values).returning();
  if (row) inserted.push(row.id);
}

const dashboard = async () =>
  (await fetchPage("/admin/dashboard", { cookie: admin.cookie() })).document;

describe("the dashboard's backups", () => {
  it("are red with the reason after a failed night, calm again after a good one", async () => {
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await run({
      reason: "schedule",
      status: "failed",
      error: "plus de place sur le disque",
      startedAt: hourAgo,
      finishedAt: hourAgo,
    });
    const failed = (await dashboard()).querySelector('section[aria-label="Sauvegardes"]');
    expect(textOf(failed)).toContain("La dernière sauvegarde a échoué");
    expect(textOf(failed)).toContain(": plus de place sur le disque.");

    await run({
      reason: "manual",
      status: "done",
      file: "sauvegarde-2026-11-27-030000.tar",
      bytes: 13_002_342,
      finishedAt: new Date(),
    });
    const page = await dashboard();
    expect(page.querySelector('section[aria-label="Sauvegardes"]')).toBeNull();
    expect(textOf(page.body)).toMatch(/Dernière sauvegarde réussie : le .* \(12,4 Mo\)\./);
  });
});
