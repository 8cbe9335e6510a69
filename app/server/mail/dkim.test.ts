import { createHash, createVerify, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "../../../tests/support/smtp-capture";
import { closeMailTransport, deliver } from "./transport.server";

/*
 * DKIM (decision 0080): with DKIM_* set, every e-mail leaves signed for the domain and selector, so the
 * receiving servers can check it against the public key published in DNS at `{selector}._domainkey.{domain}`.
 */

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  closeMailTransport();
  await smtp.close();
});

describe("DKIM signing", () => {
  it("signs the e-mail with the domain, the selector and the private key, over its headers (List-Unsubscribe-Post included) and body", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    await deliver(
      {
        to: "lectrice@example.net",
        subject: "Nouvel article",
        text: "Bonjour,\nun nouvel article.",
        html: "<p>Bonjour,<br>un nouvel article.</p>",
        headers: {
          "List-Unsubscribe": "<https://studio.fr/newsletter/desabonnement?token=abc.def>",
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      },
      {
        url: smtp.smtpUrl,
        from: "Studio <site@studio.fr>",
        ratePerMinute: 6_000,
        dkim: {
          domainName: "studio.fr",
          keySelector: "mail2026",
          privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        },
      },
    );
    const [mail] = smtp.received;
    const signature = mail?.headers["dkim-signature"] ?? "";
    const tags: Record<string, string> = Object.fromEntries(
      signature.split(";").map((tag) => {
        const [name, ...value] = tag.trim().split("=");
        return [name, value.join("=").replace(/\s+/g, "")];
      }),
    );
    expect(tags).toMatchObject({ v: "1", a: "rsa-sha256", d: "studio.fr", s: "mail2026" });
    expect(tags.h?.toLowerCase().split(":")).toEqual(
      expect.arrayContaining([
        "from",
        "to",
        "subject",
        "list-unsubscribe",
        "list-unsubscribe-post",
      ]),
    );
    // The signature is the private key's: the public key that DNS would publish verifies the signed
    // headers (relaxed canonicalisation, RFC 6376 §3.4.2) followed by the signature header without `b`.
    const raw = mail?.raw ?? "";
    const split = raw.search(/\r?\n\r?\n/);
    const head = raw.slice(0, split);
    // The body hash (relaxed body canonicalisation, RFC 6376 §3.4.4): the body as received is the one signed.
    const body = raw
      .slice(split)
      .replace(/^\r?\n\r?\n/, "")
      .split(/\r?\n/)
      .map((line) => line.replace(/[ \t]+/g, " ").replace(/ $/, ""))
      .join("\r\n")
      .replace(/(\r\n)*$/, "\r\n");
    expect(createHash("sha256").update(body).digest("base64")).toBe(tags.bh);
    const fields = head.split(/\r?\n(?![ \t])/);
    const relaxed = (field: string) => {
      const colon = field.indexOf(":");
      return `${field.slice(0, colon).trim().toLowerCase()}:${field
        .slice(colon + 1)
        .replace(/\r?\n/g, "")
        .replace(/[ \t]+/g, " ")
        .trim()}`;
    };
    const signed = (tags.h ?? "").split(":").map((name) => {
      const field = fields.find((candidate) =>
        candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`),
      );
      return `${relaxed(field ?? `${name}:`)}\r\n`;
    });
    const dkimField =
      fields.find((field) => field.toLowerCase().startsWith("dkim-signature:")) ?? "";
    const withoutB = relaxed(dkimField).replace(/([; ]b=)[^;]*/, "$1");
    const verifier = createVerify("RSA-SHA256");
    verifier.update(signed.join("") + withoutB);
    expect(verifier.verify(publicKey, tags.b ?? "", "base64")).toBe(true);
  });
});
