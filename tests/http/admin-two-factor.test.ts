import { beforeAll, describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { flashedToast, postLogin } from "../support/admin-forms";
import { cookieAfter } from "../support/auth";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { totp } from "../support/two-factor";

/*
 * What the server does with two-factor sign-in (TOTP): what it asks before turning it on or off, and the
 * second step of signing in. The steps in a browser (the QR code, the focus, the download, the toasts) are
 * tests/e2e/admin-two-factor. The tests run in order: the first turns two-factor on, the last off.
 */

const admin = useAdmin();
/** The administrator's cookies: turning two-factor on or off gives the session a new cookie. */
let cookie = "";
beforeAll(() => {
  cookie = admin.cookie();
});

async function security(fields: Record<string, string>) {
  const answer = await postForm("/admin/securite", fields, { cookie });
  cookie = cookieAfter(answer.headers, cookie);
  return answer;
}

const mainAlert = (answer: FetchedPage) =>
  textOf(answer.document.querySelector("main [role=alert]"));
const formAlert = (answer: FetchedPage) =>
  textOf(answer.document.querySelector("form [role=alert]"));

const fieldError = (answer: FetchedPage, name: string) =>
  textOf(answer.document.getElementById(`champ-${name}-erreur`));

/**
 * Turning two-factor on or off asks for the password: a wrong or empty one is refused by the server, in the
 * page's alert and under the field (the form leaves the check to the server: no browser bubble).
 */
async function expectWrongPasswordRefused(intent: "enable" | "disable") {
  const refused = await security({ intent, password: "mauvais-mot-de-passe" });
  expect(refused.status).toBe(400);
  expect(mainAlert(refused)).toContain("Mot de passe incorrect");
  expect(fieldError(refused, "password")).toBe("Mot de passe incorrect");
  expect(
    refused.document.querySelector("form:has(input[name=password])")?.hasAttribute("novalidate"),
  ).toBe(true);

  const empty = await security({ intent, password: "" });
  expect(empty.status).toBe(400);
  expect(mainAlert(empty)).toContain("Saisissez votre mot de passe actuel");
  expect(fieldError(empty, "password")).toBe("Saisissez votre mot de passe actuel");
}

/** The set-up the page shows: its manual key, its backup codes, and the address its form posts back. */
function setupShown(page: FetchedPage) {
  return {
    key: textOf(page.document.querySelector("[data-testid=cle-totp]")),
    backupCodes: [...page.document.querySelectorAll('ul[aria-label="Codes de secours"] li')].map(
      (item) => textOf(item),
    ),
    totpURI: page.document.querySelector("input[name=totpURI]")?.getAttribute("value") ?? "",
  };
}

/** Signs in with the password: the answer, and the cookies of the challenge it sets. */
async function passwordStep() {
  const answer = await postLogin(admin.account().email, admin.account().password);
  expect(answer.status).toBe(302);
  expect(answer.headers.get("location")).toBe("/admin/verification");
  return cookieAfter(answer.headers);
}

const verify = (code: string, challenge: string) =>
  postForm("/admin/verification", { code }, { cookie: challenge });

let backupCodes: string[] = [];

describe("two-factor sign-in (TOTP), answered by the server", () => {
  it("turns on with the password, once the backup codes are said to be saved and with a right code", async () => {
    await expectWrongPasswordRefused("enable");

    const enabled = await security({ intent: "enable", password: admin.account().password });
    expect(enabled.status).toBe(200);
    const setup = setupShown(enabled);
    expect(
      enabled.document
        .querySelector("img[alt=\"QR code de configuration de l'application d'authentification\"]")
        ?.getAttribute("src"),
    ).toMatch(/^data:image\/svg\+xml;base64,/);
    // The manual key in groups of 4 characters.
    expect(setup.key).toMatch(/^[A-Z2-7=]{1,4}( [A-Z2-7=]{1,4})+$/);
    expect(setup.backupCodes).toHaveLength(10);
    for (const code of setup.backupCodes) {
      // No character that reads like another: 0/O, 1/I/l.
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
    }
    // The codes can be downloaded as a text file, without JavaScript too.
    const download = enabled.document.querySelector('a[download="codes-de-secours.txt"]');
    const file = decodeURIComponent(download?.getAttribute("href") ?? "");
    for (const code of setup.backupCodes) expect(file).toContain(code);

    // Without confirming the codes were saved, two-factor cannot be turned on, even with a right code;
    // the same codes (and key) are shown again.
    const unsaved = await security({
      intent: "confirm",
      totpURI: setup.totpURI,
      code: await totp(setup.key),
    });
    expect(unsaved.status).toBe(400);
    expect(mainAlert(unsaved)).toContain("Confirmez que vous avez enregistré vos codes de secours");
    expect(setupShown(unsaved)).toEqual(setup);

    // An empty code is refused under its field, the set-up shown again.
    const noCode = await security({
      intent: "confirm",
      totpURI: setup.totpURI,
      saved: "on",
      code: " ",
    });
    expect(noCode.status).toBe(400);
    expect(fieldError(noCode, "code")).toBe(
      "Saisissez le code à 6 chiffres affiché par l'application",
    );
    expect(setupShown(noCode)).toEqual(setup);

    const turnedOn = await security({
      intent: "confirm",
      totpURI: setup.totpURI,
      saved: "on",
      code: await totp(setup.key),
    });
    expect(turnedOn.status).toBe(302);
    expect(turnedOn.headers.get("location")).toBe("/admin/securite");
    expect(flashedToast(turnedOn.headers)).toMatchObject({
      title: "Double authentification activée",
    });
    const page = await fetchPage("/admin/securite", { cookie });
    expect(textOf(page.document.querySelector("main"))).toContain(
      "La double authentification est activée",
    );
    backupCodes = setup.backupCodes;
  });

  it("then asks for a code after the password: a password alone opens nothing, a wrong code is refused, a backup code works once, however it is typed", async () => {
    const challenge = await passwordStep();
    const dashboard = await fetchPage("/admin/dashboard", { cookie: challenge });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toBe("/admin/login");

    const wrong = await verify("123456", challenge);
    expect(wrong.status).toBe(401);
    expect(formAlert(wrong)).toContain("Code invalide");

    // In lower case and without its dash, a backup code is still recognised.
    const typed = (backupCodes[0] ?? "").replace("-", "").toLowerCase();
    const signedIn = await verify(typed, challenge);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");
    expect(flashedToast(signedIn.headers)).toMatchObject({ title: "Connexion réussie" });
    const session = cookieAfter(signedIn.headers, challenge);
    expect((await fetchPage("/admin/dashboard", { cookie: session })).status).toBe(200);

    const again = await verify(typed, await passwordStep());
    expect(again.status).toBe(401);
    expect(formAlert(again)).toContain("Code invalide");
  });

  // Decision 0139: an e-mailed link that needs the session sends her to sign in, then back to it.
  it("keeps the address she came from through the second step", async () => {
    const retour = "/admin/sauvegardes/derniere?jeton=abc.def";
    const query = `?retour=${encodeURIComponent(retour)}`;
    const password = await postForm(`/admin/login${query}`, {
      email: admin.account().email,
      password: admin.account().password,
    });
    expect(password.headers.get("location")).toBe(`/admin/verification${query}`);
    const signedIn = await postForm(
      `/admin/verification${query}`,
      { code: backupCodes[1] ?? "" },
      { cookie: cookieAfter(password.headers) },
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(retour);
  });

  it("turns off with the password only; the password alone then signs in", async () => {
    await expectWrongPasswordRefused("disable");

    const turnedOff = await security({ intent: "disable", password: admin.account().password });
    expect(turnedOff.status).toBe(302);
    expect(flashedToast(turnedOff.headers)).toMatchObject({
      title: "Double authentification désactivée",
    });
    const signedIn = await postLogin(admin.account().email, admin.account().password);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");
  });
});
