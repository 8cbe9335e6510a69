import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { redirects } from "./content/redirects";

// The route table, in the order of SPEC §2.
export default [
  layout("routes/site-layout.tsx", [index("routes/home.tsx"), route("*", "routes/not-found.tsx")]),
  // Old addresses of the previous site: one route per line of the redirect table.
  ...redirects.map(({ from }) => route(from, "routes/redirect.ts", { id: `redirect:${from}` })),
] satisfies RouteConfig;
