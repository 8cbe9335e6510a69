import { studios, type Studio } from "~/content/studios";

/**
 * The studio whose page or contact page lives at `pathname` (one route module serves the three). Requests
 * from the client router carry React Router's `.data` suffix (e.g. /contact-studio-brive.data).
 */
export function studioFromPath(pathname: string): Studio {
  const path = pathname.replace(/\.data$/, "").replace(/\/+$/, "");
  const studio = studios.find(
    (candidate) => candidate.pagePath === path || candidate.contactPath === path,
  );
  if (!studio) throw new Error(`Aucun studio à l'adresse ${pathname}`);
  return studio;
}

/** « Studio d'Ussel » → « studio d'Ussel », to sit inside a sentence. */
export function studioNameInSentence(studio: Studio): string {
  return studio.name.charAt(0).toLowerCase() + studio.name.slice(1);
}
