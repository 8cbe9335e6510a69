/**
 * Words that start with an « h aspiré »: no elision before them (« de Hibou Studio »). The rest of the words
 * in h take it, as any vowel does (« d'Harmonie Photo »).
 */
const ASPIRATED_H =
  /^h(?:a(?:ch|ie|ine|ll|lt|m|nd|ng|nt|ra|rd|re|ri|rp|sard|t|ut|v)|â|e(?:aum|nn|rn|ros|rs|urt|x)|é(?:ron|ros)|i(?:bou|c|d|e|sse|tler)|o(?:ch|ll|m|nd|nt|ngr|nt|qu|rs|tt|u)|u(?:b|ch|é|gu|it|l|m|n|pp|rl|tt))/i;

/** Whether a name takes « d' » rather than « de » before it (a vowel, or a mute h). */
export function elides(name: string): boolean {
  const first = name.trim().normalize("NFD").replace(/\p{M}/gu, "").charAt(0).toLowerCase();
  if ("aeiouy".includes(first) && first !== "") return true;
  return first === "h" && !ASPIRATED_H.test(name.trim());
}

/**
 * « de » before `name`, elided as French writes it: « de Studio Lumière », « d'Atelier Lumière »; a month's
 * name too: « de novembre 2026 », « d'août 2027 », « d'avril ».
 */
export function ofName(name: string): string {
  return elides(name) ? `d'${name.trim()}` : `de ${name.trim()}`;
}
