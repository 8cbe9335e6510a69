import path from "node:path";
import { importCycles } from "./import-graph";

/*
 * The directions imports may take between the layers of app/ (docs/architecture.md, « Layers »): a rule
 * names the files it concerns on each side; an import from the first to the second breaks it. Type-only
 * imports count: a layer that knows another's types depends on it as much as one that calls it.
 */

export type LayerRule = {
  name: string;
  /** Whether a file (its path under app/, with forward slashes) is on the side that must not import… */
  from: (file: string) => boolean;
  /** …a file on this side. */
  to: (file: string) => boolean;
};

const under = (...folders: string[]) => {
  return (file: string) => folders.some((folder) => file.startsWith(folder));
};

/** Infrastructure: knows no feature; features and boot/ use it. */
const INFRASTRUCTURE = under(
  "server/db/",
  "server/storage/",
  "server/jobs/",
  "server/mail/outbox.server",
  "server/mail/transport.server",
  "server/mail/layout.server",
  "server/auth/",
);

/** Feature folders of app/server, and boot/, which composes them. */
const FEATURES = under(
  "server/accounting/",
  "server/admin/",
  "server/backup/",
  "server/blog/",
  "server/booking/",
  "server/boot/",
  "server/contact/",
  "server/content/",
  "server/galleries/",
  "server/invoices/",
  "server/newsletter/",
  "server/payments/",
  "server/uploads/",
  "server/vouchers/",
);

/**
 * A route's view (its `.tsx`, and the root's): what the browser runs. Its loader, action and headers live
 * in the route-local `.server.ts` it re-exports them from (decision 0157), the one import of a server
 * module a view may hold, since the build strips it from the browser's bundle.
 */
const ROUTE_VIEWS = (file: string) =>
  (file.startsWith("routes/") && file.endsWith(".tsx")) || file === "root.tsx";

export const LAYER_RULES: LayerRule[] = [
  { name: "server ↛ components", from: under("server/"), to: under("components/") },
  { name: "components ↛ routes", from: under("components/"), to: under("routes/") },
  { name: "lib ↛ server", from: under("lib/"), to: under("server/") },
  { name: "infrastructure ↛ features", from: INFRASTRUCTURE, to: FEATURES },
  { name: "route views ↛ server", from: ROUTE_VIEWS, to: under("server/") },
];

/** Each import of `graph` that breaks a rule: « from → to (rule) », paths under `appRoot`. */
export function layerViolations(
  graph: Map<string, string[]>,
  appRoot: string,
  rules: LayerRule[] = LAYER_RULES,
): string[] {
  const relative = (file: string) => path.relative(appRoot, file).split(path.sep).join("/");
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = relative(file);
    for (const target of targets) {
      const to = relative(target);
      for (const rule of rules) {
        if (rule.from(from) && rule.to(to)) violations.push(`${from} → ${to} (${rule.name})`);
      }
    }
  }
  return violations.sort();
}

/** The first folder (or file) under `root` that holds `file`, or undefined outside `root`. */
function unitOf(file: string, root: string): string | undefined {
  const relative = path.relative(root, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0];
}

/**
 * The imports between the folders of `root` that close a cycle of folders: « a → b » when b's folder also
 * reaches a's. Each is an import running back up the layers: one of its folders should not know the other.
 */
export function folderCycleImports(graph: Map<string, string[]>, root: string): string[] {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = unitOf(file, root);
    if (from === undefined) continue;
    const reached = folders.get(from) ?? new Set<string>();
    folders.set(from, reached);
    for (const target of targets) {
      const to = unitOf(target, root);
      if (to !== undefined && to !== from) reached.add(to);
    }
  }
  const folderGraph = new Map([...folders].map(([folder, reached]) => [folder, [...reached]]));
  const edges: string[] = [];
  for (const cycle of importCycles(folderGraph)) {
    const members = new Set(cycle);
    for (const from of cycle) {
      for (const to of folderGraph.get(from) ?? [])
        if (members.has(to)) edges.push(`${from} → ${to}`);
    }
  }
  return edges.sort();
}
