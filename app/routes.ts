import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { studios } from "./content/studios";

// The route table, following SPEC §2.
export default [
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),

    // Services, prices, gallery (issue 2/5)
    route("prestations", "routes/prestations.tsx"),
    route("portrait-famille", "routes/portrait-famille.tsx"),
    route("prestations/grossesse", "routes/prestations.grossesse.tsx"),
    route("prestations/naissances", "routes/prestations.naissances.tsx"),
    route("prestations/mariages", "routes/prestations.mariages.tsx"),
    route("seances-a-offrir", "routes/seances-a-offrir.tsx"),
    route("professionnels", "routes/professionnels.tsx"),
    route("gendarmerie", "routes/gendarmerie.tsx"),
    route("scolaire", "routes/scolaire.tsx"),
    route("tarifs", "routes/tarifs.tsx"),
    route("galerie", "routes/galerie.tsx"),
    route("boudoir", "routes/boudoir.tsx"),

    // Studios, contact pages, legal pages (issue 2/5)
    // One module per kind of page; the path names the studio (see components/studio/studio-from-path).
    ...studios.map((studio) =>
      route(studio.pagePath.slice(1), "routes/studio.tsx", { id: `studio-${studio.id}` }),
    ),
    route("contact", "routes/contact.tsx"),
    ...studios.map((studio) =>
      route(studio.contactPath.slice(1), "routes/contact-studio.tsx", {
        id: `contact-studio-${studio.id}`,
      }),
    ),
    route("mentions-legales", "routes/mentions-legales.tsx"),
    route("donnees-personnelles", "routes/donnees-personnelles.tsx"),
    route("politique-cookies", "routes/politique-cookies.tsx"),

    // Blog (issue 3/5)
    route("blog", "routes/blog.tsx"),
    route("blog/:slug", "routes/blog-article.tsx"),
    route("blog/categorie/:slug", "routes/blog-category.tsx"),

    // Unknown addresses, and the old addresses of content/redirects.ts (301 to their new page).
    route("*", "routes/not-found.tsx"),
  ]),

  // Admin (issue 4/5)
  route("admin", "routes/admin/index.ts"),
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/verification", "routes/admin/verification.tsx"),
  route("admin/mot-de-passe-oublie", "routes/admin/mot-de-passe-oublie.tsx"),
  route("admin/reinitialiser-mot-de-passe", "routes/admin/reinitialiser-mot-de-passe.tsx"),
  route("admin/logout", "routes/admin/logout.ts"),
  route("admin/images", "routes/admin/images.ts"),
  route("admin/articles/brouillon", "routes/admin/article-autosave.ts"),
  route("admin/subscribers/export.csv", "routes/admin/subscribers-export.ts"),
  route("admin/medias/televerser/envoi", "routes/admin/media-upload-xhr.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin/dashboard", "routes/admin/dashboard.tsx"),
    route("admin/articles/nouveau", "routes/admin/article-new.tsx"),
    route("admin/articles/:id/modifier", "routes/admin/article-edit.tsx"),
    route("admin/articles/:id/apercu", "routes/admin/article-preview.tsx"),
    route("admin/categories", "routes/admin/categories.tsx"),
    route("admin/subscribers", "routes/admin/subscribers.tsx"),
    route("admin/messages", "routes/admin/messages.tsx"),
    route("admin/securite", "routes/admin/security.tsx"),
    route("admin/administrateurs", "routes/admin/administrateurs.tsx"),
    route("admin/medias", "routes/admin/medias.tsx"),
    route("admin/medias/televerser", "routes/admin/media-upload.tsx"),
    route("admin/medias/emplacements", "routes/admin/media-slots.tsx"),
    route("admin/medias/emplacements/choisir", "routes/admin/media-slot.tsx"),
    route("admin/medias/galerie", "routes/admin/media-gallery.tsx"),
    route("admin/medias/:id", "routes/admin/media-edit.tsx"),
  ]),

  // Resource routes: feeds, sitemap, robots (issue 3/5)
  route("blog/rss.xml", "routes/blog-rss.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
] satisfies RouteConfig;
