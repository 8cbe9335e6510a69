import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build*/", ".react-router/", "data/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.strict.rules,
    },
  },
  {
    // The photo worker's files run in a worker thread that Node loads as they are in development and tests
    // (decision 0102): no `~/` alias there, relative imports with their `.ts` extension.
    files: ["app/server/images/*.ts"],
    ignores: ["app/server/images/*.server.ts", "app/server/images/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/*"],
              message: "Relative import: the photo worker runs unbundled.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Command-line scripts talk to the person running them.
    files: ["scripts/**", "server.ts", "tests/**"],
    rules: { "no-console": "off" },
  },
);
