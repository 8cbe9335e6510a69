/** « Studio d'Ussel » → « studio d'Ussel », to sit inside a sentence. */
export function studioNameInSentence(studio: { name: string }): string {
  return studio.name.charAt(0).toLowerCase() + studio.name.slice(1);
}
