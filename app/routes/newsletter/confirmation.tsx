import type { Route } from "./+types/confirmation";
import type { SiteHandle } from "../site-layout";
import {
  BackToBlog,
  LinkButton,
  NewsletterLinkPage,
  UnusableLinkPage,
} from "~/components/newsletter/link-page";
import { CONFIRMATION_LIFETIME_DAYS } from "~/lib/newsletter-links";
import { siteFrom, useSite } from "~/lib/public-site";
import { ofName } from "~/lib/french";

export { action, headers, loader } from "./confirmation.server";

export const handle: SiteHandle = { solidHeader: true };

/*
 * /newsletter/confirmation?token=… (double opt-in, decision record 0081): the link of the confirmation
 * e-mail opens this page, and only its button confirms, so that a mail scanner opening links subscribes
 * nobody.
 */

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Confirmation de votre inscription | ${siteFrom(matches).brand}` },
  { name: "robots", content: "noindex, nofollow" },
];

const UNUSABLE_LINK = {
  invalid: {
    title: "Lien invalide",
    text: "Ce lien de confirmation n'est pas valide : il a peut-être été mal copié ou coupé. Ouvrez-le directement depuis l'email reçu, ou inscrivez-vous de nouveau depuis le blog.",
  },
  gone: {
    title: "Lien expiré",
    text: `Ce lien de confirmation n'est plus valable : il expire au bout de ${CONFIRMATION_LIFETIME_DAYS} jours, et l'inscription qu'il devait confirmer n'existe plus. Inscrivez-vous de nouveau depuis le blog : vous recevrez un nouveau lien.`,
  },
  sample: {
    title: "Lien d'un email de test",
    text: "Ce lien vient d'un email de test ou d'un aperçu : il ne correspond à aucune inscription, et rien n'a été modifié.",
  },
};

export default function NewsletterConfirmation({ loaderData, actionData }: Route.ComponentProps) {
  const { brand } = useSite();
  const { target, event, notice } = actionData ?? loaderData;

  if (target.kind !== "subscriber") {
    return (
      <UnusableLinkPage
        kind={target.kind}
        words={UNUSABLE_LINK}
        notice={notice}
        answered={actionData}
      />
    );
  }

  if (target.status === "pending") {
    return (
      <NewsletterLinkPage title="Confirmez votre inscription" notice={notice} answered={actionData}>
        <p>
          Vous avez demandé à recevoir la newsletter {ofName(brand)} à l'adresse{" "}
          <strong>{target.email}</strong>. Cliquez sur le bouton ci-dessous pour confirmer votre
          inscription : vous recevrez ensuite un email à chaque nouvel article.
        </p>
        <LinkButton token={target.token} label="Confirmer mon inscription" />
      </NewsletterLinkPage>
    );
  }
  if (target.status === "active") {
    return event === "confirmed" ? (
      <NewsletterLinkPage title="Inscription confirmée" answered={actionData}>
        <p>
          Merci ! L'adresse <strong>{target.email}</strong> recevra nos prochains articles par
          email. Chaque email contient un lien pour vous désinscrire à tout moment.
        </p>
        <BackToBlog />
      </NewsletterLinkPage>
    ) : (
      <NewsletterLinkPage title="Inscription déjà confirmée" answered={actionData}>
        <p>
          Bonne nouvelle : l'adresse <strong>{target.email}</strong> est déjà inscrite à notre
          newsletter. Vous n'avez rien d'autre à faire.
        </p>
        <BackToBlog />
      </NewsletterLinkPage>
    );
  }
  return (
    <NewsletterLinkPage title="Vous êtes désabonné·e" answered={actionData}>
      <p>
        L'adresse <strong>{target.email}</strong> s'est désabonnée de la newsletter depuis l'envoi
        de ce lien : elle ne recevra rien. Pour recevoir de nouveau nos articles, inscrivez-vous
        depuis le blog.
      </p>
      <BackToBlog />
    </NewsletterLinkPage>
  );
}
