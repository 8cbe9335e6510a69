// Debian packages a command needs (Chromium for the browser tests, nginx and wrk for the benchmark),
// installed with apt when we may: root on a machine that has apt-get.
import { spawnSync } from "node:child_process";

/** « installed », « cannot » (no apt-get, or not root: the person must run it), or « failed ». */
export type AptOutcome = "installed" | "cannot" | "failed";

export function aptInstall(packages: string[], log: (message: string) => void): AptOutcome {
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!hasApt || process.getuid?.() !== 0) return "cannot";
  log(`Installation de ${packages.join(", ")} (apt-get)…`);
  const install = spawnSync(
    "sh",
    [
      "-c",
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(" ")}`,
    ],
    { stdio: "inherit" },
  );
  return install.status === 0 ? "installed" : "failed";
}
