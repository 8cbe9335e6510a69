import { Link } from "react-router";
import type { Route } from "./+types/donnees-personnelles";
import type { SiteHandle } from "./site-layout";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { cnil, legalPolicy } from "~/content/legal";
import { siteFrom, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { ofName } from "~/lib/french";
export { loader } from "./donnees-personnelles.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFrom(matches);
  return seo({
    title: `Données personnelles | ${site.brand}`,
    description: `Quelles données ${site.brand} collecte (messages de contact, newsletter, galeries clients, comptes administrateurs), pourquoi, combien de temps (${legalPolicy.retentionMonths} mois) et comment exercer vos droits.`,
    path: "/donnees-personnelles",
    matches,
  });
};

export default function DonneesPersonnelles({ loaderData }: Route.ComponentProps) {
  const { publisher, privacyContact, galleryPurgeDays } = loaderData;
  const { retentionMonths, responseDelayMonths } = legalPolicy;
  const site = useSite();
  const mail = <a href={`mailto:${privacyContact}`}>{privacyContact}</a>;
  return (
    <LegalPage
      title="Données personnelles"
      intro={
        <p>
          Nous ne collectons que ce qui nous sert à vous répondre et à vous photographier. Cette
          page explique quelles données nous gardons, pourquoi, combien de temps, et comment vous
          pouvez les consulter, les corriger ou les faire effacer, conformément au Règlement général
          sur la protection des données (RGPD) et à la loi Informatique et Libertés.
        </p>
      }
    >
      <LegalSection id="responsable" title="Responsable du traitement">
        <p>
          {publisher.companyName}, {publisher.address}. Pour toute question sur vos données : {mail}
          .
        </p>
      </LegalSection>

      <LegalSection id="donnees-collectees" title="Les données que nous collectons et pourquoi">
        <h3 className="mt-6 text-lg font-semibold text-foreground">
          Messages des formulaires de contact
        </h3>
        <p>
          Quand vous nous écrivez depuis une page de contact, nous enregistrons le studio choisi, le
          type de séance, vos prénom et nom, votre adresse email, votre téléphone (studios d'Ussel
          et de Brive), votre message, la façon dont vous nous avez connus si vous l'indiquez, et la
          date d'envoi. Le message est aussi transmis par email au studio concerné.
        </p>
        <p>
          Finalité : répondre à votre demande, vous proposer un devis ou un rendez-vous. Base légale
          : les mesures précontractuelles prises à votre demande.
        </p>
        <h3 className="mt-6 text-lg font-semibold text-foreground">Newsletter du blog</h3>
        <p>
          Si vous vous inscrivez, nous gardons votre adresse email, la date d'inscription et le
          formulaire utilisé (preuve de votre accord).
        </p>
        <p>
          Finalité : vous envoyer nos nouveaux articles. Base légale : votre consentement, que vous
          pouvez retirer à tout moment en nous écrivant ou depuis le lien de désinscription.
        </p>
        <h3 className="mt-6 text-lg font-semibold text-foreground">Galeries clients</h3>
        <p>
          Pour vous livrer vos photos, nous conservons votre nom, votre adresse email, vos favoris
          et vos commentaires avec les photos de votre séance, ainsi que la date de votre dernière
          visite de la galerie. Les photos que vous téléchargez ne contiennent aucune donnée de
          localisation.
        </p>
        <p>
          Finalité : vous remettre vos photos et recevoir votre sélection. Base légale : l'exécution
          du contrat de prestation photographique.
        </p>
        <h3 id="reservations" className="mt-6 text-lg font-semibold text-foreground">
          Réservations en ligne
        </h3>
        <p>
          Quand vous réservez une séance sur le site, nous enregistrons le studio, la séance, le
          jour et l'heure choisis, vos nom, adresse email et téléphone, vos réponses aux questions
          du studio, la date à laquelle vous avez accepté les conditions de réservation, et
          l'historique de la réservation (demande, confirmation, déplacement, annulation). Votre
          lien personnel n'est conservé que sous une forme chiffrée et irréversible. Vous recevez
          les emails de confirmation et de rappel (48 heures et 2 heures avant la séance) ; le
          studio reçoit une copie de chaque réservation.
        </p>
        <p>
          Finalité : organiser votre séance, vous la rappeler et vous permettre de la déplacer ou de
          l'annuler. Base légale : l'exécution du contrat de prestation photographique (et les
          mesures précontractuelles pour une demande).
        </p>
        <h3 className="mt-6 text-lg font-semibold text-foreground">Comptes administrateurs</h3>
        <p>
          Pour les personnes de l'équipe qui gèrent le blog : adresse email, nom, mot de passe
          (conservé uniquement sous forme chiffrée et irréversible), réglages de double
          authentification et sessions de connexion (date, adresse IP, navigateur).
        </p>
        <p>
          Finalité : sécuriser l'accès à l'administration du site. Base légale : notre intérêt
          légitime à protéger le site.
        </p>
        <h3 className="mt-6 text-lg font-semibold text-foreground">Protection contre les abus</h3>
        <p>
          Pour limiter les envois répétés et les tentatives de connexion, l'adresse IP d'où vient
          une demande est comptée pendant quelques minutes, puis le compteur est effacé. Base légale
          : notre intérêt légitime à protéger le site et nos boîtes de réception.
        </p>
      </LegalSection>

      <LegalSection id="conservation" title="Combien de temps nous les gardons">
        <ul>
          <li>
            Messages de contact : {retentionMonths} mois à compter de notre dernier échange, puis
            ils sont supprimés.
          </li>
          <li>
            Newsletter : jusqu'à votre désinscription, et au plus {retentionMonths} mois sans
            activité de votre part.
          </li>
          <li>
            Galeries clients : la galerie et tous ses fichiers sont effacés automatiquement à la
            date indiquée par le studio (par défaut {galleryPurgeDays} jours après sa date
            d'expiration) ; au plus tard {retentionMonths} mois après votre dernière visite, vos
            nom, adresse et commentaires sont effacés.
          </li>
          <li>
            Réservations en ligne : {retentionMonths} mois après la date de la séance (ou de sa
            dernière modification), puis elles sont effacées avec leur historique.
          </li>
          <li>Comptes administrateurs : tant que la personne administre le site.</li>
        </ul>
      </LegalSection>

      <LegalSection id="destinataires" title="Qui y a accès">
        <p>
          Seule l'équipe {ofName(site.brand)} consulte vos données. Nos prestataires techniques
          (hébergement du site, envoi des emails) les traitent pour notre compte et selon nos
          instructions. Nous ne vendons, ne louons et ne cédons jamais vos données, et nous ne les
          utilisons pas pour de la publicité.
        </p>
      </LegalSection>

      <LegalSection id="securite" title="Sécurité">
        <p>
          Le site est servi en HTTPS, les mots de passe ne sont jamais conservés en clair et l'accès
          à l'administration est réservé aux personnes habilitées.
        </p>
      </LegalSection>

      <LegalSection id="droits" title="Vos droits et comment les exercer">
        <p>Vous pouvez à tout moment :</p>
        <ul>
          <li>accéder à vos données et en obtenir une copie ;</li>
          <li>les faire rectifier ou compléter ;</li>
          <li>les faire effacer ;</li>
          <li>vous opposer à leur traitement ou en demander la limitation ;</li>
          <li>
            recevoir celles que vous nous avez fournies dans un format lisible (portabilité) ;
          </li>
          <li>retirer votre consentement (newsletter) ;</li>
          <li>définir des directives sur le sort de vos données après votre décès.</li>
        </ul>
        <p>
          Écrivez-nous à {mail} ou par courrier à {publisher.companyName}, {publisher.address}. Nous
          répondons dans un délai de {responseDelayMonths} mois au plus. En cas de doute raisonnable
          sur votre identité, nous pouvons vous demander un justificatif.
        </p>
      </LegalSection>

      <LegalSection id="cnil" title="Réclamation auprès de la CNIL">
        <p>
          Si vous estimez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation
          à la {cnil.name}, {cnil.address}, ou en ligne sur <a href={cnil.complaintUrl}>cnil.fr</a>.
        </p>
      </LegalSection>

      <LegalSection id="cookies" title="Cookies">
        <p>
          Le site n'utilise aucun cookie de mesure d'audience ni de publicité. Le détail est dans
          notre <Link to="/politique-cookies">politique cookies</Link>.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
