// Section 7: durability. Kill the Node server (or the embedded PostgreSQL) with SIGKILL in the middle of a
// stream of newsletter sign-ups, restart with `node scripts/start.ts` (what `npm start` runs), and check that
// every acknowledged sign-up is there and that nothing is left running. Also run with smaller counts by
// tests/system/durability.test.ts.
import { randomBytes } from "node:crypto";
import type { Context } from "./context.ts";
import { postNewsletter, request, type SignUpOutcome } from "./http.ts";
import { check, metric, type SectionResult } from "./report.ts";
import {
  cleanUpCluster,
  clusterProcesses,
  connect,
  isAlive,
  makeDataDir,
  postmasterPid,
  removeDataDir,
  sleep,
  startServer,
} from "./server.ts";

export type Victim = "node" | "postgres";

export type CrashResult = {
  victim: Victim;
  sent: number;
  acknowledged: number;
  /** Acknowledged sign-ups missing after the restart: must be 0. */
  lost: number;
  /** Stored although the answer never arrived (in flight at the kill): allowed. */
  storedWithoutAnswer: number;
  /** Answers other than "subscribed" (errors while the database was down, refused connections). */
  failedAnswers: Record<SignUpOutcome, number>;
  /** /healthz of the surviving Node server after its database was killed (postgres victim only). */
  healthAfterKill?: number;
  /** Database processes still running once the crashed server was gone, before the restart. */
  processesBeforeRestart: number;
  restarted: boolean;
  restartMs: number | null;
  restartError?: string;
  /** Exit code of the restarted server after SIGTERM. */
  stopExitCode: number | null;
  /** Database processes of this data directory left after the final stop: must be 0. */
  orphans: number;
  lockFileLeft: boolean;
};

/**
 * Runs `count` sign-ups from `concurrency` workers, SIGKILLs the victim after `killAfter` acknowledgements,
 * restarts and checks. The data directory is left for the caller to remove.
 */
export async function crashDuringSignUps({
  dataDir,
  victim,
  count,
  concurrency,
  killAfter,
  timeLimitMs = 60_000,
}: {
  dataDir: string;
  victim: Victim;
  count: number;
  concurrency: number;
  killAfter: number;
  timeLimitMs?: number;
}): Promise<CrashResult> {
  const server = await startServer({ dataDir, entry: "start" });
  const run = randomBytes(4).toString("hex");
  const email = (i: number) => `duree-${run}-${i}@example.com`;
  const acknowledged = new Set<string>();
  const failedAnswers: Record<SignUpOutcome, number> = {
    subscribed: 0,
    duplicate: 0,
    other: 0,
    "5xx": 0,
    network: 0,
  };
  let next = 0;
  let killed = false;
  const deadline = Date.now() + timeLimitMs;
  const postmaster = postmasterPid(dataDir);

  const worker = async () => {
    while (next < count && Date.now() < deadline) {
      const i = next++;
      const answer = await postNewsletter(server.baseUrl, email(i), 100_000 + i);
      if (answer.outcome === "subscribed") acknowledged.add(email(i));
      else failedAnswers[answer.outcome] += 1;
      if (!killed && acknowledged.size >= killAfter) {
        killed = true;
        if (victim === "node") server.child.kill("SIGKILL");
        else if (postmaster) process.kill(postmaster, "SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const sent = next;

  let healthAfterKill: number | undefined;
  if (victim === "postgres") {
    await sleep(1_000);
    healthAfterKill = await request(`${server.baseUrl}/healthz`, { timeoutMs: 5_000 })
      .then((response) => response.status)
      .catch(() => 0);
  }
  // The crashed (or now useless) server is gone before the restart, as after a crash or a manual stop.
  await server.stop(15_000);
  await sleep(500);
  const processesBeforeRestart = clusterProcesses(dataDir).length;

  let restarted = false;
  let restartMs: number | null = null;
  let restartError: string | undefined;
  let stopExitCode: number | null = null;
  let lost = acknowledged.size;
  let storedWithoutAnswer = 0;
  try {
    const again = await startServer({ dataDir, entry: "start" });
    restarted = true;
    restartMs = again.startupMs;
    const client = await connect(again.databaseUrl);
    try {
      const stored = await client.query<{ email: string }>(
        "select lower(email) as email from blog_newsletter_subscribers where email like $1",
        [`duree-${run}-%`],
      );
      const present = new Set(stored.rows.map((row) => row.email));
      lost = [...acknowledged].filter((address) => !present.has(address)).length;
      storedWithoutAnswer = [...present].filter((address) => !acknowledged.has(address)).length;
    } finally {
      await client.end();
    }
    stopExitCode = await again.stop();
  } catch (error) {
    restartError = (error as Error).message.slice(0, 2_000);
  }
  await sleep(500);
  const orphans = clusterProcesses(dataDir).length;
  const lockPid = postmasterPid(dataDir);
  const lockFileLeft = lockPid !== undefined && isAlive(lockPid);
  await cleanUpCluster(dataDir);
  return {
    victim,
    sent,
    acknowledged: acknowledged.size,
    lost,
    storedWithoutAnswer,
    failedAnswers,
    healthAfterKill,
    processesBeforeRestart,
    restarted,
    restartMs,
    restartError,
    stopExitCode,
    orphans,
    lockFileLeft,
  };
}

export async function durabilitySection(context: Context): Promise<Partial<SectionResult>> {
  const count = context.quick ? 200 : 1_000;
  const results: CrashResult[] = [];
  for (const victim of ["node", "postgres"] as const) {
    const dataDir = await makeDataDir(`durability-${victim}`);
    try {
      context.log(`durability: ${count} sign-ups, SIGKILL ${victim} halfway`);
      results.push(
        await crashDuringSignUps({
          dataDir,
          victim,
          count,
          concurrency: 16,
          killAfter: count / 2,
        }),
      );
    } finally {
      await cleanUpCluster(dataDir);
      await removeDataDir(dataDir);
    }
  }
  const column = (pick: (result: CrashResult) => unknown) => results.map(pick);
  const rows = [
    ["sign-ups sent", ...column((r) => r.sent)],
    ["acknowledged « Vérifiez votre boîte mail »", ...column((r) => r.acknowledged)],
    ["acknowledged but missing after restart", ...column((r) => metric(r.lost, "", { equals: 0 }))],
    ["stored without an answer (in flight at the kill)", ...column((r) => r.storedWithoutAnswer)],
    [
      "failed answers (5xx / refused / other)",
      ...column(
        (r) =>
          `${r.failedAnswers["5xx"]} / ${r.failedAnswers.network} / ${r.failedAnswers.other + r.failedAnswers.duplicate}`,
      ),
    ],
    [
      "/healthz of the surviving server after the kill",
      ...column((r) => (r.healthAfterKill === undefined ? "—" : String(r.healthAfterKill))),
    ],
    ["database processes left before the restart", ...column((r) => r.processesBeforeRestart)],
    [
      "restart with `node scripts/start.ts`: healthy without repair",
      ...column((r) => check(r.restarted, r.restarted ? "yes" : "no")),
    ],
    ["restart: spawn to healthy /healthz", ...column((r) => metric(r.restartMs, "ms"))],
    ["exit code after SIGTERM", ...column((r) => metric(r.stopExitCode, "", { equals: 0 }))],
    [
      "database processes left after the final stop",
      ...column((r) => metric(r.orphans, "", { equals: 0 })),
    ],
  ] as SectionResult["tables"][number]["rows"];
  const notes = [
    `${count} sign-ups (distinct addresses, 16 at a time, each from its own client address); SIGKILL once half of them were acknowledged. The killed server is then stopped (SIGTERM, SIGKILL after 15 s), the site restarted with \`node scripts/start.ts\` on the same data directory, the acknowledged addresses looked up, and the server stopped with SIGTERM. Leftover processes: every process whose working directory is the cluster.`,
    ...results
      .filter((r) => r.restartError)
      .map((r) => `Restart after killing ${r.victim} failed: ${r.restartError}`),
  ];
  return {
    title: "Durability",
    tables: [
      {
        caption: `SIGKILL in the middle of ${count} newsletter sign-ups`,
        columns: ["figure", "kill the Node server", "kill the embedded PostgreSQL"],
        rows,
      },
    ],
    notes,
    data: { results },
  };
}
