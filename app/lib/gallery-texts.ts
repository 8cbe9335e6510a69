/** Figures and words of the client's gallery shared by the server and the page. */

/** The longest comment a client can leave on a photo (the column's size). */
export const MAX_COMMENT_LENGTH = 1000;

export const MISSING_GALLERY_MESSAGE = "Galerie introuvable. Vérifiez le lien reçu par e-mail.";
