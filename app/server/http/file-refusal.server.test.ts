import { data, redirect, RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { SiteContent } from "~/server/content/site-content.server";
import { siteContentContext } from "~/server/content/site-content.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "./file-refusal.server";

// How a file route answers what it cannot serve (decision 0202): a French page, whatever went wrong.

function argsFor(path: string) {
  const context = new RouterContextProvider();
  context.set(
    siteContentContext,
    async () => ({ documents: { identity: { brand: "Atelier Lumière" } } }) as SiteContent,
  );
  return { request: new Request(`https://studio.test${path}`), context };
}

const page = async (answer: Response) => ({
  status: answer.status,
  type: answer.headers.get("Content-Type"),
  text: await answer.text(),
});

describe("fileRoute", () => {
  it("offers the owner who opened an admin file signed out to sign in and come back to it", async () => {
    const loader = fileRoute(async () => {
      throw new Response("Unauthorized", { status: 401 });
    });
    const answer = await page(await loader(argsFor("/admin/factures/F-2026-000012.pdf")));
    expect(answer.status).toBe(401);
    expect(answer.text).toContain("<h1>Connexion requise</h1>");
    expect(answer.text).toContain(
      '<a href="/admin/login?retour=%2Fadmin%2Ffactures%2FF-2026-000012.pdf">Se connecter</a>',
    );
  });

  it("answers a failure that is no refusal (a PDF that could not be built) with a French 500 page, not React Router's English line", async () => {
    const loader = fileRoute(async () => {
      throw new Error("pdf font missing");
    });
    const answer = await page(await loader(argsFor("/commande/jeton/bon.pdf")));
    expect(answer).toMatchObject({ status: 500, type: "text/html; charset=utf-8" });
    expect(answer.text).toContain("<h1>Fichier indisponible</h1>");
    expect(answer.text).toContain("Atelier Lumière");
    expect(answer.text).not.toContain("pdf font missing");
    expect(answer.text).not.toContain("Se connecter");
  });

  it("lets a redirect through, and writes a refusal's own sentence", async () => {
    const redirecting = fileRoute(async () => {
      throw redirect("/ailleurs");
    });
    await expect(redirecting(argsFor("/x"))).rejects.toMatchObject({ status: 302 });
    const refused = fileRoute(async () => {
      throw refuse(410, "Cette galerie a expiré.");
    });
    const answer = await page(await refused(argsFor("/galerie-client/x/zip")));
    expect(answer.status).toBe(410);
    expect(answer.text).toContain("<p>Cette galerie a expiré.</p>");
    const quiet = fileRoute(async () => {
      throw data("Introuvable.", { status: 404 });
    });
    expect((await quiet(argsFor("/x"))).status).toBe(404);
  });
});
