import type { ToastMessage } from "../../app/lib/toast";
import { fetchPage, postForm, textOf, type FetchedPage } from "./html";

/*
 * The admin's forms without a browser: the login form posted as a person's browser would, a button of a
 * server-rendered form pressed with JavaScript off, and the toast a redirect carries to the next page.
 */

/**
 * The toast a redirect carries to the next page: its `toast` cookie (value and signature, written by
 * React Router's cookie), read without checking the signature, which is the server's business.
 */
export function flashedToast(headers: Headers): ToastMessage | null {
  const cookie = headers.getSetCookie().find((value) => value.startsWith("toast="));
  if (!cookie) return null;
  const signed = decodeURIComponent(cookie.slice("toast=".length).split(";")[0] ?? "");
  const payload = signed.slice(0, signed.lastIndexOf("."));
  return JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as ToastMessage;
}

/** Posts the login form (the tests of signing in: every other test signs in by cookie). */
export const postLogin = (email: string, password: string, cookie = "") =>
  postForm("/admin/login", { email, password }, { cookie });

/** The button of `root` whose text (its screen-reader-only part included) starts with `label`. */
export function buttonLabelled(root: Document | Element, label: string): Element | undefined {
  return [...root.querySelectorAll("button")].find((button) => textOf(button).startsWith(label));
}

/** The value a field holds as the server rendered it (a checked box or radio without one: "on"). */
function renderedValue(field: Element): string {
  if (field.tagName === "TEXTAREA") return field.textContent ?? "";
  if (field.tagName === "SELECT") {
    const chosen = field.querySelector("option[selected]") ?? field.querySelector("option");
    return chosen?.getAttribute("value") ?? "";
  }
  const type = field.getAttribute("type") ?? "text";
  return field.getAttribute("value") ?? (type === "checkbox" || type === "radio" ? "on" : "");
}

/**
 * Presses `submitter` in a server-rendered page at `path`, as a browser without JavaScript would: its form's
 * fields with the values the server wrote (hidden ones, checked boxes, chosen options) and the button's own
 * name and value, posted to the form's action (the page itself when it has none), or, for a GET form, asked
 * as that address's query.
 */
export function pressButton(
  path: string,
  submitter: Element | undefined,
  options: { cookie?: string } = {},
): Promise<FetchedPage> {
  const form = submitter?.closest("form");
  if (!submitter || !form) throw new Error(`Aucun bouton de formulaire à presser sur ${path}`);
  const fields = new URLSearchParams();
  for (const field of form.querySelectorAll("input, select, textarea")) {
    const name = field.getAttribute("name");
    const type = field.getAttribute("type") ?? "text";
    if (!name || ["submit", "button", "file"].includes(type)) continue;
    if ((type === "checkbox" || type === "radio") && !field.hasAttribute("checked")) continue;
    fields.append(name, renderedValue(field));
  }
  const name = submitter.getAttribute("name");
  if (name) fields.append(name, submitter.getAttribute("value") ?? "");
  const action = form.getAttribute("action") || path;
  if ((form.getAttribute("method") ?? "get").toLowerCase() === "post") {
    return postForm(action, fields, options);
  }
  return fetchPage(`${action.split("?")[0]}?${fields}`, options);
}
