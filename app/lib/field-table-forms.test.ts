import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GALLERY_ACCESS_FIELDS, GALLERY_SESSION_FIELDS } from "./gallery-schemas";
import { IDENTITY_FIELDS, IDENTITY_LINK_FIELDS } from "./identity-form";
import { STUDIO_ADDRESS_FIELDS, STUDIO_CONTACT_FORM_FIELDS, STUDIO_FIELDS } from "./studio-form";

/** The field names written as strings (`"street"`) or as keys (`street:`, `"social.facebook":`) in a file. */
function namesWritten(path: string, names: readonly string[]): string[] {
  const source = readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
  return names.filter(
    (name) => source.includes(`"${name}"`) || new RegExp(`[{,\\s]${name}:`).test(source),
  );
}

/*
 * Decision 0152: a form's fields are described once, in their table; the view lays them out from it.
 * A view names a field only to give it behaviour of its own (the studio's address follows its city).
 */
describe("the views of the forms with a field table", () => {
  it("lay out their fields from their tables, naming none by hand", () => {
    expect(
      namesWritten("app/components/studio/studio-form.tsx", [
        ...STUDIO_FIELDS.names,
        ...STUDIO_ADDRESS_FIELDS.names,
        ...STUDIO_CONTACT_FORM_FIELDS.names,
      ]),
    ).toEqual(["city", "slug"]);
    expect(
      namesWritten("app/components/gallery-admin/gallery-form.tsx", [
        ...GALLERY_SESSION_FIELDS.names,
        ...GALLERY_ACCESS_FIELDS.names,
      ]),
    ).toEqual(["studioId"]);
    expect(
      namesWritten("app/routes/admin/site.tsx", [
        ...IDENTITY_FIELDS.names,
        ...IDENTITY_LINK_FIELDS.names,
        // The legal details' form beside it has its own e-mail and phone; « label » names its previews.
      ]).filter((name) => !["label", "email", "phone"].includes(name)),
    ).toEqual([]);
  });
});
