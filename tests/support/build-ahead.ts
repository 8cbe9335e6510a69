// `npm test`'s step after the static checks (decision 0159): starts the production build in the
// background, at a low CPU priority, while the unit and integration projects run (they leave part of the
// two cores idle while they wait on PostgreSQL and mail servers). Nice 10 gives it about a tenth of a core
// where a test process wants it too; not the lowest, so that on a machine busy with other work it still
// moves on while the http set-up waits for it. That set-up then finds the build made, or waits for it on
// the build's lock (`ensureBuilt`, scripts/lib/build.ts) instead of starting one. On a fresh clone this
// build reads the encoded photos from photo-cache/ (decision 0165): about 15 s of CPU, 170 s when it had to
// encode them. After the checks, not beside them: they keep two cores busy, and they read the route types
// the build could be writing.
//
// The build child stays in the terminal's process group (Ctrl-C ends it with the tests) and writes nothing:
// if it fails, the http set-up builds again in the foreground and shows the error.
import { spawn } from "node:child_process";
import os from "node:os";
import { buildIsCurrent, ensureBuilt } from "../../scripts/lib/build.ts";

if (process.argv.includes("--child")) {
  await ensureBuilt();
} else if (!buildIsCurrent()) {
  const child = spawn(process.execPath, [import.meta.filename, "--child"], {
    stdio: "ignore",
  });
  if (child.pid !== undefined) {
    try {
      // The tests first: the build takes mostly the CPU they leave.
      os.setPriority(child.pid, 10);
    } catch {
      // a system that refuses: the build runs at normal priority
    }
  }
  child.unref();
}
