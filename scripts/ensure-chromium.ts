// Browser tests drive the system's Chromium: its headless shell for most files, the full browser for the
// fonts (decision 0120). On a fresh Debian-like machine where we run as root, install what is missing with
// apt; otherwise say the one command to run.
import { existsSync } from "node:fs";
import { aptInstall } from "./lib/apt.ts";
import { chromiumPath, headlessShellPath } from "./lib/chromium.ts";

const browsers = [
  { path: chromiumPath(), variable: "CHROME_PATH", debianPackage: "chromium" },
  {
    path: headlessShellPath(),
    variable: "CHROME_HEADLESS_SHELL_PATH",
    debianPackage: "chromium-headless-shell",
  },
];
const missing = browsers.filter((browser) => !existsSync(browser.path));
const named = missing.find((browser) => process.env[browser.variable]);
if (named) {
  console.error(`✖ ${named.variable}=${process.env[named.variable]} n'existe pas.`);
  process.exit(1);
}
if (missing.length > 0) {
  const packages = missing.map((browser) => browser.debianPackage);
  const outcome = aptInstall(packages, console.log);
  if (outcome === "cannot") {
    console.error(
      "✖ Chromium est introuvable pour les tests dans le navigateur. Installez-le :\n" +
        `    sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}\n` +
        "  ou indiquez son chemin dans CHROME_PATH.",
    );
    process.exit(1);
  }
  if (outcome === "failed" || missing.some((browser) => !existsSync(browser.path))) {
    console.error("✖ L'installation de Chromium a échoué.");
    process.exit(1);
  }
}
