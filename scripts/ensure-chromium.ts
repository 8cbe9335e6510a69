// Browser tests drive the system Chromium: CHROME_PATH, else /usr/bin/chromium. On a fresh Debian-like
// machine where we run as root, install it with apt; otherwise say the one command to run.
import { existsSync } from "node:fs";
import { aptInstall } from "./lib/apt.ts";
import { chromiumPath } from "./lib/chromium.ts";

const candidate = chromiumPath();
if (!existsSync(candidate)) {
  if (process.env.CHROME_PATH) {
    console.error(`✖ CHROME_PATH=${process.env.CHROME_PATH} n'existe pas.`);
    process.exit(1);
  }
  const outcome = aptInstall(["chromium"], console.log);
  if (outcome === "cannot") {
    console.error(
      "✖ Chromium est introuvable pour les tests dans le navigateur. Installez-le :\n" +
        "    sudo apt-get update && sudo apt-get install -y chromium\n" +
        "  ou indiquez son chemin dans CHROME_PATH.",
    );
    process.exit(1);
  }
  if (outcome === "failed" || !existsSync(candidate)) {
    console.error("✖ L'installation de Chromium a échoué.");
    process.exit(1);
  }
}
