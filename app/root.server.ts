import { env } from "~/server/env.server";

export function loader() {
  return { siteUrl: env().SITE_URL };
}
