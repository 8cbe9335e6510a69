import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// The route table, following SPEC §2.
export default [
  layout("routes/site-layout.tsx", [
    index("routes/accueil.tsx"),

    // Services, prices, gallery
    route("prestations", "routes/prestations/index.tsx"),
    route("portrait-famille", "routes/portrait-famille.tsx"),
    route("prestations/grossesse", "routes/prestations/grossesse.tsx"),
    route("prestations/naissances", "routes/prestations/naissances.tsx"),
    route("prestations/mariages", "routes/prestations/mariages.tsx"),
    route("seances-a-offrir", "routes/seances-a-offrir.tsx"),
    route("professionnels", "routes/professionnels.tsx"),
    route("gendarmerie", "routes/gendarmerie.tsx"),
    route("scolaire", "routes/scolaire.tsx"),
    route("tarifs", "routes/tarifs.tsx"),
    route("galerie", "routes/galerie.tsx"),
    route("boudoir", "routes/boudoir.tsx"),

    // Contact, legal pages
    route("contact", "routes/contact.tsx"),
    route("mentions-legales", "routes/mentions-legales.tsx"),
    route("donnees-personnelles", "routes/donnees-personnelles.tsx"),
    route("politique-cookies", "routes/politique-cookies.tsx"),

    // Blog
    route("blog", "routes/blog/index.tsx"),
    route("blog/:slug", "routes/blog/article.tsx"),
    route("blog/categorie/:slug", "routes/blog/categorie.tsx"),

    // The newsletter's e-mailed links (decision 0081): confirmation of a sign-up, unsubscribe. Not for crawlers.
    route("newsletter/confirmation", "routes/newsletter/confirmation.tsx"),
    route("newsletter/desabonnement", "routes/newsletter/desabonnement.tsx"),

    // Booking: visitor (decision 0115; addresses in app/lib/booking/urls.ts)
    route("reserver", "routes/reserver/index.tsx"),
    route("reserver/:studio", "routes/reserver/studio.tsx"),
    route("reserver/:studio/:seance", "routes/reserver/seance.tsx"),
    route("reserver/:studio/:seance/coordonnees", "routes/reserver/coordonnees.tsx"),
    route("reservation/:token", "routes/reservation/index.tsx"),

    // Gift vouchers (decision 0166): the order form, the buyer's order page and its voucher's PDF.
    route("bons-cadeaux", "routes/bons-cadeaux.tsx"),
    route("commande/:token", "routes/commande/index.tsx"),

    // The studios are data (decision 0070): /studio-{slug} and /contact-studio-{slug} are judged by one route
    // of one segment, below every static page, with the old addresses (301) and the 404s of one segment.
    route(":page", "routes/page.tsx"),
    // Unknown addresses of several segments, and the old addresses among them (301 to their new page).
    route("*", "routes/not-found.tsx"),
  ]),

  route("commande/:token/bon.pdf", "routes/commande/bon-pdf.ts"),
  route("commande/:token/facture/:file", "routes/commande/facture-pdf.ts"),

  // Admin (every loader and action checks the administrator itself: loaders run in parallel)
  route("admin", "routes/admin/index.ts"),
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/verification", "routes/admin/verification.tsx"),
  route("admin/mot-de-passe-oublie", "routes/admin/mot-de-passe-oublie.tsx"),
  route("admin/reinitialiser-mot-de-passe", "routes/admin/reinitialiser-mot-de-passe.tsx"),
  route("admin/premier-administrateur", "routes/admin/premier-administrateur.tsx"),
  route("admin/logout", "routes/admin/logout.ts"),
  route("admin/images", "routes/admin/images.ts"),
  route("admin/articles/brouillon", "routes/admin/articles/brouillon.ts"),
  route("admin/subscribers/export.csv", "routes/admin/subscribers/export.ts"),
  route("admin/medias/televerser/envoi", "routes/admin/medias/televerser/envoi.ts"),
  route("admin/pages-du-site", "routes/admin/pages-du-site.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin/dashboard", "routes/admin/dashboard.tsx"),
    route("admin/articles/nouveau", "routes/admin/articles/nouveau.tsx"),
    route("admin/articles/:id/modifier", "routes/admin/articles/modifier.tsx"),
    route("admin/articles/:id/apercu", "routes/admin/articles/apercu.tsx"),
    route("admin/categories", "routes/admin/categories.tsx"),
    route("admin/subscribers", "routes/admin/subscribers/index.tsx"),
    route("admin/subscribers/importer", "routes/admin/subscribers/importer.tsx"),
    route("admin/newsletter", "routes/admin/newsletter/index.tsx"),
    route("admin/messages", "routes/admin/messages.tsx"),
    route("admin/securite", "routes/admin/securite.tsx"),
    route("admin/administrateurs", "routes/admin/administrateurs.tsx"),
    route("admin/studios", "routes/admin/studios/index.tsx"),
    route("admin/studios/nouveau", "routes/admin/studios/nouveau.tsx"),
    route("admin/studios/:id", "routes/admin/studios/studio.tsx"),
    route("admin/redirections", "routes/admin/redirections.tsx"),
    route("admin/site", "routes/admin/site.tsx"),
    route("admin/tarifs", "routes/admin/tarifs/index.tsx"),
    route("admin/tarifs/gendarmerie", "routes/admin/tarifs/gendarmerie.tsx"),
    route("admin/tarifs/seances-a-offrir", "routes/admin/tarifs/seances-a-offrir.tsx"),
    route("admin/tarifs/temoignages", "routes/admin/tarifs/temoignages.tsx"),
    // Payments (decision 0162): what is on sale, the ways of paying, the card's keys.
    route("admin/reglages/paiement", "routes/admin/reglages/paiement.tsx"),
    // Sales and gift vouchers (decision 0162): the orders paged on the server, an order's timeline.
    route("admin/ventes", "routes/admin/ventes/index.tsx"),
    route("admin/ventes/:id", "routes/admin/ventes/commande.tsx"),
    route("admin/bons-cadeaux", "routes/admin/bons-cadeaux/index.tsx"),
    // Invoices and credit notes (decision 0181); each one's PDF is outside the layout, below.
    route("admin/factures", "routes/admin/factures/index.tsx"),
    // The accountant's files for a period (decision 0182); each file outside the layout, below.
    route("admin/comptabilite", "routes/admin/comptabilite/index.tsx"),
    route("admin/medias", "routes/admin/medias/index.tsx"),
    route("admin/medias/televerser", "routes/admin/medias/televerser/index.tsx"),
    route("admin/medias/emplacements", "routes/admin/medias/emplacements/index.tsx"),
    route("admin/medias/emplacements/choisir", "routes/admin/medias/emplacements/choisir.tsx"),
    route("admin/medias/galerie", "routes/admin/medias/galerie.tsx"),
    route("admin/medias/:id", "routes/admin/medias/media.tsx"),
    // Sending an article by e-mail (decision 0084)
    route("admin/newsletter/envoyer/:id", "routes/admin/newsletter/envoyer/index.tsx"),
    route("admin/newsletter/envois/:id", "routes/admin/newsletter/envois/index.tsx"),

    // Client galleries (decision 0103): the owner's pages.
    route("admin/galeries/:id", "routes/admin/galeries/galerie/index.tsx"),
    route("admin/galeries", "routes/admin/galeries/index.tsx"),
    route("admin/galeries/nouvelle", "routes/admin/galeries/nouvelle.tsx"),
    route("admin/galeries/:id/reglages", "routes/admin/galeries/galerie/reglages.tsx"),
    route("admin/galeries/:id/selection", "routes/admin/galeries/galerie/selection.tsx"),
    route("admin/galeries/:id/envoyer", "routes/admin/galeries/galerie/envoyer.tsx"),

    // Booking: admin (decision 0116): the agenda, the session types, the photographers and the owner's feed
    // (its address, outside /admin, right after this layout: its secret is its only key).
    route("admin/reservations", "routes/admin/reservations/index.tsx"),
    route("admin/reservations/nouvelle", "routes/admin/reservations/nouvelle.tsx"),
    route("admin/reservations/export.csv", "routes/admin/reservations/export.ts"),
    route("admin/reservations/seances", "routes/admin/reservations/seances/index.tsx"),
    route("admin/reservations/seances/nouvelle", "routes/admin/reservations/seances/nouvelle.tsx"),
    route("admin/reservations/seances/:id", "routes/admin/reservations/seances/seance.tsx"),
    route("admin/reservations/reglages", "routes/admin/reservations/reglages.tsx"),
    route("admin/reservations/:id", "routes/admin/reservations/reservation.tsx"),
    // Backups (decision 0118): health, list, back up now, check, restore with a typed word.
    route("admin/sauvegardes", "routes/admin/sauvegardes/index.tsx"),
    route("admin/aide", "routes/admin/aide.tsx"),
  ]),
  route("calendrier/:file", "routes/calendrier.ts"),
  route("reservation/:token/seance.ics", "routes/reservation/ics.ts"),
  // The invoices of the gift vouchers' uses that paid the booking (decisions 0199 and 0201), for its client.
  route("reservation/:token/facture/:file", "routes/reservation/facture-pdf.ts"),
  route("admin/newsletter/envoyer/:id/apercu", "routes/admin/newsletter/envoyer/apercu.ts"),
  route("admin/newsletter/envois/:id/progression", "routes/admin/newsletter/envois/progression.ts"),
  // A backup's download (signed link + session) and a restore followed outside the layout: the restore
  // may end the owner's session (decision 0118).
  route("admin/sauvegardes/telecharger/:name", "routes/admin/sauvegardes/telecharger.ts"),
  // The latest backup from the link e-mailed each month (decision 0139): signed link + session.
  route("admin/sauvegardes/derniere", "routes/admin/sauvegardes/derniere.ts"),
  route("admin/sauvegardes/restauration/:id", "routes/admin/sauvegardes/restauration.tsx"),

  // Client galleries (decision 0103): the owner's resource routes (progress, previews).
  route("admin/galeries/:id/progression", "routes/admin/galeries/galerie/progression.ts"),
  route("admin/galeries/:id/photos/:photoId/:file", "routes/admin/galeries/galerie/photo.ts"),
  route("admin/galeries/:id/selection.csv", "routes/admin/galeries/galerie/selection-csv.ts"),

  // An invoice's or credit note's PDF for the owner (decision 0181), the accountant's CSV files (0182).
  route("admin/factures/:file", "routes/admin/factures/pdf.ts"),
  route("admin/comptabilite/:file", "routes/admin/comptabilite/fichier.ts"),

  // Client galleries: resumable uploads of the photos (decision 0101).
  route("admin/envois", "routes/admin/envois/index.ts"),
  route("admin/envois/formulaire/:galleryId", "routes/admin/envois/formulaire.ts"),
  route("admin/envois/:uploadId", "routes/admin/envois/morceau.ts"),

  // Client galleries: the client's pages and files, never listed (decision 0103).
  layout("routes/galerie-client/layout.tsx", [
    route("galerie-client/:id", "routes/galerie-client/index.tsx"),
  ]),
  route("galerie-client/:id/photos/:photoId/:file", "routes/galerie-client/photo.ts"),
  route("galerie-client/:id/telecharger/:photoId", "routes/galerie-client/telecharger.ts"),

  // Client galleries: every photo in one ZIP (decision 0104).
  route("galerie-client/:id/telecharger.zip", "routes/galerie-client/zip.ts"),

  // Resource routes: feeds, sitemap, robots
  route("blog/rss.xml", "routes/blog/rss.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
] satisfies RouteConfig;
