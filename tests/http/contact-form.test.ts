import { describe, expect, it } from "vitest";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useContactMessages } from "../support/studio-contact";

// The contact forms posted without JavaScript, as a browser without it (or a bot) posts them: what the
// server stores and the page it answers. With JavaScript (checks as the visitor types, the delayed
// confirmation, toasts, focus) they are in tests/e2e/contact-form.test.ts.

const { uniqueEmail, storedMessages } = useContactMessages();

const confirmation =
  "Message envoyé !Merci pour votre message, nous reviendrons vers vous dès que possible.";

/** The values the answered page's form holds, as a browser would fill them in from its HTML. */
function formValues(page: FetchedPage): Record<string, string> {
  const controls = page.document.querySelectorAll(
    "form[method=post] :is(input, select, textarea):not([type=hidden])",
  );
  return Object.fromEntries(
    [...controls].map((control) => {
      const name = control.getAttribute("name") ?? "";
      if (control.localName === "textarea") return [name, control.textContent ?? ""];
      if (control.localName === "select") {
        const option = control.querySelector("option[selected]") ?? control.querySelector("option");
        return [name, option?.getAttribute("value") ?? ""];
      }
      return [name, control.getAttribute("value") ?? ""];
    }),
  );
}

/** The text of the form's status line (the outcome, not a refusal). */
const statusOf = (page: FetchedPage) =>
  page.document.querySelector("form[method=post] [role=status]")?.textContent ?? "";

describe("contact forms without JavaScript", () => {
  it("a plain form post stores the message and the page answers with the confirmation, the form emptied", async () => {
    const email = uniqueEmail();
    const answer = await postForm("/contact-studio-ussel", {
      shootingType: "mariage",
      prenom: "Hugo",
      nom: "Lefebvre",
      email,
      telephone: "05 55 00 00 00",
      message: "Mariage le 12 septembre.",
      source: "",
      site_web: "",
    });
    expect(answer.status).toBe(200);
    expect(statusOf(answer)).toBe(confirmation);
    expect(await storedMessages(email)).toMatchObject([
      { studio: "ussel", shootingType: "mariage" },
    ]);
    expect(formValues(answer)).toMatchObject({ prenom: "", email: "", message: "" });
  });

  it("Brive and Limoges store their own fields under their own studio", async () => {
    const briveEmail = uniqueEmail();
    const brive = await postForm("/contact-studio-brive", {
      shootingType: "grand-bebe",
      prenom: "Lucas",
      nom: "Bernard",
      email: briveEmail,
      telephone: "+33 6 11 22 33 44",
      message: "Séance grand bébé, 1 an.",
      source: "salon",
      site_web: "",
    });
    expect(statusOf(brive)).toBe(confirmation);

    const limogesEmail = uniqueEmail();
    const limoges = await postForm("/contact?studio=limoges", {
      shootingType: "mini-seance",
      prenom: "Inès",
      nom: "Moreau",
      email: limogesEmail,
      message: "Bonjour, une mini-séance en décembre ?",
      source: "",
      site_web: "",
    });
    expect(statusOf(limoges)).toBe(confirmation);

    expect(await storedMessages(briveEmail)).toMatchObject([
      {
        studio: "brive",
        shootingType: "grand-bebe",
        telephone: "+33 6 11 22 33 44",
        source: "salon",
      },
    ]);
    expect(await storedMessages(limogesEmail)).toMatchObject([
      { studio: "limoges", shootingType: "mini-seance", telephone: null, source: null },
    ]);
  });

  it("server-side refusal: 400, every value kept, each invalid field with its message", async () => {
    const values = {
      shootingType: "boudoir",
      prenom: "Hugo",
      nom: "",
      email: "hugo@",
      telephone: "12",
      message: "Bonjour",
      source: "tirage",
    };
    const answer = await postForm("/contact-studio-ussel", { ...values, site_web: "" });
    expect(answer.status).toBe(400);
    expect(formValues(answer)).toMatchObject(values);
    const form = answer.document.querySelector("form[method=post]");
    const text = form?.textContent ?? "";
    expect(text).toContain("Le nom est requis");
    expect(text).toContain("Email invalide");
    expect(text).toContain("Numéro de téléphone invalide");
    // A refusal is not a failure: the summary says what to correct, the generic message is not shown.
    expect(statusOf(answer)).toBe("");
    const summary = form?.querySelector("[role=alert]")?.textContent;
    expect(summary).toContain("3 champs sont à corriger");
    expect(summary).toContain("Nom : Le nom est requis");
    const nom = form?.querySelector("[name=nom]");
    expect(nom?.getAttribute("aria-invalid")).toBe("true");
    const description = answer.document.getElementById(nom?.getAttribute("aria-describedby") ?? "");
    expect(textOf(description)).toBe("Le nom est requis");
  });
});

describe("the answer the light script takes the form from (decision 0137)", () => {
  it("is the light page itself, its form marked with the outcome and holding the failure sentence", async () => {
    const page = await fetchPage("/contact-studio-brive");
    const form = page.document.querySelector("form[method=post]");
    expect(form?.id).toBe("contact-brive");
    expect(form?.hasAttribute("data-in-place")).toBe(true);
    expect(form?.getAttribute("data-sending-label")).toBe("Envoi en cours...");
    expect(form?.hasAttribute("data-outcome")).toBe(false);
    expect(form?.querySelector("template[data-failed]")?.innerHTML).toContain(
      "Une erreur est survenue. Veuillez réessayer.",
    );

    // Posted as the script posts it (same origin, urlencoded): the page as to a plain post, no React.
    const refused = await postForm(
      "/contact-studio-brive",
      { prenom: "Lucas", email: "pas-un-email", site_web: "" },
      { headers: { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors" } },
    );
    expect(refused.status).toBe(400);
    expect(refused.html).not.toMatch(/type="module"|rr-scripts/);
    const answered = refused.document.getElementById("contact-brive");
    expect(answered?.getAttribute("data-outcome")).toBe("invalid");
    expect(
      answered?.querySelector("[data-fields] [name=email]")?.getAttribute("aria-invalid"),
    ).toBe("true");

    const email = uniqueEmail();
    const sent = await postForm(
      "/contact-studio-brive",
      {
        shootingType: "famille",
        prenom: "Lucas",
        nom: "Martin",
        email,
        telephone: "06 00 00 00 00",
        message: "Bonjour",
        source: "google",
        site_web: "",
      },
      { headers: { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors" } },
    );
    expect(sent.document.getElementById("contact-brive")?.getAttribute("data-outcome")).toBe(
      "sent",
    );
    expect(statusOf(sent)).toBe(confirmation);
    expect(await storedMessages(email)).toHaveLength(1);
  });
});

describe("the spam trap", () => {
  it("is out of reach: no tab stop, no autofill, hidden from assistive technologies", async () => {
    const { document } = await fetchPage("/contact-studio-ussel");
    const trap = document.querySelector("form[method=post] input[name=site_web]");
    expect(trap?.getAttribute("tabindex")).toBe("-1");
    expect(trap?.getAttribute("autocomplete")).toBe("off");
    expect(trap?.closest("[aria-hidden=true]")).not.toBeNull();
  });

  it("a message that fills it is kept, marked as suspected spam, and answered as sent", async () => {
    // A bot, or a browser's autofill: the answer says « envoyé », so the message must exist.
    const email = uniqueEmail();
    const answer = await postForm("/contact-studio-ussel", {
      shootingType: "video",
      prenom: "Bot",
      nom: "Spam",
      email,
      telephone: "0612345678",
      message: "Buy now",
      source: "",
      site_web: "https://spam.example",
    });
    expect(statusOf(answer)).toBe(confirmation);
    expect(await storedMessages(email)).toMatchObject([
      { message: "Buy now", suspectedSpam: true },
    ]);
  });
});
