import { useRouteLoaderData } from "react-router";

/** The admin layout's route id (app/routes.ts): its loader gives every admin page the brand. */
const ADMIN_LAYOUT_ID = "routes/admin/layout";

/**
 * The brand, in a page under the admin layout (its loader reads it from the site's content). Here rather
 * than in the layout's module so that components never import a route (docs/architecture.md, « Layers »).
 */
export function useAdminBrand(): string {
  const layout = useRouteLoaderData<{ brand: string }>(ADMIN_LAYOUT_ID);
  return layout?.brand ?? "";
}
