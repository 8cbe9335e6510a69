import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { fetchPage, textOf } from "../support/html";

/*
 * The admin's « Aide » shows the owner's guide of the repository, docs/guide-proprietaire.md, as the build
 * bundled it (decision 0140). Who may open it: tests/http/admin-authorization.test.ts, from the route table.
 */

const admin = useAdmin();
const guide = fs.readFileSync(
  path.resolve(import.meta.dirname, "../../docs/guide-proprietaire.md"),
  "utf8",
);

describe("/admin/aide", () => {
  it("shows every section of docs/guide-proprietaire.md, in its order", async () => {
    const page = await fetchPage("/admin/aide", { cookie: admin.cookie() });
    expect(page.status).toBe(200);
    expect(textOf(page.document.querySelector("title"))).toBe("Aide - Administration");
    const headings = [...guide.matchAll(/^#{1,2} (.+)$/gm)].map(([, heading]) => heading);
    expect(headings.length).toBeGreaterThan(5);
    expect(
      [...page.document.querySelectorAll("main h1, main h2")].map((heading) => textOf(heading)),
    ).toEqual(headings);
    expect(textOf(page.document.querySelector("main"))).toContain(
      "« Sauvegarder maintenant » en lance une",
    );
  });

  it("is reached from every admin page by the menu's « Aide »", async () => {
    const page = await fetchPage("/admin/dashboard", { cookie: admin.cookie() });
    const navigation = page.document.querySelector('nav[aria-label="Administration"]');
    const link = [...(navigation?.querySelectorAll("a") ?? [])].find(
      (anchor) => textOf(anchor) === "Aide",
    );
    expect(link?.getAttribute("href")).toBe("/admin/aide");
  });
});
