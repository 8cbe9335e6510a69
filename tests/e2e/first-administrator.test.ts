import { describe, expect, it } from "vitest";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { useOwnServer } from "../support/own-server";
import { serverAuthSecret } from "../support/server-under-test";
import { EXPECTED_REFUSALS } from "./support/admin";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * The page of the link a new site prints while it has no administrator (decision 0110), where the owner uses
 * it: checks before posting, focus, the dashboard after (signed in). What the server does with the link (once, late,
 * forged, the printed line) is tests/http/first-administrator.test.ts. A server of this file's own: on the
 * suite's, other files create administrators.
 */

const url = useOwnServer();
const { openPage } = useBrowser({ baseUrl: url });

describe("the first administrator's page", () => {
  it("checks the fields before posting, creates the account, then she is signed in on the dashboard", async () => {
    const token = signLinkTokenWith(serverAuthSecret(), "first-administrator", "setup", {
      lifetimeSeconds: 3600,
    });
    const page = await openPage(`/admin/premier-administrateur?jeton=${token}`, {
      allowConsole: EXPECTED_REFUSALS,
    });
    await page.getByRole("heading", { name: "Premier administrateur" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Adresse e-mail").fill("lea@example.com");
    await page.getByLabel("Mot de passe", { exact: true }).fill("secret-123");
    await page.getByLabel("Confirmez le mot de passe").fill("secret-12");
    await page.getByRole("button", { name: "Créer l'administrateur" }).click();
    await expect
      .poll(() => page.locator("#champ-confirmation-erreur").textContent())
      .toBe("Les deux mots de passe ne correspondent pas");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("champ-confirmation");

    await page.getByLabel("Confirmez le mot de passe").fill("secret-123");
    await page.keyboard.press("Enter");
    // Signed in at once with the password she has just typed twice (decision 0110).
    await page.waitForURL(/\/admin\/dashboard$/);
    await page.getByText("Administrateur créé").waitFor();
    await page.getByRole("heading", { name: "Tableau de bord" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
