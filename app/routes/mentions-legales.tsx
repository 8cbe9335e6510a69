import { Link } from "react-router";
import type { Route } from "./+types/mentions-legales";
import type { SiteHandle } from "./site-layout";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { VAT_EXEMPT_MENTION } from "~/lib/legal/seller";
import { siteFrom, telHref } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./mentions-legales.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFrom(matches);
  return seo({
    title: `Mentions légales | ${site.brand}`,
    description: `Mentions légales du site ${site.brand} : éditeur, directeur de la publication, hébergeur, propriété intellectuelle.`,
    path: "/mentions-legales",
    matches,
  });
};

export default function MentionsLegales({ loaderData }: Route.ComponentProps) {
  const { legal, siren, vatExempt } = loaderData;
  const { host } = legal;
  const publisher = legal;
  return (
    <LegalPage
      title="Mentions légales"
      intro={
        <p>
          Conformément à l'article 6 de la loi n° 2004-575 du 21 juin 2004 pour la confiance dans
          l'économie numérique, voici l'identité des personnes qui éditent et hébergent ce site.
        </p>
      }
    >
      <LegalSection id="editeur" title="Éditeur du site">
        <ul>
          <li>Raison sociale : {publisher.companyName}</li>
          <li>Forme juridique : {publisher.legalForm}</li>
          <li>Siège social : {publisher.address}</li>
          <li>Immatriculation : {publisher.rcs}</li>
          {siren ? <li>SIREN : {siren}</li> : null}
          <li>SIRET : {publisher.siret}</li>
          {publisher.vatNumber ? (
            <li>Numéro de TVA intracommunautaire : {publisher.vatNumber}</li>
          ) : null}
          {vatExempt ? <li>{VAT_EXEMPT_MENTION}</li> : null}
          <li>
            Téléphone :{" "}
            <a className="inline-flex min-h-11 items-center" href={telHref(publisher.phone)}>
              {publisher.phone}
            </a>
          </li>
          <li>
            Email : <a href={`mailto:${publisher.email}`}>{publisher.email}</a>
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="directeur" title="Directeur de la publication">
        <p>{legal.publicationDirector}</p>
      </LegalSection>

      <LegalSection id="hebergeur" title="Hébergeur">
        <ul>
          <li>{host.name}</li>
          <li>{host.address}</li>
          <li>Téléphone : {host.phone}</li>
          {host.website ? (
            <li>
              Site : <a href={host.website}>{host.website.replace(/^https?:\/\//, "")}</a>
            </li>
          ) : null}
        </ul>
      </LegalSection>

      <LegalSection id="propriete" title="Propriété intellectuelle">
        <p>
          Les photographies, textes, logos et éléments graphiques de ce site sont la propriété de{" "}
          {publisher.companyName} ou de leurs auteurs, et sont protégés par le Code de la propriété
          intellectuelle. Toute reproduction, représentation ou diffusion, totale ou partielle, sans
          autorisation écrite préalable est interdite.
        </p>
        <p>
          Les personnes photographiées ont donné leur accord à la publication de leurs images. Si
          vous figurez sur une photo et souhaitez qu'elle soit retirée, écrivez-nous à{" "}
          <a href={`mailto:${publisher.email}`}>{publisher.email}</a> : nous la retirons sans délai.
        </p>
      </LegalSection>

      <LegalSection id="liens" title="Liens vers d'autres sites">
        <p>
          Le site renvoie vers des services extérieurs (réservation en ligne, bons cadeaux, galeries
          de livraison des photos, réseaux sociaux). Ces sites ont leurs propres conditions et leur
          propre politique de confidentialité, dont nous ne sommes pas responsables.
        </p>
      </LegalSection>

      <LegalSection id="conditions-reservation" title="Conditions de réservation des séances">
        <ul>
          <li>
            Une séance réservée en ligne est confirmée dès la fin de la réservation ; une séance «
            sur demande » l'est quand le studio l'accepte (vous recevez sa réponse par email dans le
            délai indiqué, le créneau vous étant gardé d'ici là).
          </li>
          <li>
            Vous pouvez déplacer ou annuler votre séance vous-même, depuis le lien personnel reçu
            par email, jusqu'au délai indiqué pour la séance (48 heures avant, sauf mention
            contraire) ; ensuite, appelez le studio.
          </li>
          <li>
            Le prix et, le cas échéant, l'acompte ou les arrhes sont ceux affichés lors de la
            réservation. Quand un paiement est demandé à la réservation (par carte, par virement ou
            au studio, selon ce qui est proposé), la réservation attend ce paiement et son créneau
            vous est gardé 35 minutes pour une carte, le délai indiqué pour un virement ; sans
            paiement dans ce délai, le créneau se libère et rien n'est débité. Une séance « sur
            demande » se paie une fois acceptée. Le reste se règle au studio.
          </li>
          <li>
            Des <strong>arrhes</strong> permettent à chacun de renoncer à la séance : si vous
            annulez, vous les perdez ; si le studio annule, il vous rend le double. Un{" "}
            <strong>acompte</strong> engage définitivement le client et le studio (article L214-1 du
            Code de la consommation). La page de réservation dit lequel des deux s'applique.
          </li>
          <li>
            Annulée en ligne avant le délai indiqué, la séance vous est remboursée (aussitôt ou par
            le studio, qui vous en informe) ; après ce délai, la somme versée reste acquise au
            studio, selon les conditions acceptées lors de la réservation, qui figurent sur votre
            page de réservation. Annulée par le studio, la somme versée est remboursée en entier, et
            le studio doit en plus la même somme pour des arrhes.
          </li>
          <li>
            Le studio peut déplacer ou annuler une séance en cas d'empêchement : il vous prévient
            par email et vous propose un autre créneau.
          </li>
          <li>
            En cas de retard important ou d'absence sans prévenir, la séance peut être écourtée ou
            considérée comme effectuée.
          </li>
        </ul>
      </LegalSection>

      {legal.mediator.name ? (
        <LegalSection id="mediation" title="Médiation de la consommation">
          <p>
            En cas de litige, adressez d'abord une réclamation écrite au studio (
            <a href={`mailto:${publisher.email}`}>{publisher.email}</a>). Si elle n'aboutit pas,
            vous pouvez recourir gratuitement au médiateur de la consommation dont nous relevons,
            dans l'année qui suit votre réclamation (articles L611-1 et suivants du Code de la
            consommation) : {legal.mediator.name}
            {legal.mediator.website ? (
              <>
                ,{" "}
                <a href={legal.mediator.website}>
                  {legal.mediator.website.replace(/^https?:\/\//, "")}
                </a>
              </>
            ) : null}
            .
          </p>
        </LegalSection>
      ) : null}

      <LegalSection id="donnees" title="Données personnelles et cookies">
        <p>
          La manière dont nous traitons vos données est décrite dans la page{" "}
          <Link to="/donnees-personnelles">Données personnelles</Link> ; les cookies utilisés, dans
          la <Link to="/politique-cookies">Politique cookies</Link>.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
