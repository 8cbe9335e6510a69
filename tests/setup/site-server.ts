import type { TestProject } from "vitest/node";
import { startServerProcess } from "../support/server-process";
import { startSmtpCapture } from "../support/smtp-capture";

declare module "vitest" {
  export interface ProvidedContext {
    /** Address of the production server under test. */
    baseUrl: string;
    /** Its database, for tests that check what was stored. */
    databaseUrl: string;
    /** The mail it sent (its SMTP_URL is a capture on loopback): GET gives the messages as JSON. */
    mailboxUrl: string;
    /**
     * Its AUTH_SECRET, for tests that play a subscriber holding an e-mailed link the server signed
     * (signLinkTokenWith), e.g. the unsubscribe link of a newsletter.
     */
    authSecret: string;
    /** Its DATA_DIR, for tests that put files in its store (local disk) directly. */
    dataDir: string;
  }
}

/** Runs the production server (built by tests/setup/build.ts) on a free loopback port. */
export default async function setup(project: TestProject) {
  const mail = await startSmtpCapture();
  const server = await startServerProcess(project.getProvidedContext().adminDatabaseUrl, {
    SMTP_URL: mail.smtpUrl,
    SMTP_FROM: "Studio de test <site@example.com>",
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("mailboxUrl", mail.mailboxUrl);
  project.provide("authSecret", server.authSecret);
  project.provide("dataDir", server.dataDir);

  return async () => {
    await server.stop();
    await mail.close();
  };
}
