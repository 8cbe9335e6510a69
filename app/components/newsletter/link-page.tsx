import { MailCheck } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import type { LinkTarget } from "~/lib/newsletter-links";
import type { ToastMessage } from "~/lib/toast";

/**
 * The frame of the pages an e-mailed link opens (confirmation, unsubscribe): a heading, what the link is
 * about, and at most one button. After a button's answer the heading gets the focus, so that the page's
 * new state is what a screen reader reads next (the button pressed may be gone).
 */
export function NewsletterLinkPage({
  title,
  notice,
  answered,
  children,
}: {
  title: string;
  /** A refusal of the button's press, written above the text (e.g. too many attempts). */
  notice?: ToastMessage;
  /** The action's answer, if the page is one: the focus moves to the heading when it arrives. */
  answered?: unknown;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (answered) heading.current?.focus();
  }, [answered]);
  return (
    <section className="mx-auto max-w-2xl px-4 pt-32 pb-20 sm:px-6">
      <MailCheck aria-hidden="true" className="size-10 text-gold-dark" />
      <h1 ref={heading} tabIndex={-1} className="mt-4 text-3xl font-bold outline-none sm:text-4xl">
        {title}
      </h1>
      {notice ? <FormAlert message={notice} className="mt-6" /> : null}
      <div className="mt-6 space-y-4 text-lg leading-relaxed text-muted-foreground [&_strong]:text-foreground">
        {children}
      </div>
    </section>
  );
}

/** The page's one button: a real form posting the link's token (works without JavaScript). */
export function LinkButton({
  token,
  label,
  intent,
  variant = "default",
}: {
  token: string;
  label: string;
  /** Which of the page's steps the button asks for, when it has several. */
  intent?: string;
  variant?: "default" | "outline";
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="pt-4">
      <input type="hidden" name="token" value={token} />
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <Button type="submit" size="lg" variant={variant} disabled={busy}>
        {label}
      </Button>
    </Form>
  );
}

/** The way on once nothing is left to do on the page. */
export function BackToBlog() {
  return (
    <p className="pt-4">
      <Link to="/blog" className={buttonVariants({ variant: "outline", size: "lg" })}>
        Retour au blog
      </Link>
    </p>
  );
}

/** A link that leads to no subscriber: not ours or altered, gone, or a test e-mail's. */
type UnusableLink = Exclude<LinkTarget, { kind: "subscriber" }>["kind"];

/**
 * The page of a link that leads to no subscriber: each link page words the three cases its own way
 * (`words`), the frame and the way back to the blog are the same.
 */
export function UnusableLinkPage({
  kind,
  words,
  notice,
  answered,
}: {
  kind: UnusableLink;
  words: Record<UnusableLink, { title: string; text: string }>;
  notice?: ToastMessage;
  answered?: unknown;
}) {
  return (
    <NewsletterLinkPage title={words[kind].title} notice={notice} answered={answered}>
      <p>{words[kind].text}</p>
      <BackToBlog />
    </NewsletterLinkPage>
  );
}
