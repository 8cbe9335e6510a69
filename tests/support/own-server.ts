import { afterAll, beforeAll, inject } from "vitest";
import { startServerProcess, type ServerProcess } from "./server-process";
import { mailParts, startSmtpCapture } from "./smtp-capture";
import { closeServerDatabase, targetServer } from "./server-under-test";

/**
 * A server and database of the test file's own, for files that change what every page shows (the brand,
 * prices, a studio's phone or hours): on the suite's shared server, another file running at the same time
 * would see the change. Call it first in the file (its hooks must run before the file's own); pass the
 * returned address to `useBrowser({ baseUrl })`. `serverDatabase()` and the account helpers then target it.
 * `env` adds variables to the server's (e.g. SMTP_URL of a capture the file starts in an earlier hook).
 */
export function useOwnServer(
  env: Record<string, string> | (() => Record<string, string>) = {},
): () => string {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServerProcess(
      inject("adminDatabaseUrl"),
      typeof env === "function" ? env() : env,
      { template: inject("databaseTemplates")?.plain },
    );
    await targetServer(server);
  }, 120_000);
  afterAll(async () => {
    await closeServerDatabase();
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("server not started");
    return server.baseUrl;
  };
}

/**
 * `useOwnServer` with e-mail on (and `env` besides), delivered to an SMTP capture of the file's own (a sending goes to every
 * active subscriber of the database: the shared server's mailbox would see it). `mailsTo` reads what an
 * address received, in order.
 */
export function useOwnServerWithMail(
  env: Record<string, string> | (() => Record<string, string>) = {},
) {
  let capture: Awaited<ReturnType<typeof startSmtpCapture>> | undefined;
  beforeAll(async () => {
    capture = await startSmtpCapture();
  });
  afterAll(async () => {
    await capture?.close();
  });
  const url = useOwnServer(() => ({
    SMTP_URL: capture?.smtpUrl ?? "",
    SMTP_FROM: "Studio de test <site@example.com>",
    ...(typeof env === "function" ? env() : env),
  }));
  const started = () => {
    if (!capture) throw new Error("SMTP capture not started");
    return capture;
  };
  return {
    url,
    /** Every message the capture received, as it received it. */
    received: () => started().received,
    /** Every message `address` received, read. */
    mailsTo: (address: string) =>
      started()
        .received.filter((mail) => mail.to.includes(address.toLowerCase()))
        .map((mail) => mailParts(mail.raw)),
  };
}
