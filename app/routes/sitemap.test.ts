import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { publicPages } from "./sitemap";

/** Every page address of the route table under the public site's layout (none with a parameter). */
function sitePages(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent || "/" : entry.path ? `${parent}/${entry.path}` : parent;
    const own = entry.index || entry.path ? [path] : [];
    return [...own, ...sitePages(entry.children ?? [], path === "/" ? "" : path)];
  });
}

const siteLayout = routes.find((entry) => entry.file === "routes/site-layout.tsx");

describe("sitemap", () => {
  it("lists every page of the public site's route table (blog pages come from the database)", () => {
    const pages = sitePages(siteLayout?.children ?? [])
      .filter((path) => !path.includes(":") && !path.includes("*"))
      .filter((path) => path !== "/blog");
    expect(pages.length).toBeGreaterThan(20);
    expect([...publicPages].sort()).toEqual([...pages].sort());
  });

  it("lists each studio's page and contact page from the route table", () => {
    const pages = sitePages(siteLayout?.children ?? []);
    const studioPages = pages.filter((path) => /^\/(contact-)?studio-/.test(path));
    expect(studioPages.length).toBeGreaterThanOrEqual(6);
    for (const path of studioPages) expect(publicPages).toContain(path);
  });
});
