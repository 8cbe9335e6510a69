import type { ShouldRevalidateFunctionArgs } from "react-router";
import { CodeForm, Notice } from "~/components/gallery/client-code-form";
import { ClientGallery } from "~/components/gallery/client-gallery";
import { MISSING_GALLERY_MESSAGE } from "~/lib/gallery-texts";
import type { Route } from "./+types/index";

export { action, headers, loader } from "./index.server";

/*
 * /galerie-client/{id} (decision 0103): the client's gallery. Without the code's cookie the code
 * form; with it the grid, the viewer (?photo={id}, a single-photo page without JavaScript), favourites,
 * comments and the validation of the selection. An administrator sees it read-only (« Aperçu
 * administrateur »). Actions by `intent`; authorisation is checked in every one.
 */

/** Moving from photo to photo changes only `?photo=`: nothing to read again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) {
    const current = new URLSearchParams(currentUrl.search);
    const next = new URLSearchParams(nextUrl.search);
    current.delete("photo");
    next.delete("photo");
    if (current.toString() === next.toString()) return false;
  }
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const brand =
    (
      matches.find((match) => match?.id === "routes/galerie-client/layout")?.loaderData as
        { brand?: string } | undefined
    )?.brand ?? "";
  const title =
    loaderData?.kind === "gallery"
      ? loaderData.gallery.title
      : loaderData?.kind === "missing"
        ? "Galerie introuvable"
        : loaderData?.kind === "expired"
          ? "Galerie expirée"
          : "Galerie privée";
  return [
    { title: brand ? `${title} | ${brand}` : title },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export default function ClientGalleryPage({ loaderData, actionData }: Route.ComponentProps) {
  switch (loaderData.kind) {
    case "missing":
      return (
        <Notice title="Galerie introuvable">
          <p>{MISSING_GALLERY_MESSAGE}</p>
        </Notice>
      );
    case "expired":
      return (
        <Notice title="Galerie expirée">
          <p>
            Cette galerie a expiré le {loaderData.expiredOn}. Pour retrouver vos photos, contactez
            le studio : {loaderData.contact.name}
            {loaderData.contact.phone ? `, ${loaderData.contact.phone}` : ""},{" "}
            <a className="underline" href={`mailto:${loaderData.contact.email}`}>
              {loaderData.contact.email}
            </a>
            .
          </p>
        </Notice>
      );
    case "code":
      return (
        <CodeForm
          title={loaderData.title}
          answer={actionData && "intent" in actionData ? actionData : undefined}
        />
      );
    case "gallery":
      return (
        <ClientGallery
          {...loaderData}
          answer={actionData && "intent" in actionData ? actionData : undefined}
        />
      );
  }
}
