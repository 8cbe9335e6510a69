import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeMailTransport } from "../mail/transport.server";
import { useAppDatabase } from "../../../tests/support/database";
import { startScriptedSmtp, type ScriptedSmtp } from "../../../tests/support/scripted-smtp";
import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { CONTACT_RATE_LIMIT, submitContactForm } from "./contact-form.server";
import { contactMessageEmail } from "./contact-mail.server";
import { db } from "../db/client.server";
import { contactMessages, mailFailures, rateLimits } from "../db/schema";
import { startWorkers } from "../boot/jobs.server";
import { seedStudios } from "~/content/seed";

useAppDatabase({ jobs: true });

/** The recipient of a submission: a seeded studio of the specification, and the site's identity. */
function to(slug: string) {
  const studio = seedStudios.find((candidate) => candidate.slug === slug);
  if (!studio) throw new Error(`no seeded studio ${slug}`);
  return { studio };
}

/** What the loopback mail server accepted (it refuses every message for a while when `refuse` is set). */
const smtp = {
  refuse: false,
  received: [] as { from: string; to: string[]; raw: string }[],
};

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

const validUssel = {
  shootingType: "naissance",
  prenom: "Camille",
  nom: "Durand",
  email: "camille.durand@example.org",
  telephone: "06 12 34 56 78",
  message: "Bonjour, nous attendons un bébé pour mars.\nAvez-vous des disponibilités ?",
  source: "",
};

let address = 0;
/** Each test submits from its own address, so rate limits never leak between tests. */
const nextAddress = () => `192.0.2.${++address}`;

let server: ScriptedSmtp;
beforeAll(async () => {
  server = await startScriptedSmtp({
    onMessage: ({ from, to, raw }) => {
      if (smtp.refuse) return { code: 451, message: "Essayez plus tard" };
      smtp.received.push({ from, to: to.split(","), raw });
      return "accept";
    },
  });
  await startWorkers({ mail: { url: server.url, from: "site@example.com", ratePerMinute: 6000 } });
});
afterAll(async () => {
  closeMailTransport();
  await server.close();
});

/** The e-mail jobs in the queue, oldest first. */
async function mailJobs() {
  const rows = await db().execute<{ data: unknown }>(
    sql`select data from pgboss.job where name = 'mail' order by created_on`,
  );
  return rows.rows;
}

beforeEach(async () => {
  // The e-mails of the previous test's messages have left (or been dropped) before this test counts any.
  await expect
    .poll(
      async () =>
        (
          await db().execute(
            sql`select 1 from pgboss.job where name = 'mail' and state in ('created', 'active', 'retry')`,
          )
        ).rows.length,
      { timeout: 30_000 },
    )
    .toBe(0);
  smtp.received.length = 0;
  await db().execute(sql`delete from pgboss.job where name = 'mail'`);
  await db().delete(mailFailures);
  await db().delete(contactMessages);
});

describe("submitContactForm", () => {
  it("stores a valid Ussel message with its studio, every field and the time", async () => {
    const before = Date.now();
    const { result, httpStatus } = await submitContactForm({
      formData: form(validUssel),
      ...to("ussel"),
      clientAddress: nextAddress(),
    });
    expect(httpStatus).toBe(200);
    expect(result).toMatchObject({
      status: "sent",
      toast: { title: "Message envoyé !" },
    });
    const rows = await db().select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      studio: "ussel",
      shootingType: "naissance",
      prenom: "Camille",
      nom: "Durand",
      email: "camille.durand@example.org",
      telephone: "06 12 34 56 78",
      message: validUssel.message,
      source: null,
      emailedAt: null,
    });
    expect(rows[0]?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(result.status === "sent" && result.submissionId).toBe(rows[0]?.id);
  });

  it("refuses each studio's invalid values with French messages, keeps the values, stores nothing", async () => {
    const ussel = await submitContactForm({
      formData: form({
        ...validUssel,
        telephone: "",
        email: "pas-un-email",
        shootingType: "mariage-ski",
      }),
      ...to("ussel"),
      clientAddress: nextAddress(),
    });
    expect(ussel.httpStatus).toBe(400);
    expect(ussel.result).toMatchObject({
      status: "invalid",
      // A refusal is not a failure: the fields say what to correct (decision 0060).
      toast: { title: "Le message n'est pas encore parti" },
      errors: {
        telephone: "Le téléphone est requis",
        email: "Email invalide",
        shootingType: "Veuillez choisir un type de séance",
      },
      values: { email: "pas-un-email", prenom: "Camille", message: validUssel.message },
    });

    // Brive requires the source; Ussel's shooting types are not Brive's.
    const brive = await submitContactForm({
      formData: form({ ...validUssel, shootingType: "naissance", source: "" }),
      ...to("brive"),
      clientAddress: nextAddress(),
    });
    expect(brive.httpStatus).toBe(400);
    expect(brive.result.status === "invalid" && brive.result.errors).toEqual({
      source: "Veuillez indiquer comment vous nous avez connus",
    });

    // Limoges: no phone asked, the source optional, but Brive's « salon » is not one of its sources.
    const limoges = await submitContactForm({
      formData: form({
        shootingType: "mini-seance",
        prenom: " ",
        nom: "Martin",
        email: "a@example.org",
        message: "Bonjour",
        source: "salon",
      }),
      ...to("limoges"),
      clientAddress: nextAddress(),
    });
    expect(limoges.result.status === "invalid" && limoges.result.errors).toEqual({
      prenom: "Le prénom est requis",
      source: "Veuillez choisir une réponse de la liste",
    });
    expect(await db().select().from(contactMessages)).toHaveLength(0);
  });

  it("accepts a Brive message with every field and a Limoges message without telephone", async () => {
    const brive = await submitContactForm({
      formData: form({ ...validUssel, shootingType: "grand-bebe", source: "salon" }),
      ...to("brive"),
      clientAddress: nextAddress(),
    });
    const limoges = await submitContactForm({
      formData: form({
        shootingType: "boudoir",
        prenom: "Léa",
        nom: "Petit",
        email: "lea@example.org",
        message: "Bonjour !",
        source: "bni",
      }),
      ...to("limoges"),
      clientAddress: nextAddress(),
    });
    expect([brive.httpStatus, limoges.httpStatus]).toEqual([200, 200]);
    const rows = await db().select().from(contactMessages).orderBy(contactMessages.createdAt);
    expect(rows.map((row) => [row.studio, row.shootingType, row.source, row.telephone])).toEqual([
      ["brive", "grand-bebe", "salon", "06 12 34 56 78"],
      ["limoges", "boudoir", "bni", null],
    ]);
  });

  it("e-mails the stored message to the studio's address with Reply-To the visitor, through the queue", async () => {
    const [job] = await mailJobs();
    expect(job).toBeUndefined();
    const { result } = await submitContactForm({
      formData: form({ ...validUssel, source: "parrainage" }),
      ...to("ussel"),
      clientAddress: nextAddress(),
    });
    expect(result.status).toBe("sent");
    await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBe(1);
    const mail = smtp.received[0];
    expect(mail?.to).toEqual(["ussel@example.com"]);
    expect(mail?.from).toBe("site@example.com");
    expect(mail?.raw).toMatch(/^Reply-To: Camille Durand <camille\.durand@example\.org>$/m);
    expect(mail?.raw).toMatch(/^To: ussel@example\.com$/m);
    const body = mail?.raw.replace(/=\r?\n/g, "") ?? "";
    expect(body).toContain("Parrainage");
    expect(body).toContain("06 12 34 56 78");
    await expect
      .poll(async () => (await db().select().from(contactMessages))[0]?.emailedAt, {
        timeout: 10_000,
      })
      .toBeInstanceOf(Date);
    // One job, holding the message's id only (no copy of the visitor's text in the queue).
    const jobs = await mailJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.data).toEqual({
      kind: "contact",
      messageId: (await db().select().from(contactMessages))[0]?.id,
    });
  });

  it("dates the studio's e-mail « 1er » on the first of a month", () => {
    const { text } = contactMessageEmail(
      {
        ...validUssel,
        id: "00000000-0000-4000-8000-000000000001",
        studio: "ussel",
        source: null,
        createdAt: new Date("2026-12-01T09:30:00Z"),
        handledAt: null,
        emailedAt: null,
        suspectedSpam: false,
      },
      { brand: "Studio Lumière", studio: to("ussel").studio.data },
    );
    expect(text).toContain("Nouveau message reçu le mardi 1er décembre 2026 à 10:30 depuis");
  });

  it("retries a message the mail server refuses for a while, and delivers it once it accepts", async () => {
    smtp.refuse = true;
    try {
      const { result, httpStatus } = await submitContactForm({
        formData: form({ ...validUssel, shootingType: "famille", source: "salon" }),
        ...to("brive"),
        clientAddress: nextAddress(),
      });
      expect(httpStatus).toBe(200);
      expect(result.status).toBe("sent");
      // Refused: kept, not marked e-mailed, the failure noted in French for the admin.
      await expect
        .poll(async () => (await db().select().from(mailFailures)).length, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const rows = await db().select().from(contactMessages);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.emailedAt).toBeNull();
      const [failure] = await db().select().from(mailFailures);
      expect(failure).toMatchObject({
        kind: "contact",
        recipient: "brive@example.com",
        final: false,
      });
      expect(failure?.error).toContain("nouvel essai prévu");
    } finally {
      smtp.refuse = false;
    }
    await expect.poll(() => smtp.received.length, { timeout: 40_000 }).toBe(1);
    expect(smtp.received[0]?.to).toEqual(["brive@example.com"]);
    await expect
      .poll(async () => (await db().select().from(contactMessages))[0]?.emailedAt, {
        timeout: 10_000,
      })
      .toBeInstanceOf(Date);
  });

  it("refuses an address past the limit with 'Trop de tentatives', keeping the values", async () => {
    const clientAddress = nextAddress();
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt <= CONTACT_RATE_LIMIT.limit; attempt++) {
      last = await submitContactForm({
        formData: form(validUssel),
        ...to("ussel"),
        clientAddress,
      });
      statuses.push(last.httpStatus);
    }
    expect(statuses).toEqual([...Array(CONTACT_RATE_LIMIT.limit).fill(200), 429]);
    expect(last?.result).toMatchObject({
      status: "rate-limited",
      toast: {
        title: "Trop de tentatives",
        description: "Veuillez réessayer dans quelques minutes.",
      },
      values: { prenom: "Camille" },
    });
    expect(await db().select().from(contactMessages)).toHaveLength(CONTACT_RATE_LIMIT.limit);
    // Another address is not affected.
    const other = await submitContactForm({
      formData: form(validUssel),
      ...to("ussel"),
      clientAddress: nextAddress(),
    });
    expect(other.httpStatus).toBe(200);
    const counters = await db()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `contact:${clientAddress}`));
    expect(counters[0]?.count).toBe(CONTACT_RATE_LIMIT.limit + 1);
  });

  it("keeps a message that fills the honeypot (a bot or an autofill), marked, and does not e-mail it", async () => {
    {
      const { result, httpStatus } = await submitContactForm({
        formData: form({ ...validUssel, [HONEYPOT_FIELD]: "https://spam.example" }),
        ...to("ussel"),
        clientAddress: nextAddress(),
      });
      expect(httpStatus).toBe(200);
      expect(result.status).toBe("sent");
      // Acknowledged as sent, so stored (decision 0021): nothing acknowledged is ever dropped.
      expect(await db().select().from(contactMessages)).toMatchObject([
        { message: validUssel.message, suspectedSpam: true, emailedAt: null },
      ]);
      expect(await mailJobs()).toHaveLength(0);
      expect(smtp.received).toHaveLength(0);
      const counters = await db()
        .select()
        .from(rateLimits)
        .where(like(rateLimits.key, "contact:%"));
      expect(counters.length).toBeGreaterThan(0);
    }
  });

  it("stores every message of one visitor, the same text twice included", async () => {
    const client = nextAddress();
    const send = (message: string) =>
      submitContactForm({
        formData: form({ ...validUssel, message }),
        ...to("ussel"),
        clientAddress: client,
      });
    const answers = [
      await send("Premier message"),
      await send("Second message, un autre texte"),
      await send("Second message, un autre texte"),
    ];
    expect(answers.map((answer) => answer.result.status)).toEqual(["sent", "sent", "sent"]);
    const rows = await db().select().from(contactMessages);
    expect(rows.map((row) => row.message).sort()).toEqual([
      "Premier message",
      "Second message, un autre texte",
      "Second message, un autre texte",
    ]);
    expect(rows.every((row) => !row.suspectedSpam)).toBe(true);
  });
});
