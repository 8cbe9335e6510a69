import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers } from "../../app/server/boot/jobs.server";
import { enqueueAdminMail } from "../../app/server/admin/mailer.server";
import { closeMailTransport } from "../../app/server/mail/transport.server";
import { useAppDatabase } from "../support/database";
import { duplicates, startScriptedSmtp, type ScriptedSmtp } from "../support/scripted-smtp";

// pg-boss announces a job when it is created; a worker that has just handled one used to wait for its next
// poll (30 s) before looking again, so e-mails queued together left two by two every 30 s.

useAppDatabase({ jobs: true });

let smtp: ScriptedSmtp;

beforeAll(async () => {
  smtp = await startScriptedSmtp();
  await startWorkers({
    mail: { url: smtp.url, from: "Studio <site@example.com>", ratePerMinute: 60_000 },
  });
});

afterAll(async () => {
  closeMailTransport();
  await smtp.close();
});

describe("the mail queue", () => {
  it("sends e-mails queued together one after another, without waiting for the next poll", async () => {
    const started = Date.now();
    for (let index = 0; index < 12; index++) {
      await enqueueAdminMail({
        mail: {
          to: `admin-${index}@example.com`,
          subject: "Votre lien de connexion",
          text: "Bonjour,\n\nVoici votre lien.",
        },
      });
    }
    await expect.poll(() => smtp.accepted.length, { timeout: 10_000 }).toBe(12);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(duplicates(smtp.accepted)).toEqual([]);
  });
});
