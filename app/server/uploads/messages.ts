import { MAX_GALLERY_PHOTO_BYTES } from "~/lib/gallery-urls";
import { formatSize } from "~/lib/sizes";

/** The French sentences of the gallery uploads, shared by the server and the page without JavaScript. */
export const TOO_LARGE = `La photo dépasse ${formatSize(MAX_GALLERY_PHOTO_BYTES)}.`;
export const UNSUPPORTED = "Format non pris en charge : JPEG, HEIC ou PNG.";
export const DUPLICATE = "Déjà dans la galerie";
export const EMPTY_CHOICE = "Choisissez une photo à envoyer.";
export const SERVER_ERROR = "Erreur du serveur pendant l'enregistrement de la photo. Réessayez.";
