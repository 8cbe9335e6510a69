import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { redirects } from "./content/redirects";

// The route table, following SPEC §2.
export default [
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),

    // Services, prices, gallery (issue 2/5)

    // Studios, contact pages, legal pages (issue 2/5)

    // Blog (issue 3/5)
    route("blog", "routes/blog.tsx"),
    route("blog/:slug", "routes/blog-article.tsx"),
    route("blog/categorie/:slug", "routes/blog-category.tsx"),

    route("*", "routes/not-found.tsx"),
  ]),

  // Admin (issue 4/5)

  // Resource routes: feeds, sitemap, robots (issue 3/5)
  route("blog/rss.xml", "routes/blog-rss.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),

  // Old addresses of the previous site: one route per line of the redirect table.
  ...redirects.map(({ from }) => route(from, "routes/redirect.ts", { id: `redirect:${from}` })),
] satisfies RouteConfig;
