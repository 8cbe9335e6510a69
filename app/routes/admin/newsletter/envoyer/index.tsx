import { ExternalLink, FileText, MailCheck, Pencil, Send } from "lucide-react";
import { Form, Link, useSubmit } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { FormAlert } from "~/components/admin/form-alert";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { Button } from "~/components/ui/button";
import { subscribers } from "~/lib/newsletter-admin";
import { StatusBadge } from "~/components/admin/status-badge";

export { action, loader } from "./index.server";

type NewsletterMode = Route.ComponentProps["loaderData"]["mode"];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Envoyer par e-mail : ${loaderData?.article.title ?? "article"} - Administration` },
];

/** The two ways an article goes out, as the owner chooses between them. */
const MODES: Array<{ value: NewsletterMode; label: string; hint: string }> = [
  {
    value: "excerpt",
    label: "Extrait et bouton",
    hint: "Le résumé de l'article et un bouton pour le lire sur le site.",
  },
  {
    value: "full",
    label: "Article complet",
    hint: "Tout le texte et les images de l'article dans l'e-mail.",
  },
];

export default function NewsletterSend({ loaderData, actionData }: Route.ComponentProps) {
  const { article, activeSubscribers, sending, mode, adminEmail, mailConfigured } = loaderData;
  const submit = useSubmit();
  const previewPath = `/admin/newsletter/envoyer/${article.id}/apercu?mode=${mode}`;
  const count = subscribers(activeSubscribers);

  return (
    <div className="space-y-6">
      <AdminPageHeader title="Envoyer par e-mail" summary={<>« {article.title} »</>} />

      <section
        aria-labelledby="article-titre"
        className="space-y-3 rounded-xl border border-border bg-white p-5"
      >
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge tone={article.published ? "success" : "neutral"}>
            {article.published ? "Publié" : "Brouillon"}
          </StatusBadge>
          <h2 id="article-titre" className="font-sans text-lg font-semibold break-words">
            {article.title}
          </h2>
        </div>
        <p className="text-sm text-muted-foreground">
          {article.published && article.publishedOn
            ? `Publié le ${article.publishedOn}`
            : "Pas encore publié"}
          {" · "}
          {activeSubscribers > 0
            ? `${count} actif${activeSubscribers > 1 ? "s" : ""}`
            : "Aucun abonné actif"}
        </p>
        {article.scheduledFor && !article.published ? (
          <p className="text-sm">
            Publication programmée le {article.scheduledFor}
            {article.newsletterOnPublish ? ", avec envoi aux abonnés" : ""}. « Publier et envoyer »
            le publie dès maintenant.
          </p>
        ) : null}
        {article.excerpt ? <p className="text-sm">{article.excerpt}</p> : null}
        <p className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <Link
            to={`/admin/articles/${article.id}/modifier`}
            className="inline-flex items-center gap-1.5 underline underline-offset-4"
          >
            <Pencil aria-hidden="true" className="size-4" />
            Modifier l'article
          </Link>
          {article.published ? (
            <a
              href={`/blog/${article.slug}`}
              className="inline-flex items-center gap-1.5 underline underline-offset-4"
            >
              <ExternalLink aria-hidden="true" className="size-4" />
              Voir sur le site
            </a>
          ) : null}
        </p>
      </section>

      {sending ? (
        <section
          aria-labelledby="deja-envoye-titre"
          className="space-y-2 rounded-xl border border-emerald-200 bg-emerald-50 p-5 text-emerald-950"
        >
          <h2 id="deja-envoye-titre" className="font-sans text-lg font-semibold">
            Article déjà envoyé
          </h2>
          <p>
            Cet article a déjà été envoyé le {sending.sentOn} à {subscribers(sending.total)}
            {sending.status === "sending" ? " (envoi en cours)" : ""}. Un article n'est jamais
            envoyé deux fois.
          </p>
          <p>
            <Link
              to={`/admin/newsletter/envois/${sending.id}`}
              className="font-semibold underline underline-offset-4"
            >
              Voir l'envoi
            </Link>
          </p>
        </section>
      ) : (
        <>
          {mailConfigured ? null : (
            <MailNotConfigured>
              L'envoi reste possible : rien n'est perdu, les e-mails attendent dans la file et
              partiront dès que <code className="font-mono">SMTP_URL</code> sera défini et le site
              redémarré.
            </MailNotConfigured>
          )}

          <section
            aria-labelledby="apercu-titre"
            className="space-y-4 rounded-xl border border-border bg-white p-5"
          >
            <h2 id="apercu-titre" className="font-sans text-lg font-semibold">
              L'e-mail
            </h2>
            {/* The mode is in the address: the preview follows it with or without JavaScript. */}
            <Form
              method="get"
              preventScrollReset
              replace
              className="space-y-3"
              onChange={(event) =>
                void submit(event.currentTarget, { replace: true, preventScrollReset: true })
              }
            >
              <fieldset>
                <legend className="mb-2 text-sm font-semibold">Contenu de l'e-mail</legend>
                <div className="grid gap-3 sm:grid-cols-2">
                  {MODES.map((option) => (
                    <label
                      key={option.value}
                      className="grid cursor-pointer grid-cols-[auto_1fr] items-start gap-x-3 rounded-lg border border-border p-3 has-[:checked]:border-gold-dark has-[:checked]:ring-2 has-[:checked]:ring-gold-dark"
                    >
                      <input
                        type="radio"
                        name="mode"
                        value={option.value}
                        defaultChecked={option.value === mode}
                        className="row-span-2 mt-1 size-4 shrink-0 accent-gold-dark"
                        aria-labelledby={`mode-${option.value}`}
                        aria-describedby={`mode-${option.value}-aide`}
                      />
                      <span id={`mode-${option.value}`} className="text-sm font-semibold">
                        {option.label}
                      </span>
                      <span
                        id={`mode-${option.value}-aide`}
                        className="text-sm text-muted-foreground"
                      >
                        {option.hint}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <Button type="submit" variant="outline" size="sm">
                Mettre à jour l'aperçu
              </Button>
            </Form>
            <iframe
              src={previewPath}
              title="Aperçu de l'e-mail"
              sandbox=""
              className="h-[40rem] w-full rounded-md border border-border bg-stone-100"
            />
            <p className="text-sm">
              <a
                href={`${previewPath}&format=texte`}
                className="inline-flex items-center gap-1.5 underline underline-offset-4"
              >
                <FileText aria-hidden="true" className="size-4" />
                Voir la version texte
              </a>{" "}
              <span className="text-muted-foreground">
                (pour les messageries qui n'affichent pas le HTML)
              </span>
            </p>
          </section>

          <section
            aria-labelledby="envoi-titre"
            className="space-y-4 rounded-xl border border-border bg-white p-5"
          >
            <h2 id="envoi-titre" className="font-sans text-lg font-semibold">
              Envoi
            </h2>
            <Form method="post" className="flex flex-wrap items-center gap-3">
              <input type="hidden" name="id" value={article.id} />
              <input type="hidden" name="mode" value={mode} />
              <Button type="submit" name="intent" value="test" variant="outline" size="sm">
                <MailCheck aria-hidden="true" />
                M'envoyer un test
              </Button>
              <span className="text-sm text-muted-foreground">
                à {adminEmail}, avec l'objet précédé de « [Test] »
              </span>
            </Form>
            {activeSubscribers === 0 ? (
              <p className="text-sm">
                Aucun abonné actif pour le moment : il n'y a personne à qui envoyer cet article.
              </p>
            ) : !article.published && !article.publishable ? (
              <p className="text-sm">
                Ce brouillon ne peut pas encore être publié : complétez son extrait et son contenu.
              </p>
            ) : (
              <div className="space-y-2">
                <p className="text-sm">
                  {article.published
                    ? `L'article partira vers ${count} actif${activeSubscribers > 1 ? "s" : ""}, une seule fois.`
                    : `L'article sera publié, puis envoyé à ${count} actif${activeSubscribers > 1 ? "s" : ""}, une seule fois.`}
                </p>
                <ConfirmedActionForm
                  id={article.id}
                  intent={article.published ? "send" : "publish-and-send"}
                  param="confirmer-envoi"
                  confirmation={
                    article.published
                      ? `Envoyer cet article à ${count} ?`
                      : `Publier cet article et l'envoyer à ${count} ?`
                  }
                  itemLabel={article.title}
                  label={
                    <>
                      <Send aria-hidden="true" />
                      {article.published ? `Envoyer à ${count}` : "Publier et envoyer"}
                    </>
                  }
                  variant="default"
                />
              </div>
            )}
            <FormAlert message={actionData?.toast} />
          </section>
        </>
      )}
      {sending ? <FormAlert message={actionData?.toast} /> : null}
    </div>
  );
}
