/** The path React Router judges for `pathname` (a client navigation asks for "/blog.data", "/_.data"). */
export function pagePath(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length) || "/";
  return pathname.replace(/\.data$/, "");
}
