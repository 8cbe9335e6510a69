import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import { minifiedInlineScripts } from "./scripts/lib/minified-inline-scripts.ts";
import { photoEncoder } from "./scripts/lib/photo-cache.ts";

/**
 * lucide-react's icons make their components with our smaller runtime (app/components/ui/lucide-icon.ts),
 * on the server and in the browser alike, so the markup is the same on both sides. Decision 0094.
 */
function smallIconRuntime(): Plugin {
  const runtime = path.resolve(import.meta.dirname, "app/components/ui/lucide-icon.ts");
  return {
    name: "small-icon-runtime",
    enforce: "pre",
    resolveId(source, importer) {
      if (source.endsWith("/createLucideIcon.mjs") && importer?.includes("lucide-react"))
        return runtime;
      return null;
    },
  };
}

/**
 * Server entries that keep a name their users can find beside the built server: the photo worker
 * (build/server/photo-worker.js, where images/pool.server.ts looks for it, decision 0102) and the app's modules
 * of the command-line scripts (build/server/command-line.js, scripts/lib/app-loader.ts, decision 0135). React
 * Router names every server entry after its own file (index.js, then index2.js…), and Rolldown does not let a
 * plugin rename a chunk, so the written file is renamed. Nothing imports these entries' files.
 */
function namedServerEntries(names: string[]): Plugin {
  return {
    name: "named-server-entries",
    applyToEnvironment: (environment) => environment.name === "ssr",
    async writeBundle(options, bundle) {
      const directory = options.dir ?? path.dirname(options.file ?? "");
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk" || !output.isEntry || !names.includes(output.name)) continue;
        // Same folder, so its relative imports of shared chunks still resolve.
        await rename(
          path.join(directory, output.fileName),
          path.join(directory, `${output.name}.js`),
        );
      }
    },
  };
}

const compressWithBrotli = promisify(brotliCompress);

/**
 * Writes `x.js.br` beside every script and stylesheet of the browser build, at brotli's highest quality,
 * which is too slow to run per request (the server compresses on the fly at quality 4): the framework file
 * goes from 106 to 91 KB on the wire. The server sends these files to browsers that accept brotli
 * (app/server/http/precompressed-assets.server.ts). Decision 0094.
 */
function precompressedAssets(): Plugin {
  return {
    name: "precompressed-assets",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const directory = options.dir ?? path.dirname(options.file ?? "");
      await Promise.all(
        Object.values(bundle)
          .filter((output) => /\.(js|css)$/.test(output.fileName))
          .map(async (output) => {
            const source = output.type === "chunk" ? output.code : output.source;
            const compressed = await compressWithBrotli(Buffer.from(source), {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            });
            await writeFile(path.join(directory, `${output.fileName}.br`), compressed);
          }),
      );
    },
  };
}

export default defineConfig({
  build: { assetsInlineLimit: 0 },
  environments: {
    // The production server is our own Express app (app/server/http/app.server.ts), bundled with the
    // React Router build so that the whole server ships as one module.
    ssr: {
      // Second entry: the worker thread that prepares gallery photos (decision 0102), built beside the server
      // as build/server/photo-worker.js, where images/pool.server.ts looks for it. Third: the app's modules
      // that the command-line scripts load (build/server/command-line.js, decision 0135), each on demand.
      build: {
        rollupOptions: {
          input: {
            index: "./app/server/http/app.server.ts",
            "photo-worker": "./app/server/images/worker.ts",
            "command-line": "./scripts/lib/app-modules.ts",
          },
        },
      },
      // Bundled rather than imported whole at start-up: the server then holds only the icons and Radix
      // primitives the pages use, not all 1,600 icons and 50 primitives (decision record 0092), and its
      // icons render through the same runtime as in the browser (smallIconRuntime, decision 0094).
      // drizzle-orm too (decision 0190): Node resolves each of its hundreds of files against its 180 KB
      // package.json, parsed again for every one; imported by the process it took about 1 s of CPU at
      // every start of a server, a script or a test's server, bundled it takes a few milliseconds.
      resolve: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//, "drizzle-orm"] },
    },
    client: {
      build: {
        rollupOptions: {
          output: {
            // React Router's own naming for client assets.
            entryFileNames: "assets/[name]-[hash].js",
            // What every page needs travels in two files instead of a dozen small ones: on a slow mobile
            // link each extra request before first paint costs a round trip.
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)[\\/]/,
                  priority: 20,
                },
                {
                  // Form fields (components/ui/field) and the cards' icons (components/ui/icon) travel with the
                  // pages that use them; the icons' runtime (components/ui/lucide-icon) is here.
                  name: "site",
                  test: /app[\\/](components[\\/](layout|ui[\\/](?!field|icon))|lib[\\/](utils|seo|public-site)|content[\\/]navigation)|node_modules[\\/](clsx|class-variance-authority)[\\/]/,
                  priority: 10,
                },
                // The form fields and the contact form in one file each rather than two or three small ones
                // (decision 0094); the schemas the forms import on submit stay apart.
                {
                  name: "forms",
                  test: /app[\\/](components[\\/]ui[\\/]field|lib[\\/]forms)\.tsx?$/,
                  priority: 6,
                },
                {
                  name: "contact-form",
                  test: /app[\\/]components[\\/]contact[\\/](contact-form|contact-outcome)\.tsx?$/,
                  priority: 5,
                },
              ],
            },
          },
        },
      },
    },
  },
  resolve: { tsconfigPaths: true },
  plugins: [
    // The demo photos' variants (AVIF, WebP, JPEG at several widths), read back from the repository's
    // photo-cache when encoded there before (decision 0165).
    photoEncoder(),
    smallIconRuntime(),
    tailwindcss(),
    reactRouter(),
    minifiedInlineScripts(),
    precompressedAssets(),
    namedServerEntries(["photo-worker", "command-line"]),
  ],
});
