import { PHOTO_SLOTS, STYLE_GALLERIES, type OpeningRange } from "~/content/schemas";
import { DAY_LABELS, formatDayHours } from "./hours-input";
import { formatPrice, type Price } from "./prices";

/**
 * What changed between two versions of a document, a studio or an article, in the owner's words (decision
 * 0114): « Tarifs › « Particuliers » › « Portrait » › Prix : 120 € → 150 € ». The history shows it for each
 * save, and before a restore it says what bringing a version back would change.
 */

export type Change = {
  /** Where, from the outside in: « Horaires › Lundi ». */
  label: string;
  kind: "changed" | "added" | "removed" | "reordered";
  /** The value before, as the owner reads it (empty for an addition or a new order). */
  before: string;
  /** The value after (empty for a removal or a new order). */
  after: string;
};

export type RevisionItem = {
  id: string;
  authorName: string;
  /** ISO date-time of the save. */
  createdAt: string;
  summary: string;
  /** What this save changed from the one before, in one line (empty for the first version). */
  changed: string;
};

export type ViewedRevision = {
  id: string;
  /** From what is in use now to this version: what a restore would change. */
  changes: Change[];
  /** The public pages (or the article's preview) showing this version, for an administrator. */
  previews: PreviewLink[];
};

export type PreviewLink = { label: string; href: string };

export type RevisionHistoryData = {
  revisions: RevisionItem[];
  viewed: ViewedRevision | null;
  /** What is in use now differs from the last version (a draft changed by its autosave since). */
  changedSince: boolean;
};

/**
 * What the owner calls what an id names (a photo: « photo « Mariés au lac » », a category: « Mariages »):
 * a change of photo names the photos, not their ids.
 */
export type IdNames = ReadonlyMap<string, string>;

/** The name of every field the owner edits, as her forms call it. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  // Identity (beside its form's fields, named by its table: IDENTITY_HISTORY_LABELS) and legal details
  label: "Libellé",
  email: "E-mail",
  phone: "Téléphone",
  social: "Réseaux sociaux",
  shareImage: "Image de partage",
  companyName: "Raison sociale",
  legalForm: "Forme juridique",
  address: "Adresse",
  rcs: "Immatriculation",
  siret: "SIRET",
  vatNumber: "Numéro de TVA",
  vatRegime: "TVA",
  mediator: "Médiateur de la consommation",
  publicationDirector: "Directeur de la publication",
  host: "Hébergeur",
  name: "Nom",
  website: "Site web",
  // Prices, gendarmerie, gift sessions, testimonials
  tabs: "Onglets",
  id: "Identifiant",
  cards: "Cartes",
  title: "Titre",
  price: "Prix",
  icon: "Icône",
  badge: "Badge",
  features: "Points inclus",
  link: "Lien",
  sessionType: "Séance réservable en ligne",
  offer: "Offre",
  validFrom: "Valable à partir du",
  validUntil: "Valable jusqu'au",
  services: "Prestations",
  description: "Description",
  photo: "Photo",
  youtubeId: "Vidéo YouTube",
  videoTitle: "Titre de la vidéo",
  packages: "Formules",
  subtitle: "Sous-titre",
  discountPrice: "Prix remisé",
  originalPrice: "Prix d'origine",
  highlighted: "Mise en avant",
  selfieBooth: "Borne selfie",
  unit: "Unité",
  studioSlug: "Studio",
  sessions: "Séances",
  quote: "Témoignage",
  author: "Auteur",
  location: "Lieu",
  gendarmerie: "Gendarmerie",
  portraitFamille: "Portrait & Famille",
  grossesse: "Grossesse",
  // Photos of the pages and the gallery
  slots: "Photos des pages",
  galleries: "Galeries",
  items: "Photos",
  category: "Catégorie",
  // What a studio keeps beside its form's fields (their labels are its form's: STUDIO_HISTORY_LABELS)
  hours: "Horaires",
  opens: "Ouverture",
  closes: "Fermeture",
  note: "Précision",
  closures: "Fermetures exceptionnelles",
  from: "Du",
  to: "Au",
  geo: "Position sur la carte",
  contactForm: "Formulaire de contact",
  value: "Valeur",
  slug: "Adresse de la page",
  // Articles
  excerpt: "Extrait",
  content: "Contenu",
  categoryId: "Catégorie",
  coverImageUrl: "Image de couverture",
  coverFocalX: "Cadrage de la couverture (horizontal)",
  coverFocalY: "Cadrage de la couverture (vertical)",
  seoImageUrl: "Image pour les réseaux sociaux",
  seoTitle: "Titre pour les moteurs de recherche",
  seoDescription: "Description pour les moteurs de recherche",
};

/** Keys whose names depend on the object holding them (a day, a photo slot, a gallery of a page). */
const LABELS_UNDER: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  hours: DAY_LABELS,
  slots: PHOTO_SLOTS,
  galleries: STYLE_GALLERIES,
};

/**
 * What a record's own form calls its stored fields (its field table's `historyLabels`), by key or by
 * `parent.key`; they come before the names every form shares.
 */
export type HistoryLabels = Readonly<Record<string, string>>;

/** The owner's name of `key` under `parent` (the key itself when no form names it). */
export function fieldLabel(key: string, parent?: string, labels: HistoryLabels = {}): string {
  return (
    (parent ? (labels[`${parent}.${key}`] ?? LABELS_UNDER[parent]?.[key]) : undefined) ??
    labels[key] ??
    FIELD_LABELS[key] ??
    key
  );
}

type Json = unknown;
type Plain = Record<string, Json>;

const isPlain = (value: Json): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  if (isPlain(a) && isPlain(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
    return true;
  }
  return false;
}

const isPrice = (value: Json): value is Price =>
  isPlain(value) && (value.kind === "fixed" || value.kind === "from" || value.kind === "quote");
const isOpeningRange = (value: Json): value is OpeningRange =>
  isPlain(value) && typeof value.opens === "string" && typeof value.closes === "string";

/** A value shown whole rather than field by field: a price, a day's hours, a list of short texts. */
function isLeaf(value: Json): boolean {
  if (!Array.isArray(value)) return !isPlain(value) || isPrice(value);
  return (
    value.every((item) => !isPlain(item) && !Array.isArray(item)) || value.every(isOpeningRange)
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isId = (value: string) => UUID.test(value);
const EMPTY = "(vide)";
/** Longer texts are shown around what changed, with this many characters of context each side. */
const CONTEXT = 40;
const LONG_TEXT = 160;

/** The visible text of an article's HTML. */
function textOfHtml(html: string): string {
  return html
    .replace(/<(?:br|\/p|\/h\d|\/li|\/blockquote)[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** A value as the owner reads it. */
function show(value: Json, names: IdNames): string {
  if (value === null || value === undefined || value === "") return EMPTY;
  if (typeof value === "boolean") return value ? "oui" : "non";
  if (typeof value === "number") return String(value).replace(".", ",");
  if (typeof value === "string") {
    if (UUID.test(value)) return names.get(value.toLowerCase()) ?? "(supprimé depuis)";
    return value;
  }
  if (isPrice(value)) return formatPrice(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return EMPTY;
    if (value.every(isOpeningRange)) return formatDayHours(value);
    return value.map((item) => show(item, names)).join(" · ");
  }
  const name = itemName(value);
  if (name) return name;
  return Object.values(value as Plain)
    .filter((item) => typeof item === "string" && item !== "")
    .map((item) => show(item, names))
    .join(" · ");
}

/** Two long texts cut to what differs, with a little context: « …avant la modification… ». */
function aroundDifference(before: string, after: string): [string, string] {
  if (before.length <= LONG_TEXT && after.length <= LONG_TEXT) return [before, after];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    start += 1;
  }
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) {
    end += 1;
  }
  const from = Math.max(0, start - CONTEXT);
  const cut = (text: string) => {
    const to = Math.min(text.length, text.length - end + CONTEXT);
    const middle = text.slice(from, to);
    const shown = middle.length > LONG_TEXT * 2 ? `${middle.slice(0, LONG_TEXT * 2)}…` : middle;
    return `${from > 0 ? "…" : ""}${shown}${to < text.length ? "…" : ""}`;
  };
  return [cut(before), cut(after)];
}

/** What an item of a list is called: its title, name or label (a quote's first words), if any. */
function itemName(item: Json): string | undefined {
  if (!isPlain(item)) return undefined;
  for (const key of ["title", "name", "label", "author", "quote"]) {
    const value = item[key];
    if (typeof value === "string" && value.trim() !== "") {
      const text = value.trim();
      return text.length > 60 ? `${text.slice(0, 60)}…` : text;
    }
  }
  return undefined;
}

function itemSegment(item: Json, index: number): string {
  const name = itemName(item);
  return name ? `« ${name} »` : `n° ${index + 1}`;
}

type Walk = { names: IdNames; html: ReadonlySet<string>; labels: HistoryLabels; out: Change[] };

function leafChange(before: Json, after: Json, path: string[], key: string, walk: Walk) {
  let shownBefore = show(before, walk.names);
  let shownAfter = show(after, walk.names);
  if (typeof before === "string" && typeof after === "string" && !isId(before) && !isId(after)) {
    const html = walk.html.has(key);
    [shownBefore, shownAfter] = aroundDifference(
      html ? textOfHtml(before) : before,
      html ? textOfHtml(after) : after,
    );
    if (shownBefore === shownAfter && html) shownAfter = `${shownAfter} (mise en forme modifiée)`;
    shownBefore ||= EMPTY;
    shownAfter ||= EMPTY;
  }
  walk.out.push({
    label: path.join(" › "),
    kind: "changed",
    before: shownBefore,
    after: shownAfter,
  });
}

/** Two items with at least half of their fields equal: one item edited, not one removed and one added. */
function similar(a: Json, b: Json): boolean {
  if (!isPlain(a) || !isPlain(b)) return false;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const equal = keys.filter((key) => deepEqual(a[key], b[key])).length;
  return keys.length > 0 && equal * 2 >= keys.length;
}

/**
 * Pairs the items of two lists: equal items wherever they are, then items of the same name, then items
 * alike in most fields (a renamed card). What is left is an addition or a removal.
 */
function pairItems(before: Json[], after: Json[]): Array<[number | null, number | null]> {
  const pairOf = new Map<number, number>();
  const taken = new Set<number>();
  const match = (test: (b: Json, a: Json) => boolean) => {
    after.forEach((item, j) => {
      if (pairOf.has(j)) return;
      const i = before.findIndex((candidate, at) => !taken.has(at) && test(candidate, item));
      if (i >= 0) {
        pairOf.set(j, i);
        taken.add(i);
      }
    });
  };
  match(deepEqual);
  match((b, a) => itemName(b) !== undefined && itemName(b) === itemName(a));
  match((b, a) => similar(b, a));
  const pairs: Array<[number | null, number | null]> = after.map((_, j) => [
    pairOf.get(j) ?? null,
    j,
  ]);
  before.forEach((_, i) => {
    if (!taken.has(i)) pairs.push([i, null]);
  });
  return pairs;
}

function compareLists(before: Json[], after: Json[], path: string[], walk: Walk) {
  const pairs = pairItems(before, after);
  const order = pairs.flatMap(([i, j]) => (i !== null && j !== null ? [i] : []));
  if (order.some((i, at) => at > 0 && i < (order[at - 1] ?? 0))) {
    walk.out.push({ label: path.join(" › "), kind: "reordered", before: "", after: "" });
  }
  for (const [i, j] of pairs) {
    if (i !== null && j !== null) {
      compareAt(before[i], after[j], [...path, itemSegment(after[j], j)], "", walk);
    } else if (j !== null) {
      walk.out.push({
        label: [...path, itemSegment(after[j], j)].join(" › "),
        kind: "added",
        before: "",
        after: show(after[j], walk.names),
      });
    } else if (i !== null) {
      walk.out.push({
        label: [...path, itemSegment(before[i], i)].join(" › "),
        kind: "removed",
        before: show(before[i], walk.names),
        after: "",
      });
    }
  }
}

function compareAt(before: Json, after: Json, path: string[], key: string, walk: Walk) {
  if (deepEqual(before, after)) return;
  if (Array.isArray(before) && Array.isArray(after) && !isLeaf(before) && !isLeaf(after)) {
    compareLists(before, after, path, walk);
    return;
  }
  if (isPlain(before) && isPlain(after) && !isLeaf(before) && !isLeaf(after)) {
    const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
    for (const child of keys) {
      compareAt(
        before[child],
        after[child],
        [...path, fieldLabel(child, key, walk.labels)],
        child,
        walk,
      );
    }
    return;
  }
  leafChange(before, after, path, key, walk);
}

/**
 * The changes from `before` to `after` (two values of the same schema), outermost fields first. `html`
 * names the fields holding HTML, compared by their visible text; `labels` what the record's form calls
 * its fields.
 */
export function describeChanges(
  before: unknown,
  after: unknown,
  {
    names = new Map(),
    html = [],
    labels = {},
  }: { names?: IdNames; html?: readonly string[]; labels?: HistoryLabels } = {},
): Change[] {
  const walk: Walk = { names, html: new Set(html), labels, out: [] };
  compareAt(before, after, [], "", walk);
  return walk.out;
}

/** « Horaires › Lundi, Téléphone et 2 autres changements »: a save in one line of the history. */
export function summariseChanges(changes: readonly Change[], shown = 3): string {
  const labels = [...new Set(changes.map((change) => change.label || "Tout"))];
  if (labels.length === 0) return "";
  const first = labels.slice(0, shown);
  const rest = labels.length - first.length;
  if (rest === 0) {
    return first.length === 1
      ? (first[0] ?? "")
      : `${first.slice(0, -1).join(", ")} et ${first.at(-1) ?? ""}`;
  }
  return `${first.join(", ")} et ${rest} ${rest > 1 ? "autres changements" : "autre changement"}`;
}
