import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { studioPaths, type StudioRecord } from "~/server/content/site-content.server";
import { seedStudios } from "~/content/seed";
import { disallowedPaths } from "./robots";
import { publicPages, staticPages } from "./sitemap";

/** Every page address of the route table under the public site's layout. */
function sitePages(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent || "/" : entry.path ? `${parent}/${entry.path}` : parent;
    const own = entry.index || entry.path ? [path] : [];
    return [...own, ...sitePages(entry.children ?? [], path === "/" ? "" : path)];
  });
}

const siteLayout = routes.find((entry) => entry.file === "routes/site-layout.tsx");

describe("sitemap", () => {
  it("lists every static page of the public site's route table (blog pages come from the database)", () => {
    const pages = sitePages(siteLayout?.children ?? [])
      .filter((path) => !path.includes(":") && !path.includes("*"))
      .filter((path) => path !== "/blog")
      // /reserver exists only when a studio takes bookings on the site: publicPages adds it then.
      .filter((path) => path !== "/reserver")
      // /bons-cadeaux exists only while vouchers are on sale (decision 0168): publicPages adds it then.
      .filter((path) => path !== "/bons-cadeaux")
      // What robots.txt keeps crawlers out of (the newsletter's e-mailed links) is no page for them.
      .filter((path) => !disallowedPaths.some((prefix) => path.startsWith(prefix)));
    expect(pages.length).toBeGreaterThan(15);
    expect([...staticPages].sort()).toEqual([...pages].sort());
  });

  it("lists each studio on the site: its page and its contact page", () => {
    const studios: StudioRecord[] = seedStudios.map((studio) => ({
      id: studio.slug,
      slug: studio.slug,
      ...studioPaths(studio.slug),
      data: studio.data,
    }));
    const pages = publicPages(studios);
    for (const slug of ["ussel", "brive", "limoges"]) {
      expect(pages).toContain(`/studio-${slug}`);
      expect(pages).toContain(`/contact-studio-${slug}`);
    }
    expect(publicPages([])).toEqual(staticPages);
    expect(publicPages([], { vouchersOnSale: true })).toContain("/bons-cadeaux");
    expect(publicPages(studios)).not.toContain("/reserver");
    const brive = studios.find((studio) => studio.slug === "brive");
    if (brive) brive.data = { ...brive.data, onlineBooking: true };
    expect(publicPages(studios).slice(-2)).toEqual(["/reserver", "/reserver/brive"]);
  });

  it("leaves out what robots.txt disallows", () => {
    const pages = publicPages([]);
    for (const prefix of disallowedPaths) {
      expect(pages.filter((path) => path.startsWith(prefix))).toEqual([]);
    }
  });
});
