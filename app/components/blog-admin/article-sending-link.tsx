import { MailCheck, Send } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { formatDateFr } from "~/lib/dates";

type ArticleSendingLinkProps = {
  article: { id: string; title: string; published: boolean };
  /** The article's newsletter sending (one at most), or null when it was never sent. */
  sending: { id: string; createdAt: Date | string } | null;
};

/**
 * An article's newsletter, where the owner manages articles: « Envoyer par e-mail » for a published article
 * not sent yet, « Envoyé le … » (to the sending's progress) once sent; nothing for a draft never sent.
 */
export function ArticleSendingLink({ article, sending }: ArticleSendingLinkProps) {
  if (!sending && !article.published) return null;
  return (
    <Button asChild variant="ghost" size="sm">
      {sending ? (
        <Link to={`/admin/newsletter/envois/${sending.id}`}>
          <MailCheck aria-hidden="true" />
          Envoyé le {formatDateFr(sending.createdAt)}
          <span className="sr-only"> : « {article.title} »</span>
        </Link>
      ) : (
        <Link to={`/admin/newsletter/envoyer/${article.id}`}>
          <Send aria-hidden="true" />
          Envoyer par e-mail<span className="sr-only"> « {article.title} »</span>
        </Link>
      )}
    </Button>
  );
}
