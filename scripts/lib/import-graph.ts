import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/*
 * The runtime import graph of a source folder: which module loads which when it runs. `import type` and
 * `export type … from` are left out (TypeScript erases them), so are packages; `~/` is the app's alias.
 * Used by the test that keeps app/ free of import cycles.
 */

const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")
      ? [full]
      : [];
  });
}

/**
 * The module specifiers a file loads at run time: static imports, re-exports and `import()`; with
 * `types`, also what it imports for its types only (what it knows of, which is what the layers judge).
 */
export function runtimeImports(source: string, { types = false } = {}): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;'"]*?\bfrom\s+)?["']([^"']+)["']/gm;
  for (const match of source.matchAll(statement)) {
    const [, , typeOnly, clause, specifier] = match;
    if (!specifier) continue;
    if (types) {
      specifiers.push(specifier);
      continue;
    }
    if (typeOnly) continue;
    // `import { type A, type B } from` loads nothing either.
    const names = /\{([^}]*)\}/.exec(clause ?? "")?.[1];
    const onlyTypes =
      names !== undefined &&
      !/^\s*[\w$]+\s*,/.test(clause ?? "") &&
      names
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith("type "));
    if (onlyTypes) continue;
    specifiers.push(specifier);
  }
  // A module loaded on demand is still a dependency: a cycle through it is a cycle of the design.
  for (const match of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
    if (match[1]) specifiers.push(match[1]);
  }
  return specifiers;
}

function resolve(from: string, specifier: string, appRoot: string): string | undefined {
  const base = specifier.startsWith("~/")
    ? path.join(appRoot, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  const candidates = [
    base,
    ...EXTENSIONS.map((extension) => base.replace(/\.tsx?$/, "") + extension),
  ];
  return candidates.find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** Every module of `appRoot` and the modules of `appRoot` it loads (with `types`: or knows of). */
export function importGraph(appRoot: string, { types = false } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(appRoot)) {
    const targets = runtimeImports(readFileSync(file, "utf8"), { types })
      .map((specifier) => resolve(file, specifier, appRoot))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The graph's cycles: its strongly connected components of more than one module (Tarjan). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
