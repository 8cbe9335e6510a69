import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// Decision record 0092: the modules only the admin's sign-in, uploads, e-mails and editor need are loaded
// when first used, so a process that serves public pages never holds them. The production server runs with
// a module hook that writes down every module it loads, serves public pages, and stops.

/** Packages a process serving only public pages must not load from node_modules. */
const ADMIN_ONLY = [
  "better-auth",
  "@better-auth",
  "kysely",
  "sharp",
  "@img",
  "qrcode",
  "nodemailer",
  "@tiptap",
  "prosemirror-model",
  "prosemirror-view",
  // The S3 client (decision 0100): loaded by the first use of an S3 store, never on local disk.
  "@aws-sdk",
  "@smithy",
  // Gallery photos are prepared in worker threads made on the first photo (decision 0102).
  "piscina",
  "thumbhash",
  "heic-decode",
  "libheif-js",
  // The PDFs' libraries load where a PDF is made (decision 0190).
  "pdf-lib",
  "@pdf-lib",
  // Bundled into the build (decision 0190): its package's own files are never resolved at start.
  "drizzle-orm",
];

const HOOK = `import { registerHooks } from "node:module";
import { writeFileSync } from "node:fs";
const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on("exit", () => writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify([...loaded])));
`;

let directory: string;
let server: ServerProcess | undefined;
let loaded: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "studio-modules-"));
  const hook = path.join(directory, "record-modules.mjs");
  const output = path.join(directory, "loaded.json");
  await writeFile(hook, HOOK);
  server = await startServerProcess(inject("adminDatabaseUrl"), {
    NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`,
    LOADED_MODULES_FILE: output,
  });
  for (const page of ["/", "/tarifs", "/contact-studio-brive", "/blog", "/sitemap.xml"]) {
    const response = await fetch(`${server.baseUrl}${page}`);
    await response.arrayBuffer();
    expect(response.status, page).toBe(200);
  }
  await server.stop();
  server = undefined;
  loaded = JSON.parse(await readFile(output, "utf8")) as string[];
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await rm(directory, { recursive: true, force: true });
});

const packageOf = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];

describe("a server that has only served public pages", () => {
  it("has loaded the modules that render them", () => {
    const packages = new Set(loaded.map(packageOf));
    expect(packages).toContain("react-dom");
    expect(packages).toContain("pg");
  });

  it("has not loaded the admin's sign-in, uploads, e-mail or editor libraries", () => {
    const unexpected = loaded.filter((url) => {
      const name = packageOf(url);
      return (
        name !== undefined &&
        ADMIN_ONLY.some((heavy) => name === heavy || name.startsWith(`${heavy}/`))
      );
    });
    expect(unexpected).toEqual([]);
  });
});
