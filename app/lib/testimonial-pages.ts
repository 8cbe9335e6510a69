/** The pages that show testimonials, with their list's name in the document. */
export const TESTIMONIAL_PAGES = [
  { list: "gendarmerie", title: "Page Gendarmerie", path: "/gendarmerie" },
  { list: "portraitFamille", title: "Page Portrait & Famille", path: "/portrait-famille" },
  { list: "grossesse", title: "Page Grossesse", path: "/prestations/grossesse" },
] as const;
