import { describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { elementsWithText, formOf, labelled, shownValue } from "../support/admin-content";
import { fetchPage, parseDocument } from "../support/html";
import { serverBaseUrl } from "../support/server-under-test";

/*
 * The media library's upload without JavaScript: a plain multipart post of its form, answered by the
 * upload page. The upload with JavaScript (progress, the photo in use, its history) is
 * tests/e2e/admin-medias.
 */

const admin = useAdmin();

describe("the media library's upload without JavaScript", () => {
  it("refuses a file that is not an image in French, keeping the alternative text", async () => {
    const library = await fetchPage("/admin/medias", { cookie: admin.cookie() });
    const form = formOf(library, 'form[enctype="multipart/form-data"]');
    const action = form.getAttribute("action") ?? "";
    expect(action).toBe("/admin/medias/televerser");

    const kept = "Élèves devant le tableau";
    const body = new FormData();
    body.append(
      "file",
      new Blob([Buffer.from("toujours pas une photo")], { type: "image/jpeg" }),
      "notes.jpg",
    );
    body.append("alt", kept);
    const response = await fetch(new URL(action, serverBaseUrl()), {
      method: "POST",
      headers: { cookie: admin.cookie(), origin: new URL(serverBaseUrl()).origin },
      body,
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    // Answered by the upload page itself: its message, and the description typed.
    const answer = parseDocument(await response.text());
    expect(elementsWithText(answer, "Le fichier n'est pas une image valide.")).toHaveLength(1);
    const main = answer.querySelector("main");
    expect(shownValue(labelled(main as Element, "Texte alternatif (obligatoire)"))).toBe(kept);
  });
});
