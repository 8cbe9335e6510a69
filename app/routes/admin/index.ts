import { redirect } from "react-router";

/** /admin leads to the dashboard (which sends visitors who are not signed in to the login page). */
export function loader() {
  return redirect("/admin/dashboard");
}
