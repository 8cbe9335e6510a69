import type { Picture } from "imagetools-core";
import { smallPhoto } from "./marketing-photos";
import { demoPhotos } from "./demo-photos";

/** The photo's dominant colour, its card's background while it loads (scripts/demo-photos.ts). */
function placeholderColour(name: string): string {
  const colour = demoPhotos[name]?.colour;
  if (!colour)
    throw new Error(`Couleur manquante pour ${name} : lancer node scripts/demo-photos.ts`);
  return colour;
}

/** SPEC §3 "Gallery item": a customer gallery on the external photo-delivery service. */
export type GalleryItem = {
  title: string;
  category: "Événement" | "Famille" | "Mariage";
  cover: Picture;
  /** The cover's dominant colour (#rrggbb), shown while it loads. */
  colour: string;
  /** PLACEHOLDER: the gallery's address on the photo-delivery service. */
  link: string;
};

const item = (
  number: number,
  title: string,
  category: GalleryItem["category"],
  slug: string,
): GalleryItem => {
  const photo = `galerie-${String(number).padStart(2, "0")}`;
  return {
    title,
    category,
    cover: smallPhoto(photo),
    colour: placeholderColour(photo),
    link: `https://galeries.example.com/${slug}`,
  };
};

export const galleryItems: GalleryItem[] = [
  item(1, "Mariage de Camille et Thomas", "Mariage", "mariage-camille-thomas"),
  item(2, "Famille Martin au studio", "Famille", "famille-martin"),
  item(3, "Gala de la gendarmerie de Corrèze", "Événement", "gala-gendarmerie-correze"),
  item(4, "Mariage de Léa et Antoine", "Mariage", "mariage-lea-antoine"),
  item(5, "Séance en famille au lac de Sechemailles", "Famille", "famille-lac-sechemailles"),
  item(6, "Inauguration d'une boutique à Brive", "Événement", "inauguration-boutique-brive"),
  item(7, "Mariage de Sarah et Julien", "Mariage", "mariage-sarah-julien"),
  item(8, "Trois générations réunies", "Famille", "trois-generations"),
  item(9, "Remise de diplômes d'un lycée d'Ussel", "Événement", "remise-diplomes-ussel"),
  item(10, "Mariage de Manon et Kevin", "Mariage", "mariage-manon-kevin"),
  item(11, "Famille Dubois en automne", "Famille", "famille-dubois-automne"),
  item(12, "Séminaire d'entreprise à Limoges", "Événement", "seminaire-limoges"),
  item(13, "Mariage de Chloé et Maxime", "Mariage", "mariage-chloe-maxime"),
  item(14, "Frères et sœurs au studio d'Ambazac", "Famille", "fratrie-ambazac"),
  item(15, "Prise d'armes à Tulle", "Événement", "prise-armes-tulle"),
  item(16, "Mariage d'Emma et Lucas", "Mariage", "mariage-emma-lucas"),
  item(17, "Famille Bernard à la campagne", "Famille", "famille-bernard"),
  item(18, "Salon des artisans d'Ussel", "Événement", "salon-artisans-ussel"),
  item(19, "Mariage de Julie et Romain", "Mariage", "mariage-julie-romain"),
];

/** SPEC §3 "Gallery image": one photo of a style gallery on a service page. */
export type GalleryImage = {
  photo: Picture;
  /** The photo's dominant colour (#rrggbb), shown while it loads. */
  colour: string;
  alt: string;
  title: string;
};

const styleImages = (page: string, entries: Array<[title: string, alt: string]>): GalleryImage[] =>
  entries.map(([title, alt], index) => ({
    title,
    alt,
    photo: smallPhoto(`style-${page}-${index + 1}`),
    colour: placeholderColour(`style-${page}-${index + 1}`),
  }));

export const portraitStyles = styleImages("portrait-famille", [
  ["Fond noir", "Portrait en clair-obscur sur fond noir"],
  ["Fond blanc", "Portrait lumineux sur fond blanc"],
  ["Fond couleur", "Portrait sur un fond de couleur vive"],
  ["Famille", "Parents et enfants réunis au studio"],
  ["Fratrie", "Frères et sœurs serrés les uns contre les autres"],
  ["Couple", "Couple complice en studio"],
  ["Enfant", "Portrait d'enfant qui éclate de rire"],
  ["Générations", "Grands-parents, parents et petits-enfants"],
  ["Fashion", "Portrait de mode avec maquillage et lumière travaillée"],
]);

export const pregnancyPhotos = styleImages("grossesse", [
  ["Silhouette", "Silhouette de femme enceinte en contre-jour"],
  ["Fond noir", "Ventre rond sur fond noir"],
  ["En couple", "Futurs parents, mains sur le ventre"],
  ["Avec l'aîné", "Un enfant embrasse le ventre de sa maman"],
  ["Robe longue", "Future maman en robe longue de studio"],
  ["Fond blanc", "Portrait lumineux de grossesse sur fond blanc"],
  ["Détail", "Mains en cœur sur le ventre"],
  ["Naturel", "Future maman souriante en tenue simple"],
]);

export const newbornStyles = styleImages("naissances", [
  ["Cocon", "Nouveau-né endormi dans un cocon de laine"],
  ["Panier", "Bébé installé dans un panier en osier"],
  ["Avec les parents", "Nouveau-né dans les bras de ses parents"],
  ["Fratrie", "Le grand frère veille sur le bébé"],
  ["Détails", "Petits pieds de nouveau-né"],
  ["Épuré", "Nouveau-né sur un drap blanc"],
]);
