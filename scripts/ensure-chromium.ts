// Browser tests drive the system Chromium: CHROME_PATH, else /usr/bin/chromium. On a fresh Debian-like
// machine where we run as root, install it with apt; otherwise say the one command to run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromiumPath } from "./lib/chromium.ts";

const candidate = chromiumPath();
if (!existsSync(candidate)) {
  if (process.env.CHROME_PATH) {
    console.error(`✖ CHROME_PATH=${process.env.CHROME_PATH} n'existe pas.`);
    process.exit(1);
  }
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  const isRoot = process.getuid?.() === 0;
  if (!hasApt || !isRoot) {
    console.error(
      "✖ Chromium est introuvable pour les tests dans le navigateur. Installez-le :\n" +
        "    sudo apt-get update && sudo apt-get install -y chromium\n" +
        "  ou indiquez son chemin dans CHROME_PATH.",
    );
    process.exit(1);
  }
  console.log("Installation de Chromium (apt-get)…");
  const install = spawnSync(
    "sh",
    ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"],
    { stdio: "inherit" },
  );
  if (install.status !== 0 || !existsSync(candidate)) {
    console.error("✖ L'installation de Chromium a échoué.");
    process.exit(1);
  }
}
