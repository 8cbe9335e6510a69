import type { Route } from "./+types/desabonnement";
import type { SiteHandle } from "../site-layout";
import {
  BackToBlog,
  LinkButton,
  NewsletterLinkPage,
  UnusableLinkPage,
} from "~/components/newsletter/link-page";
import {
  RESUBSCRIBE_CONSENT_TEXT,
  RESUBSCRIBE_INTENT,
  type LinkEvent,
} from "~/lib/newsletter-links";
import { siteFrom, useSite } from "~/lib/public-site";
import { ofName } from "~/lib/french";

export { action, headers, loader } from "./desabonnement.server";

export const handle: SiteHandle = { solidHeader: true };

/*
 * /newsletter/desabonnement?token=… (decision record 0081): every newsletter's own unsubscribe link. GET
 * shows the page and its « Me désabonner » button; a POST unsubscribes: the button, or the mail provider's
 * one-click request of RFC 8058 (body `List-Unsubscribe=One-Click`, no cookie, another site's Origin or
 * none: the signed token in the address is the whole authority, see http/origin-check.server.ts). Once
 * unsubscribed, the page offers « Me réinscrire ».
 */

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Désabonnement de la newsletter | ${siteFrom(matches).brand}` },
  { name: "robots", content: "noindex, nofollow" },
];

function Resubscribe({ token }: { token: string }) {
  return (
    <>
      <p>C'était une erreur ? Vous pouvez vous réinscrire. {RESUBSCRIBE_CONSENT_TEXT}</p>
      <LinkButton
        token={token}
        intent={RESUBSCRIBE_INTENT}
        label="Me réinscrire"
        variant="outline"
      />
    </>
  );
}

const UNUSABLE_LINK = {
  invalid: {
    title: "Lien invalide",
    text: "Ce lien de désabonnement n'est pas valide : il a peut-être été mal copié ou coupé. Ouvrez-le directement depuis l'un de nos emails, ou écrivez-nous : nous vous désabonnerons.",
  },
  gone: {
    title: "Adresse introuvable",
    text: "Cette adresse ne figure plus dans notre liste d'abonné·e·s : vous ne recevrez plus notre newsletter.",
  },
  sample: {
    title: "Lien d'un email de test",
    text: "Ce lien vient d'un email de test ou d'un aperçu de la newsletter : il ne correspond à aucun·e abonné·e, et rien n'a été modifié.",
  },
};

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
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

  const { email, token } = target;
  if (target.status === "unsubscribed") {
    return (
      <NewsletterLinkPage title="Vous êtes désabonné·e" notice={notice} answered={actionData}>
        <p>
          {unsubscribedText(event)} L'adresse <strong>{email}</strong> ne recevra plus la newsletter
          {ofName(brand)}.
        </p>
        <Resubscribe token={token} />
      </NewsletterLinkPage>
    );
  }
  if (event === "confirmation_sent") {
    return (
      <NewsletterLinkPage title="Confirmez votre réinscription" answered={actionData}>
        <p>
          Pour être sûrs que cette demande vient bien de vous, nous avons envoyé un email de
          confirmation à l'adresse <strong>{email}</strong>. Ouvrez-le et cliquez sur
          «&nbsp;Confirmer mon inscription&nbsp;» : vous recevrez de nouveau nos articles. Sans
          confirmation, vous ne recevrez rien.
        </p>
        <BackToBlog />
      </NewsletterLinkPage>
    );
  }
  return (
    <NewsletterLinkPage
      title="Se désabonner de la newsletter"
      notice={notice}
      answered={actionData}
    >
      <p>
        L'adresse <strong>{email}</strong> est inscrite à la newsletter {ofName(brand)}. Cliquez sur
        le bouton ci-dessous pour vous désabonner : vous ne recevrez plus nos articles par email.
      </p>
      <LinkButton token={token} label="Me désabonner" />
    </NewsletterLinkPage>
  );
}

function unsubscribedText(event: LinkEvent | undefined): string {
  return event === "unsubscribed" ? "C'est fait." : "Votre désabonnement est déjà enregistré.";
}
