import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { imagetools } from "vite-imagetools";

export default defineConfig({
  build: { assetsInlineLimit: 0 },
  environments: {
    // The production server is our own Express app (app/server/http/app.server.ts), bundled with the
    // React Router build so that the whole server ships as one module.
    ssr: {
      build: { rollupOptions: { input: "./app/server/http/app.server.ts" } },
      // Bundled rather than imported whole at start-up: the server then holds only the icons and Radix
      // primitives the pages use, not all 1,600 icons and 50 primitives (decision record 0092).
      resolve: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
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
                  // pages that use them.
                  name: "site",
                  test: /app[\\/](components[\\/](layout|ui[\\/](?!field|icon))|lib[\\/](utils|seo|public-site)|content[\\/]navigation)|node_modules[\\/](clsx|class-variance-authority)[\\/]|lucide-react[\\/]dist[\\/]esm[\\/](Icon|createLucideIcon|defaultAttributes|context|shared)/,
                  priority: 10,
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
    imagetools({
      // `import photo from "~/assets/photos/x.jpg?photo"` gives AVIF, WebP and JPEG at several widths
      // (`?photo=hero` adds a 2400 px width for full-screen photos). Metadata (EXIF, GPS) is dropped.
      removeMetadata: true,
      defaultDirectives: (url) => {
        const kind = url.searchParams.get("photo");
        if (kind === null) return new URLSearchParams();
        return new URLSearchParams({
          w: kind === "hero" ? "640;960;1280;1920;2400" : "400;640;960;1280",
          format: "avif;webp;jpg",
          quality: "62",
          as: "picture",
        });
      },
    }),
    tailwindcss(),
    reactRouter(),
  ],
});
