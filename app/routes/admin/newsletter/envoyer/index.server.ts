import { data } from "react-router";
import type { Route } from "./+types/index";
import { formatDateFr, formatLongDateTimeFr } from "~/lib/dates";
import { isUuid, parseIntent } from "~/lib/forms";
import { subscribers } from "~/lib/newsletter-admin";
import type { ToastMessage } from "~/lib/toast";
import { getArticleForAdmin } from "~/server/blog/admin-articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { log } from "~/server/logger.server";
import { mailConfig } from "~/server/mail/transport.server";
import { newsletterMode, type NewsletterMode } from "~/server/newsletter/email.server";
import {
  activeSubscriberCount,
  enqueueNewsletterTest,
  sendArticle,
  sendingOfArticle,
  type SendArticleOutcome,
} from "~/server/newsletter/sending.server";
import { redirectWithToast } from "~/server/toast.server";

/** This page's address for `mode` (the excerpt, the default, has none). */
function pagePath(articleId: string, mode: NewsletterMode): string {
  return `/admin/newsletter/envoyer/${articleId}${mode === "full" ? "?mode=full" : ""}`;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const article = isUuid(params.id) ? await getArticleForAdmin(params.id) : null;
  if (!article) {
    throw await redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Impossible de charger l'article",
    });
  }
  const mode = newsletterMode(new URL(request.url).searchParams.get("mode")) ?? "excerpt";
  const [activeSubscribers, sending] = await Promise.all([
    activeSubscriberCount(),
    sendingOfArticle(article.id),
  ]);
  return {
    article: {
      id: article.id,
      title: article.title,
      slug: article.slug,
      excerpt: article.excerpt,
      published: article.published,
      publishedOn: article.publishedAt ? formatDateFr(article.publishedAt) : null,
      scheduledFor: article.scheduledAt ? formatLongDateTimeFr(article.scheduledAt) : null,
      newsletterOnPublish: article.newsletterOnPublish,
      // What publishing requires (an autosaved draft may lack them).
      publishable: article.excerpt !== "" && article.content !== "",
    },
    activeSubscribers,
    sending: sending
      ? {
          id: sending.id,
          total: sending.total,
          status: sending.status,
          sentOn: formatLongDateTimeFr(sending.createdAt),
        }
      : null,
    mode,
    adminEmail: admin.email,
    mailConfigured: mailConfig() !== null,
  };
}

type ActionAnswer = { toast: ToastMessage };

function refused(description: string, status: number) {
  return data<ActionAnswer>(
    { toast: { type: "error", title: "Envoi impossible", description } },
    { status },
  );
}

/** Why a sending was not created, in French, with the status code a direct request gets. */
const REFUSALS: Record<Exclude<SendArticleOutcome["kind"], "created">, [string, number]> = {
  "already-sent": [
    "Cet article a déjà été envoyé aux abonnés : un article n'est jamais envoyé deux fois.",
    409,
  ],
  "not-published": [
    "Cet article n'est pas publié : utilisez « Publier et envoyer » pour le publier et l'envoyer.",
    409,
  ],
  "not-publishable": [
    "Cet article ne peut pas être publié : son extrait et son contenu sont requis. Rien n'a été envoyé.",
    409,
  ],
  "no-subscribers": ["Aucun abonné actif : rien n'a été envoyé.", 409],
  "not-found": ["Article inconnu", 404],
};

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const parsed = parseIntent(formData, ["test", "send", "publish-and-send"]);
  if (!parsed.ok) {
    return refused(parsed.reason === "id" ? "Article inconnu" : "Action inconnue", 400);
  }
  if (parsed.id !== params.id) return refused("Article inconnu", 400);
  // The confirmation dialog posts to this page's address, which carries the mode.
  const mode = newsletterMode(
    formData.get("mode") ?? new URL(request.url).searchParams.get("mode") ?? "excerpt",
  );
  if (!mode) return refused("Choisissez « Extrait et bouton » ou « Article complet ».", 400);
  const { intent, id } = parsed;
  const mailConfigured = mailConfig() !== null;

  try {
    if (intent === "test") {
      if (!(await getArticleForAdmin(id))) return refused("Article inconnu", 404);
      // To the signed-in administrator only: the address is the session's, never the form's.
      await enqueueNewsletterTest({ articleId: id, mode, to: admin.email });
      return redirectWithToast(pagePath(id, mode), {
        type: "success",
        title: "E-mail de test envoyé",
        description: mailConfigured
          ? `Il arrive dans quelques instants à ${admin.email}.`
          : `Il partira vers ${admin.email} dès que l'envoi d'e-mails sera configuré (SMTP_URL).`,
      });
    }
    const outcome = await sendArticle({
      articleId: id,
      createdBy: admin.id,
      mode,
      publish: intent === "publish-and-send",
    });
    if (outcome.kind !== "created") {
      const [description, status] = REFUSALS[outcome.kind];
      return refused(description, status);
    }
    return redirectWithToast(`/admin/newsletter/envois/${outcome.sendingId}`, {
      type: "success",
      title: intent === "publish-and-send" ? "Article publié, envoi commencé" : "Envoi commencé",
      description: mailConfigured
        ? `L'article part vers ${subscribers(outcome.total)}.`
        : `Les e-mails vers ${subscribers(outcome.total)} attendent que l'envoi d'e-mails soit configuré (SMTP_URL).`,
    });
  } catch (error) {
    log.error("admin_newsletter_send_failed", { error, intent });
    return data<ActionAnswer>(
      {
        toast: {
          type: "error",
          title: "Erreur",
          description:
            intent === "test"
              ? "Impossible d'envoyer l'e-mail de test"
              : "Impossible d'envoyer l'article",
        },
      },
      { status: 500 },
    );
  }
}
