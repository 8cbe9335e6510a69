import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { Documents, Prices } from "../../app/content/schemas";
import { contactMessages, siteDocuments } from "../../app/server/db/schema";
import { pressButton } from "./admin-forms";
import { fetchPage, textOf, type FetchedPage } from "./html";
import { serverDatabase } from "./server-under-test";

/*
 * The admin's content forms without a browser (articles, prices, the site, studios, media): typing into
 * the server-rendered form before pressing one of its buttons (`pressButton`, admin-forms.ts), and reading
 * what the answer shows (the value a field holds, where a message stands).
 */

/**
 * A textarea's text as a browser reads it: linkedom leaves its character references as the server wrote
 * them (`l&#x27;été`), where a browser decodes them.
 */
function textareaText(textarea: Element): string {
  const holder = textarea.ownerDocument.createElement("div");
  holder.innerHTML = textarea.textContent ?? "";
  return holder.textContent ?? "";
}

/**
 * A form of a server-rendered page: the first one `selector` matches, its textareas holding the text a
 * browser would post (`pressButton` posts what they hold).
 */
export function formOf(page: FetchedPage, selector = "main form"): Element {
  const form = page.document.querySelector(selector);
  if (!form) throw new Error(`Aucun formulaire « ${selector} » dans la page`);
  for (const textarea of form.querySelectorAll("textarea")) {
    textarea.textContent = textareaText(textarea);
  }
  return form;
}

/**
 * Types `changes` into the server-rendered `form`, by field name, as a person would before pressing a
 * button: a text's value, a box ticked (`true`) or not (`false`), a list's chosen option.
 */
export function typeInto(form: Element, changes: Record<string, string | boolean>): Element {
  for (const [name, value] of Object.entries(changes)) {
    const control = form.querySelector(`[name="${name}"]`);
    if (!control) throw new Error(`Aucun champ « ${name} » dans le formulaire`);
    if (typeof value === "boolean") {
      if (value) control.setAttribute("checked", "");
      else control.removeAttribute("checked");
    } else if (control.tagName === "TEXTAREA") {
      control.textContent = value;
    } else if (control.tagName === "SELECT") {
      for (const option of control.querySelectorAll("option")) {
        if (option.getAttribute("value") === value) option.setAttribute("selected", "");
        else option.removeAttribute("selected");
      }
    } else {
      control.setAttribute("value", value);
    }
  }
  return form;
}

/** The submit button of `form` that posts `intent` (`name="intent"`). */
export function intentButton(form: Element, intent: string): Element {
  const button = form.querySelector(`button[name="intent"][value="${intent}"]`);
  if (!button) throw new Error(`Aucun bouton « ${intent} » dans le formulaire`);
  return button;
}

/** The control a `<label>` of `root` names, by the label's exact text (its required mark left aside). */
export function labelled(root: Element | Document, label: string): Element {
  const element = [...root.querySelectorAll("label")].find(
    (each) => textOf(each).replace(/ \*$/, "") === label,
  );
  const id = element?.getAttribute("for");
  const control = id ? root.querySelector(`[id="${id}"]`) : element?.querySelector("input");
  if (!control) throw new Error(`Aucun champ nommé « ${label} »`);
  return control;
}

/** The value a control shows as the server rendered it (a textarea's text, a select's chosen option). */
export function shownValue(control: Element): string {
  if (control.tagName === "TEXTAREA") return textareaText(control);
  if (control.tagName === "SELECT") {
    const chosen = control.querySelector("option[selected]") ?? control.querySelector("option");
    return chosen?.getAttribute("value") ?? "";
  }
  return control.getAttribute("value") ?? "";
}

/**
 * The innermost elements of `root` whose whole text is `text`, or matches it (what a browser test's
 * `getByText(text, { exact: true })` finds).
 */
export function elementsWithText(root: Element | Document, text: string | RegExp): Element[] {
  const matches = (element: Element) =>
    typeof text === "string" ? textOf(element) === text : text.test(textOf(element));
  return [...root.querySelectorAll("*")].filter(
    (element) => matches(element) && ![...element.children].some(matches),
  );
}

/** The dashboard's list item of the article titled `title`. */
export function articleRow(dashboard: FetchedPage, title: string): Element | undefined {
  return [...dashboard.document.querySelectorAll("li")].find(
    (item) => textOf(item.querySelector("h3")) === title,
  );
}

/** The links of `root` whose text (its screen-reader-only part included) matches `name`. */
export function linksNamed(root: Element | Document | undefined, name: RegExp): Element[] {
  return [...(root?.querySelectorAll("a") ?? [])].filter((link) => name.test(textOf(link)));
}

/**
 * A row's confirmed action (delete, restore an earlier version) as a browser without JavaScript does it:
 * the row's button (a GET form) reloads the page with the site's dialog open (`asked`, `dialog`), whose
 * own button `confirm()` posts the action.
 */
export async function askWithoutScript(rowButton: Element | undefined, cookie: string) {
  const ask = rowButton?.closest("form");
  if (!ask || (ask.getAttribute("method") ?? "get").toLowerCase() !== "get") {
    throw new Error("Ce bouton n'ouvre pas de confirmation");
  }
  const query = new URLSearchParams(
    [...ask.querySelectorAll("input[type=hidden]")].map((input) => [
      input.getAttribute("name") ?? "",
      input.getAttribute("value") ?? "",
    ]),
  );
  const path = ask.getAttribute("action") ?? "";
  const asked = await fetchPage(`${path}?${query}`, { cookie });
  const dialog = asked.document.querySelector('[role="alertdialog"]');
  const button = dialog?.querySelector("form button[type=submit]") ?? undefined;
  return { asked, dialog, confirm: () => pressButton(path, button, { cookie }) };
}

/** The fieldset of `root` whose legend is `legend` (a card, a session, a testimonial…). */
export function fieldsetNamed(root: Element | Document | null | undefined, legend: string) {
  const fieldset = [...(root?.querySelectorAll("fieldset") ?? [])].find(
    (each) => textOf(each.querySelector("legend")) === legend,
  );
  if (!fieldset) throw new Error(`Aucun groupe « ${legend} »`);
  return fieldset;
}

/** The section of `page` named `name` (by its `aria-label` or the heading it is labelled by). */
export function regionNamed(page: FetchedPage, name: string): Element {
  const region = [...page.document.querySelectorAll("section")].find(
    (section) =>
      section.getAttribute("aria-label") === name ||
      textOf(page.document.getElementById(section.getAttribute("aria-labelledby") ?? "")) === name,
  );
  if (!region) throw new Error(`Aucune section « ${name} »`);
  return region;
}

/** A document of the site (prices, identity…) as stored now. */
export async function storedDocument<K extends keyof Documents>(key: K): Promise<Documents[K]> {
  const [row] = await serverDatabase()
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, key));
  return row?.data as Documents[K];
}

/**
 * Keeps the documents `keys` as they were before the file's tests and writes them back afterwards: the
 * pages other tests read stay as they expect. Returns the value each had.
 */
export function useDocumentsRestored<K extends keyof Documents>(keys: readonly K[]) {
  const original: Partial<{ [Key in K]: Documents[Key] }> = {};
  beforeAll(async () => {
    for (const key of keys) original[key] = await storedDocument(key);
  });
  afterAll(async () => {
    for (const key of keys) {
      await serverDatabase()
        .update(siteDocuments)
        .set({ data: original[key] })
        .where(eq(siteDocuments.key, key));
    }
  });
  return <Key extends K>(key: Key): Documents[Key] => {
    const value = original[key];
    if (value === undefined) throw new Error(`${key}: used before its beforeAll ran`);
    return value as Documents[Key];
  };
}

/** The price of the « Séance Naissance » card (the demo's 99 €), as stored. */
export const naissancePrice = (prices: Prices) =>
  prices.tabs[0]?.cards.find((card) => card.title === "Séance Naissance")?.price;

/** Spaces of any kind as one plain space (the site writes prices with narrow no-break spaces). */
export const plainSpaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();

/**
 * Two contact messages from Brive, a minute apart, by `older` then `newer` (first names; the family name is
 * `family`), each e-mail and message carrying `marker`: what the messages page lists, newest first.
 */
export async function insertTwoContactMessages(
  marker: string,
  { older, newer, family }: { older: string; newer: string; family: string },
) {
  const base = {
    studio: "brive",
    shootingType: "naissance",
    nom: family,
    telephone: "05 36 49 00 00",
    source: "instagram",
  };
  const emailOf = (name: string) =>
    `${name
      .normalize("NFD")
      .replace(/[^a-z]/gi, "")
      .toLowerCase()}-${marker}@example.com`;
  await serverDatabase()
    .insert(contactMessages)
    .values([
      {
        ...base,
        prenom: older,
        email: emailOf(older),
        message: `Premier message ${marker}`,
        createdAt: new Date(Date.now() - 60_000),
      },
      { ...base, prenom: newer, email: emailOf(newer), message: `Second message ${marker}` },
    ]);
  return { olderEmail: emailOf(older), newerEmail: emailOf(newer) };
}
