import { Link } from "react-router";
import type { Route } from "./+types/politique-cookies";
import type { SiteHandle } from "./site-layout";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { cnil, cookies } from "~/content/legal";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./politique-cookies.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFrom(matches);
  return seo({
    title: `Politique cookies | ${site.brand}`,
    description: `${site.brand} n'utilise aucun cookie de suivi : seuls des cookies strictement nécessaires à l'espace d'administration et aux galeries privées des clients, donc pas de bandeau de consentement.`,
    path: "/politique-cookies",
    matches,
  });
};

export default function PolitiqueCookies({ loaderData }: Route.ComponentProps) {
  const { privacyContact } = loaderData;
  return (
    <LegalPage
      title="Politique cookies"
      intro={
        <p>
          En bref : ce site ne vous suit pas. Aucun cookie de mesure d'audience, de publicité ou de
          réseau social n'est déposé sur votre appareil quand vous le visitez.
        </p>
      }
    >
      <LegalSection id="definition" title="Qu'est-ce qu'un cookie ?">
        <p>
          Un cookie est un petit fichier qu'un site enregistre dans votre navigateur pour le
          reconnaître d'une page à l'autre. La loi distingue les cookies strictement nécessaires au
          fonctionnement d'un service, qui ne demandent pas votre accord, de tous les autres (mesure
          d'audience, publicité…), qui le demandent.
        </p>
      </LegalSection>

      <LegalSection id="nos-cookies" title="Les cookies que nous utilisons">
        <p>
          Seulement des cookies strictement nécessaires : pour les administrateurs du site
          lorsqu'ils se connectent à l'espace d'administration, et pour un client qui ouvre sa
          galerie privée avec son code d'accès. Un visiteur qui consulte les pages, lit le blog ou
          nous écrit n'en reçoit aucun.
        </p>
        <div className="mt-4 overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">Cookies déposés par le site</caption>
            <thead>
              <tr className="border-b border-border">
                <th scope="col" className="py-2 pr-4 font-semibold text-foreground">
                  Nom
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold text-foreground">
                  À quoi il sert
                </th>
                <th scope="col" className="py-2 font-semibold text-foreground">
                  Durée
                </th>
              </tr>
            </thead>
            <tbody>
              {cookies.map((cookie) => (
                <tr key={cookie.name} className="border-b border-border align-top">
                  <td className="py-2 pr-4 font-mono text-xs text-foreground">{cookie.name}</td>
                  <td className="py-2 pr-4">{cookie.purpose}</td>
                  <td className="py-2">{cookie.lifetime}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </LegalSection>

      <LegalSection id="bandeau" title="Pourquoi pas de bandeau de consentement ?">
        <p>
          Parce qu'il n'y a rien à accepter : sans cookie de suivi, la loi n'exige pas de recueillir
          votre consentement (article 82 de la loi Informatique et Libertés et recommandations de la
          CNIL). Les polices de caractères et les images sont servies par notre propre serveur :
          votre visite ne déclenche aucune requête vers un service tiers.
        </p>
      </LegalSection>

      <LegalSection id="video" title="Les vidéos">
        <p>
          Certaines pages, comme celle de l'offre <Link to="/gendarmerie">Gendarmerie</Link>,
          présentent une vidéo hébergée sur YouTube. Tant que vous ne cliquez pas dessus, vous ne
          voyez qu'une image fixe servie par notre site : rien n'est chargé depuis YouTube et aucun
          cookie n'est déposé. Si vous lancez la lecture, la vidéo est chargée depuis
          youtube-nocookie.com, le mode de confidentialité renforcée de YouTube, qui n'enregistre
          pas d'informations sur vous tant que vous ne regardez pas la vidéo ; YouTube applique
          alors sa propre politique de confidentialité.
        </p>
      </LegalSection>

      <LegalSection id="liens-externes" title="Les liens vers d'autres sites">
        <p>
          Les boutons de réservation en ligne, de bons cadeaux, de galeries et de réseaux sociaux
          ouvrent d'autres sites, qui ont leur propre politique cookies. Rien n'est chargé depuis
          ces sites tant que vous ne cliquez pas.
        </p>
      </LegalSection>

      <LegalSection id="controle" title="Garder la main">
        <p>
          Vous pouvez à tout moment consulter et effacer les cookies depuis les réglages de votre
          navigateur. Pour en savoir plus :{" "}
          <a href={`${cnil.website}/fr/cookies-et-autres-traceurs`}>cnil.fr</a>. Pour toute
          question, écrivez-nous à <a href={`mailto:${privacyContact}`}>{privacyContact}</a> ; voir
          aussi nos <Link to="/donnees-personnelles">données personnelles</Link>.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
