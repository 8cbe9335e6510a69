import type { ServerBuild } from "react-router";
import { pageMatcher, type PageMatcher } from "./site-pages.server";

/**
 * The pages of the running build's route table (for the admin's redirect checks). Imported by route
 * modules only: the server build is the app itself, loaded when the check runs.
 */
const matchers = new WeakMap<ServerBuild, PageMatcher>();

export async function sitePageMatcher(): Promise<PageMatcher> {
  const build = (await import("virtual:react-router/server-build")) as ServerBuild;
  let matcher = matchers.get(build);
  if (!matcher) {
    matcher = pageMatcher(build.routes);
    matchers.set(build, matcher);
  }
  return matcher;
}
